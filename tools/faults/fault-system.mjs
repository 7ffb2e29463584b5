// The system under test and the faults the suite can inject into it: the project's throwaway system
// (tools/dev/system.mjs) on a private embedded PostgreSQL (the machine's shared one must never be killed), with the
// services' DATABASE_URL and NATS_URL pointed at loopback TCP proxies so connections can be slowed down and cut.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, freePort, startEmbeddedPostgres, startEphemeralSystem, startNatsServer, waitForHttp } from '../dev/system.mjs';
import { TcpProxy } from './tcp-proxy.mjs';

export const SERVICE_NAMES = ['session-service', 'token-service', 'reactor-service', 'webhook-dispatcher', 'gateway'];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function exited(child) {
  return child.exitCode !== null || child.signalCode !== null;
}

function waitExit(child) {
  return exited(child) ? Promise.resolve() : new Promise((r) => child.once('exit', r));
}

export class FaultSystem {
  /** @param {{ logDir: string, env?: Record<string, string> }} opts */
  static async start({ logDir, env = {} }) {
    const self = new FaultSystem();
    self.pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-faults-pg-'));
    // the embedded server runs as the `postgres` user when we are root: it must reach its directory
    fs.chmodSync(self.pgDir, 0o755);
    self.pgPort = await freePort();
    self.postgres = await startEmbeddedPostgres({ dataDir: path.join(self.pgDir, 'data'), port: self.pgPort });
    const adminUrl = self.postgres.url.replace(/\/coffer$/, '/postgres');
    self.sys = await startEphemeralSystem({
      logDir,
      adminUrl,
      env,
      beforeServices: async (sys) => {
        const natsPort = Number(new URL(sys.env.NATS_URL).port);
        self.natsPort = natsPort;
        self.directNatsUrl = sys.env.NATS_URL;
        self.pgProxy = new TcpProxy({ name: 'postgres', targetPort: self.pgPort });
        self.natsProxy = new TcpProxy({ name: 'nats', targetPort: natsPort });
        const dbUrl = new URL(sys.env.DATABASE_URL);
        dbUrl.port = String(await self.pgProxy.listen());
        sys.env.DATABASE_URL = dbUrl.toString();
        // TLS passes through the proxy untouched: the services still verify the server's 127.0.0.1 certificate
        sys.env.NATS_URL = `tls://127.0.0.1:${await self.natsProxy.listen()}`;
      },
    });
    self.url = self.sys.url;
    return self;
  }

  get ports() {
    return this.sys.ports;
  }

  pid(name) {
    return this.sys.children.get(name)?.pid;
  }

  /**
   * The operator CLI, straight to PostgreSQL: it runs synchronously, so it must not go through the proxies, which
   * live in this process.
   */
  createTenant(name) {
    const res = spawnSync(process.execPath, [path.join(ROOT, 'dist/tools/admin/main.js'), 'tenants', 'create', '--name', name, '--json'], {
      env: { ...process.env, ...this.sys.env, DATABASE_URL: this.sys.databaseUrl, NATS_URL: this.directNatsUrl },
      encoding: 'utf8',
    });
    if (res.status !== 0) throw new Error(`tenants create failed: ${res.stderr}`);
    return JSON.parse(res.stdout);
  }

  /** kill -9 of one service process */
  kill(name) {
    return this.sys.stopService(name, 'SIGKILL');
  }

  /** graceful stop (SIGTERM: drain, then exit) */
  stop(name) {
    return this.sys.stopService(name, 'SIGTERM');
  }

  /** starts the service again; resolves once its /readyz answers 200 */
  restart(name) {
    return this.sys.startService(name);
  }

  pause(name) {
    if (this.dead().includes(name)) throw new Error(`${name} is not running`);
    process.kill(this.pid(name), 'SIGSTOP');
  }

  resume(name) {
    process.kill(this.pid(name), 'SIGCONT');
  }

  startReplica(name) {
    return this.sys.startReplica(name);
  }

  async killNats() {
    const child = this.sys.nats;
    child.kill('SIGKILL');
    await waitExit(child);
  }

  async restartNats() {
    this.sys.nats = await startNatsServer(this.sys.natsOptions);
  }

  async killPostgres() {
    const child = this.postgres.pg.process;
    child.kill('SIGKILL');
    await waitExit(child);
  }

  /**
   * Starts PostgreSQL again on the same data directory (crash recovery). Its backends notice the postmaster's death
   * and exit on their own; until they have, the old shared memory is in use and the start fails: try again.
   */
  async restartPostgres() {
    let lastError;
    for (let attempt = 0; attempt < 20; attempt++) {
      try {
        await this.postgres.pg.start();
        return;
      } catch (err) {
        lastError = err;
        await sleep(500);
      }
    }
    throw new Error(`PostgreSQL did not restart: ${lastError?.message ?? lastError}`);
  }

  /**
   * Waits until every service's /readyz answers 200 (nothing is restarted). Resolves with the milliseconds it took, or
   * rejects naming the services that did not get there (and those that died).
   */
  async waitAllReady(timeoutMs = 60_000) {
    const started = Date.now();
    const results = await Promise.allSettled(SERVICE_NAMES.map((name) => waitForHttp(`http://127.0.0.1:${this.ports[name]}/readyz`, timeoutMs)));
    const notReady = SERVICE_NAMES.filter((_, i) => results[i].status === 'rejected').map((name) => {
      const child = this.sys.children.get(name);
      return child && exited(child) ? `${name} exited (${child.exitCode ?? child.signalCode})` : `${name} not ready`;
    });
    if (notReady.length) throw new Error(notReady.join(', '));
    return Date.now() - started;
  }

  /** Services whose process has ended (none should have, unless a scenario killed it). */
  dead() {
    return SERVICE_NAMES.filter((name) => {
      const child = this.sys.children.get(name);
      return !child || exited(child);
    });
  }

  /**
   * Resident memory of a service in bytes: its process plus its child processes (reactor-service runs the sandboxes
   * in worker processes).
   */
  rss(name) {
    const pid = this.pid(name);
    return pid ? treeRss(pid) : 0;
  }

  async close() {
    await Promise.all([this.pgProxy?.close(), this.natsProxy?.close()]);
    await this.sys?.stop().catch(() => undefined);
    await this.postgres?.pg.stop().catch(() => undefined);
    fs.rmSync(this.pgDir, { recursive: true, force: true });
  }
}

function readRss(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status);
    return kb ? Number(kb[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function childrenOf(pid) {
  try {
    return fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((tid) => fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
  } catch {
    return [];
  }
}

function treeRss(pid) {
  return readRss(pid) + childrenOf(pid).reduce((sum, child) => sum + treeRss(child), 0);
}
