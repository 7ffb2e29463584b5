// PostgreSQL with automatic failover for the HA drill (tools/ha), from Debian's packages: two Patroni members (a primary
// and a synchronous standby, `synchronous_mode: true`) of the installed PostgreSQL (15), etcd as their DCS (one member:
// the drill kills database nodes, not the DCS), and HAProxy in front, routing to whichever member Patroni's REST API
// calls the primary (`GET /primary` answers 200 on the leader only). Everything listens on free loopback ports and lives
// under one directory; the machine's own cluster (5432) is never touched.
//
// Authentication: scram-sha-256 over TCP (127.0.0.1) for everyone, with passwords generated for each cluster (the
// superuser's is in `url`); `local` (the Unix socket in each member's own 0700 directory) is trust, for an operator
// poking at a member with `runuser -u postgres -- psql -h <dir>/pg0 -p <pgPort>`.
//
// PostgreSQL refuses to run as root: Patroni (and so its postmaster) runs as the `postgres` user, its directories
// owned by it. etcd and HAProxy run as whoever runs this (root in CI).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../dev/system.mjs';
import { ensureHaPackages } from './packages.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** a timeout that does not keep the process alive once everything else is done */
const deadline = (ms) => new Promise((r) => setTimeout(r, ms).unref());
const exited = (child) => child.exitCode !== null || child.signalCode !== null;
const waitExit = (child) => (exited(child) ? Promise.resolve() : new Promise((r) => child.once('exit', r)));

/** Failover settings: the leader key lives 10 s, so a dead primary is replaced within ~12 s (the drill allows 30). */
export const PATRONI_DCS = {
  ttl: 10,
  loop_wait: 1,
  retry_timeout: 4,
  // a standby further behind than 1 MiB of WAL is not promoted (with synchronous_mode only the sync standby is anyway)
  maximum_lag_on_failover: 1_048_576,
  synchronous_mode: true,
  // not strict: when the standby is gone the primary keeps taking writes (unprotected) instead of blocking them all
  synchronous_mode_strict: false,
};

/** The PostgreSQL bin directory: PG_BIN_DIR, else Debian's for 15, else the newest under /usr/lib/postgresql. */
export function postgresBinDir() {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  if (fs.existsSync('/usr/lib/postgresql/15/bin/postgres')) return '/usr/lib/postgresql/15/bin';
  const versions = fs.existsSync('/usr/lib/postgresql')
    ? fs
        .readdirSync('/usr/lib/postgresql')
        .filter((v) => fs.existsSync(path.join('/usr/lib/postgresql', v, 'bin/postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions.length) throw new Error('PostgreSQL was not found under /usr/lib/postgresql: apt-get install -y postgresql-15 (or set PG_BIN_DIR)');
  return path.join('/usr/lib/postgresql', versions[0], 'bin');
}

function postgresUser() {
  const id = (flag) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const uid = id('-u');
  const gid = id('-g');
  if (uid.status !== 0 || gid.status !== 0) throw new Error('there is no `postgres` user to run PostgreSQL as (the postgresql package creates it)');
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

function chownTree(target, { uid, gid }) {
  fs.chownSync(target, uid, gid);
  if (fs.statSync(target).isDirectory()) for (const entry of fs.readdirSync(target)) chownTree(path.join(target, entry), { uid, gid });
}

/** pids of the processes whose command line contains `pattern` (a fixed string), this process excepted */
function pgrep(pattern) {
  const res = spawnSync('pgrep', ['-f', '--', pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')], { encoding: 'utf8' });
  return res.stdout
    .split('\n')
    .map(Number)
    .filter((pid) => pid && pid !== process.pid);
}

/** the postmaster's pid from its data directory (null when there is none or it is not running) */
function postmasterPid(dataDir) {
  try {
    const pid = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return pid && alive(pid) ? pid : null;
  } catch {
    return null;
  }
}

/** running (a zombie no longer counts: it has exited and waits for its parent) */
function alive(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** the process group of a pid (Patroni starts the postmaster in a session of its own: it and its backends share it) */
function processGroup(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return null;
  }
}

function killHard(pid) {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* gone */
  }
}

/**
 * Immediate shutdown of a postmaster left without its Patroni (SIGQUIT): its backends are killed at once, but it exits
 * by itself and so removes its System V shared memory segment, which a kill -9 would leave behind.
 */
function quitPostmaster(dataDir) {
  const pid = postmasterPid(dataDir);
  if (pid) {
    try {
      process.kill(pid, 'SIGQUIT');
    } catch {
      /* gone */
    }
  }
  return pid;
}

/**
 * The System V segment a postmaster killed with -9 left (its id is on the 7th line of postmaster.pid), removed once no
 * process is attached to it: the next postmaster on that data directory would do it, but a stopped cluster has none.
 */
function releaseSharedMemory(dataDir) {
  let shmid;
  try {
    shmid = fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[6]?.trim().split(/\s+/)[1];
  } catch {
    return;
  }
  if (!/^\d+$/.test(shmid ?? '')) return;
  const row = spawnSync('ipcs', ['-m'], { encoding: 'utf8' })
    .stdout.split('\n')
    .map((line) => line.trim().split(/\s+/))
    .find((cols) => cols[1] === shmid);
  // columns: key shmid owner perms bytes nattch status
  if (row && row[2] === 'postgres' && row[5] === '0') spawnSync('ipcrm', ['-m', shmid], { stdio: 'ignore' });
}

/** kill -9 a postmaster with all its backends at once (its process group), as if the machine under it died */
function killPostmaster(dataDir) {
  const pid = postmasterPid(dataDir);
  if (!pid) return;
  const pgid = processGroup(pid);
  if (pgid && pgid > 1 && pgid !== process.pid) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  killHard(pid);
  for (const child of spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .map(Number))
    if (child) killHard(child);
}

async function getJson(url, timeoutMs = 1000) {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  return { status: res.status, body: await res.json().catch(() => ({})) };
}

function tail(file, lines = 15) {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Starts etcd, two Patroni members (pg0, pg1) and HAProxy under `dir` (created; removed by stop()). Resolves once a
 * leader and a streaming synchronous standby exist and HAProxy routes to the leader.
 */
export async function startPostgresHa({ dir, log = () => undefined }) {
  const bins = ensureHaPackages(log);
  const binDir = postgresBinDir();
  const owner = postgresUser();
  const startedAt = Date.now();
  fs.mkdirSync(dir, { recursive: true });
  fs.chmodSync(dir, 0o755);
  if (spawnSync('runuser', ['-u', 'postgres', '--', 'test', '-x', dir]).status !== 0 && process.getuid?.() === 0)
    throw new Error(`the postgres user cannot reach ${dir}: give it a directory whose parents it may enter (e.g. under /tmp)`);

  // a name of its own: Patroni's scope, PostgreSQL's cluster_name (in every backend's process title) and etcd's prefix
  const scope = `coffer-ha-${randomBytes(4).toString('hex')}`;
  const password = randomBytes(18).toString('hex');
  const replicationPassword = randomBytes(18).toString('hex');
  const etcdPort = await freePort();
  const etcdPeerPort = await freePort();
  const haproxyPort = await freePort();
  const members = [];
  for (const name of ['pg0', 'pg1']) members.push({ name, pgPort: await freePort(), restPort: await freePort() });
  const state = { members: new Map(), haproxy: null, etcd: null, stopped: false };

  // ---- etcd: Patroni's DCS (v3 API; one member) ----
  const etcdDir = path.join(dir, 'etcd');
  fs.mkdirSync(etcdDir, { recursive: true, mode: 0o700 });
  const etcdLog = path.join(dir, 'etcd.log');
  const etcdUrl = `http://127.0.0.1:${etcdPort}`;
  const startEtcd = () => {
    const out = fs.openSync(etcdLog, 'a');
    const peer = `http://127.0.0.1:${etcdPeerPort}`;
    state.etcd = spawn(
      bins.etcd,
      [
        '--name',
        'etcd0',
        '--data-dir',
        path.join(etcdDir, 'data'),
        '--listen-client-urls',
        etcdUrl,
        '--advertise-client-urls',
        etcdUrl,
        '--listen-peer-urls',
        peer,
        '--initial-advertise-peer-urls',
        peer,
        '--initial-cluster',
        `etcd0=${peer}`,
        '--initial-cluster-state',
        'new',
        '--initial-cluster-token',
        scope,
        '--enable-v2=false',
      ],
      { stdio: ['ignore', out, out] },
    );
    fs.closeSync(out);
  };

  // ---- Patroni members ----
  const patroniConfig = (m) => {
    const memberDir = path.join(dir, m.name);
    return {
      scope,
      namespace: '/coffer-ha/',
      name: m.name,
      log: { level: 'INFO', format: '%(asctime)s %(levelname)s: %(message)s' },
      restapi: { listen: `127.0.0.1:${m.restPort}`, connect_address: `127.0.0.1:${m.restPort}` },
      etcd3: { hosts: [`127.0.0.1:${etcdPort}`], protocol: 'http' },
      bootstrap: {
        dcs: {
          ...PATRONI_DCS,
          postgresql: {
            // a demoted primary that wrote past the new leader's timeline is rewound, not rebuilt (needs wal_log_hints)
            use_pg_rewind: true,
            use_slots: true,
            parameters: {
              // Coffer's six services open pools of 10 each, times their replicas, plus the drill's own clients
              max_connections: 300,
              wal_log_hints: 'on',
              wal_level: 'replica',
              hot_standby: 'on',
              max_wal_senders: 10,
              max_replication_slots: 10,
              wal_keep_size: '256MB',
              synchronous_commit: 'on',
              shared_buffers: '64MB',
              password_encryption: 'scram-sha-256',
            },
          },
        },
        initdb: [{ encoding: 'UTF8' }, { locale: 'C.UTF-8' }, 'data-checksums'],
      },
      postgresql: {
        listen: `127.0.0.1:${m.pgPort}`,
        connect_address: `127.0.0.1:${m.pgPort}`,
        data_dir: path.join(memberDir, 'data'),
        bin_dir: binDir,
        pgpass: path.join(memberDir, 'pgpass'),
        authentication: {
          superuser: { username: 'postgres', password },
          replication: { username: 'replicator', password: replicationPassword },
        },
        // its socket in its own directory, never /var/run/postgresql (the machine's cluster's)
        parameters: { unix_socket_directories: memberDir },
        pg_hba: ['local all all trust', 'host all all 127.0.0.1/32 scram-sha-256', 'host replication replicator 127.0.0.1/32 scram-sha-256'],
        // a member that cannot be rewound (or diverged) is cloned again from the leader instead of staying out
        remove_data_directory_on_rewind_failure: true,
        remove_data_directory_on_diverged_timelines: true,
      },
      watchdog: { mode: 'off' },
      tags: { nofailover: false, noloadbalance: false, clonefrom: false, nosync: false },
    };
  };
  for (const m of members) {
    const memberDir = path.join(dir, m.name);
    fs.mkdirSync(memberDir, { recursive: true, mode: 0o700 });
    const conf = path.join(memberDir, 'patroni.yml');
    // JSON is YAML
    fs.writeFileSync(conf, `${JSON.stringify(patroniConfig(m), null, 2)}\n`, { mode: 0o600 });
    chownTree(memberDir, owner);
    state.members.set(m.name, { ...m, dir: memberDir, conf, dataDir: path.join(memberDir, 'data'), logFile: path.join(memberDir, 'patroni.log'), child: null });
  }
  const startPatroni = (name) => {
    const m = state.members.get(name);
    const out = fs.openSync(m.logFile, 'a');
    fs.fchownSync(out, owner.uid, owner.gid);
    m.child = spawn(bins.patroni, [m.conf], {
      cwd: m.dir,
      uid: owner.uid,
      gid: owner.gid,
      stdio: ['ignore', out, out],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: m.dir, USER: 'postgres', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' },
    });
    fs.closeSync(out);
    return m.child;
  };

  // ---- HAProxy: to the member whose GET /primary answers 200 ----
  const haproxyConf = path.join(dir, 'haproxy.cfg');
  const haproxyLog = path.join(dir, 'haproxy.log');
  fs.writeFileSync(
    haproxyConf,
    [
      'global',
      '  maxconn 2000',
      'defaults',
      '  mode tcp',
      '  timeout connect 2s',
      '  timeout client 1h',
      '  timeout server 1h',
      '  timeout check 1s',
      'listen postgres-primary',
      `  bind 127.0.0.1:${haproxyPort}`,
      '  option httpchk GET /primary',
      '  http-check expect status 200',
      // checked every 500 ms; down after 2 failures, up after 1 success; the sessions of a server marked down are cut
      // at once, so no client keeps talking to a dead or demoted primary
      '  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions',
      ...members.map((m) => `  server ${m.name} 127.0.0.1:${m.pgPort} maxconn 500 check port ${m.restPort}`),
      '',
    ].join('\n'),
  );
  const startHaproxy = () => {
    const out = fs.openSync(haproxyLog, 'a');
    state.haproxy = spawn(bins.haproxy, ['-db', '-f', haproxyConf], { stdio: ['ignore', out, out] });
    fs.closeSync(out);
  };

  const url = `postgres://postgres:${password}@127.0.0.1:${haproxyPort}/postgres`;

  // the processes die with this one, even when a test fails without calling stop()
  const onExit = () => {
    for (const m of state.members.values()) {
      if (m.child && !exited(m.child)) m.child.kill('SIGKILL');
      // it outlives this process (a session of its own) long enough to shut down and release its shared memory
      quitPostmaster(m.dataDir);
    }
    for (const c of [state.haproxy, state.etcd]) if (c && !exited(c)) c.kill('SIGKILL');
  };
  process.once('exit', onExit);

  /** Patroni's view of the cluster, from the first member whose REST API answers */
  const clusterView = async () => {
    for (const m of state.members.values()) {
      if (!m.child || exited(m.child)) continue;
      try {
        const { status, body } = await getJson(`http://127.0.0.1:${m.restPort}/cluster`);
        if (status === 200 && Array.isArray(body.members)) return body.members;
      } catch {
        /* next */
      }
    }
    return null;
  };

  const leader = async () => {
    const view = await clusterView();
    return view?.find((m) => m.role === 'leader' && m.state === 'running')?.name ?? null;
  };

  /** through HAProxy: a primary (not in recovery) with a standby streaming synchronously */
  const primaryHasSyncStandby = async () => {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000, query_timeout: 2000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const { rows } = await client.query(
        "SELECT pg_is_in_recovery() AS recovery, (SELECT count(*)::int FROM pg_stat_replication WHERE state = 'streaming' AND sync_state = 'sync') AS sync",
      );
      return !rows[0].recovery && rows[0].sync > 0;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  };

  const waitHealthy = async ({ timeoutMs = 60_000 } = {}) => {
    const until = Date.now() + timeoutMs;
    let last = 'no answer yet';
    for (;;) {
      if (state.stopped) throw new Error('the PostgreSQL HA cluster was stopped');
      const dead = [state.etcd, state.haproxy].find((c) => c && exited(c));
      if (dead) throw new Error(`${dead === state.etcd ? `etcd (${etcdLog})` : `haproxy (${haproxyLog})`} exited`);
      const view = await clusterView();
      const lead = view?.find((m) => m.role === 'leader' && m.state === 'running');
      const sync = view?.find((m) => m.role === 'sync_standby' && m.state === 'running');
      last = view ? JSON.stringify(view.map((m) => ({ name: m.name, role: m.role, state: m.state, lag: m.lag }))) : 'no Patroni REST API answered';
      if (lead && sync && (await primaryHasSyncStandby())) return { leader: lead.name, syncStandby: sync.name };
      if (Date.now() > until) {
        const logs = [...state.members.values()].map((m) => `--- ${m.name} (${m.logFile}):\n${tail(m.logFile)}`).join('\n');
        throw new Error(`no leader with a streaming synchronous standby within ${timeoutMs} ms (members: ${last})\n${logs}`);
      }
      await sleep(250);
    }
  };

  const stop = async () => {
    if (state.stopped) return;
    state.stopped = true;
    try {
      if (state.haproxy && !exited(state.haproxy)) {
        state.haproxy.kill('SIGTERM');
        await Promise.race([waitExit(state.haproxy), deadline(3000)]);
      }
      // Patroni stops its PostgreSQL on SIGTERM (a clean shutdown: no shared memory left behind)
      const patronis = [...state.members.values()].filter((m) => m.child && !exited(m.child));
      for (const m of patronis) m.child.kill('SIGTERM');
      await Promise.race([Promise.all(patronis.map((m) => waitExit(m.child))), deadline(20_000)]);
      for (const m of state.members.values()) if (m.child && !exited(m.child)) m.child.kill('SIGKILL');
      const quitting = [...state.members.values()].map((m) => quitPostmaster(m.dataDir)).filter(Boolean);
      for (let i = 0; i < 50 && quitting.some(alive); i++) await sleep(100);
      for (const m of state.members.values()) killPostmaster(m.dataDir);
      if (state.etcd && !exited(state.etcd)) {
        state.etcd.kill('SIGTERM');
        await Promise.race([waitExit(state.etcd), deadline(5000)]);
      }
      for (const c of [state.haproxy, state.etcd, ...[...state.members.values()].map((m) => m.child)]) if (c && !exited(c)) c.kill('SIGKILL');
      // whatever is left (a backend, a pg_rewind, a basebackup): everything of this cluster names its dir or its scope
      for (let i = 0; i < 50; i++) {
        const left = [...pgrep(dir), ...pgrep(scope)].filter(alive);
        if (!left.length) break;
        left.forEach(killHard);
        await sleep(100);
      }
      for (const m of state.members.values()) releaseSharedMemory(m.dataDir);
    } finally {
      process.removeListener('exit', onExit);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };

  try {
    startEtcd();
    for (let i = 0; ; i++) {
      if (exited(state.etcd)) throw new Error(`etcd exited: ${tail(etcdLog)}`);
      const ok = await getJson(`${etcdUrl}/health`).catch(() => null);
      if (ok?.body?.health === 'true') break;
      if (i > 100) throw new Error(`etcd did not become healthy within 20 s: ${tail(etcdLog)}`);
      await sleep(200);
    }
    // both at once: they race for the initialize key, the loser clones the winner with pg_basebackup
    for (const m of members) startPatroni(m.name);
    startHaproxy();
    await waitHealthy({ timeoutMs: 120_000 });
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
  log(`PostgreSQL HA (Patroni ${members.map((m) => m.name).join(' + ')}, etcd, HAProxy on ${haproxyPort}) ready in ${Date.now() - startedAt} ms`);

  const member = (name) => {
    const m = state.members.get(name);
    if (!m) throw new Error(`no member ${name} (the members: ${[...state.members.keys()].join(', ')})`);
    return m;
  };

  return {
    url,
    members: members.map(({ name, pgPort, restPort }) => ({ name, pgPort, restPort })),
    scope,
    etcdUrl,
    haproxyPort,
    leader,
    /** Patroni's members ({ name, role, state, lag, timeline, … }) or null when no REST API answers */
    cluster: clusterView,
    /**
     * A node's death: kill -9 of the leader's Patroni and, at once, of its postmaster and every backend (its process
     * group); the standby takes over once the leader key expires (ttl). Resolves { name, at } (at: ms epoch of the kill).
     */
    async killLeader() {
      const name = await leader();
      if (!name) throw new Error('there is no leader to kill');
      const m = member(name);
      const at = Date.now();
      m.child.kill('SIGKILL');
      killPostmaster(m.dataDir);
      await waitExit(m.child);
      for (let i = 0; i < 50 && postmasterPid(m.dataDir); i++) await sleep(20);
      log(`killed the leader ${name} (Patroni and PostgreSQL, kill -9)`);
      return { name, at };
    },
    /**
     * Starts that member's Patroni again (after killLeader): it rejoins as a replica, rewound with pg_rewind when the
     * old timeline went further. Resolves once its REST API answers; waitHealthy() then waits for it to stream as the
     * synchronous standby.
     */
    async restart(name, { timeoutMs = 30_000 } = {}) {
      const m = member(name);
      if (m.child && !exited(m.child)) throw new Error(`${name}'s Patroni is running`);
      killPostmaster(m.dataDir);
      startPatroni(name);
      const until = Date.now() + timeoutMs;
      for (;;) {
        if (exited(m.child)) throw new Error(`${name}'s Patroni exited: ${tail(m.logFile)}`);
        const res = await getJson(`http://127.0.0.1:${m.restPort}/patroni`).catch(() => null);
        if (res) break;
        if (Date.now() > until) throw new Error(`${name}'s Patroni REST API did not answer within ${timeoutMs} ms: ${tail(m.logFile)}`);
        await sleep(200);
      }
      log(`restarted ${name}`);
    },
    waitHealthy,
    stop,
  };
}
