// A throwaway Coffer (startEphemeralSystem) driven over stdin/stdout, one JSON object per line, for test files that
// cannot import ES modules (ts-jest compiles them to CommonJS). `node tools/dev/system-driver.mjs '<options JSON>'`
// prints {"ready": {...}} once started, then answers each request {"id", "op", ...} with {"id", "result"|"error"}.
// Options: {"hsm": true} starts it with KEK_PROVIDER=pkcs11 on a fresh SoftHSM2 token (`keys init` before the services);
// {"servicesAs": "threads"} runs the services as threads of one service host, as `npm start` does.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { createSoftHsmToken } from './softhsm.mjs';
import { ROOT, dropDatabase, ensureDatabase, startEphemeralSystem } from './system.mjs';

const options = JSON.parse(process.argv[2] ?? '{}');
const token = options.hsm ? createSoftHsmToken({ label: 'coffer-e2e', keyLabel: 'coffer-e2e-kek' }) : null;
const extraDatabases = [];

function admin(sys, args) {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'dist/tools/admin/main.js'), ...args], { env: { ...process.env, ...sys.env }, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const sys = await startEphemeralSystem({
  logDir: options.logDir,
  servicesAs: options.servicesAs,
  env: { ...(token ? { ...token.env, KEY_ENCRYPTION_KEYS: '', PKCS11_RETRY_MS: '500', PKCS11_TIMEOUT_MS: '3000' } : {}), ...(options.env ?? {}) },
  beforeServices: async (s) => {
    if (token) {
      Object.assign(process.env, { SOFTHSM2_CONF: token.conf });
      const r = admin(s, ['keys', 'init', '--json']);
      if (r.status !== 0) throw new Error(`keys init failed: ${r.stderr}`);
    }
  },
}).catch((err) => {
  // startEphemeralSystem has stopped what it started; the SoftHSM token is this driver's own
  token?.remove();
  throw err;
});

const ops = {
  admin: ({ args }) => admin(sys, args),
  createTenant: ({ name }) => sys.createTenant(name),
  stopService: ({ name, signal }) => sys.stopService(name, signal).then(() => true),
  startService: ({ name }) => sys.startService(name).then(() => true),
  /** SERVICES_AS=threads: signals the service host and resolves how it ended, {code, signal, ms} */
  signalHost: ({ signal }) => {
    const host = sys.children.get('service-host');
    const started = Date.now();
    return new Promise((resolve) => {
      host.once('exit', (code, sig) => {
        const ms = Date.now() - started;
        void host.logsWritten.then(() => resolve({ code, signal: sig, ms }));
      });
      host.kill(signal);
    });
  },
  /** the HSM goes away (its token directory is moved) and comes back */
  hsmAway: () => (fs.renameSync(token.tokenDir, `${token.tokenDir}.away`), true),
  hsmBack: () => (fs.renameSync(`${token.tokenDir}.away`, token.tokenDir), true),
  /** sets variables for the services started from now on */
  setEnv: ({ env }) => (Object.assign(sys.env, env), true),
  /** pg_dump of the system's database restored into a new one (removed at stop); returns its URL */
  backupRestore: async () => {
    const name = `${sys.dbName}_restored`;
    const dump = spawnSync('pg_dump', ['--format=custom', '--no-owner', sys.databaseUrl], { maxBuffer: 1 << 30 });
    if (dump.status !== 0) throw new Error(`pg_dump failed: ${dump.stderr}`);
    await ensureDatabase(sys.adminUrl, name);
    extraDatabases.push(name);
    const u = new URL(sys.adminUrl);
    u.pathname = `/${name}`;
    const restore = spawnSync('pg_restore', ['--no-owner', '--exit-on-error', '-d', u.toString()], { input: dump.stdout });
    if (restore.status !== 0) throw new Error(`pg_restore failed: ${restore.stderr}`);
    return { databaseUrl: u.toString(), name, bytes: dump.stdout.length };
  },
};

async function stop() {
  await sys.stop();
  for (const name of extraDatabases) await dropDatabase(sys.adminUrl, name).catch(() => undefined);
  if (token) {
    if (fs.existsSync(`${token.tokenDir}.away`)) fs.renameSync(`${token.tokenDir}.away`, token.tokenDir);
    token.remove();
  }
}

process.stdout.write(
  `${JSON.stringify({
    ready: {
      url: sys.url,
      ports: sys.ports,
      env: sys.env,
      pids: Object.fromEntries([...sys.children].map(([name, child]) => [name, child.pid])),
      hsm: token ? { tokenDir: token.tokenDir, conf: token.conf } : null,
    },
  })}\n`,
);
const rl = readline.createInterface({ input: process.stdin });
let stopping = false;
rl.on('line', async (line) => {
  const req = JSON.parse(line);
  if (req.op === 'stop') {
    stopping = true;
    await stop();
    process.stdout.write(`${JSON.stringify({ id: req.id, result: true })}\n`);
    process.exit(0);
  }
  try {
    const result = await ops[req.op](req);
    process.stdout.write(`${JSON.stringify({ id: req.id, result })}\n`);
  } catch (err) {
    process.stdout.write(`${JSON.stringify({ id: req.id, error: err instanceof Error ? err.message : String(err) })}\n`);
  }
});
// the test process went away without asking: clean up anyway
rl.on('close', () => {
  if (!stopping) void stop().then(() => process.exit(0));
});
