// Starts the whole system once for the end-to-end run: a throwaway database (created here, dropped in teardown),
// a private nats-server with JetStream on a free port, the five built services. Tests talk to it only over HTTP,
// plus a small loopback control endpoint to stop and start services (outage tests).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  SERVICES, dropDatabase, ensureDatabase, freePort, migrate, portOpen, startEmbeddedPostgres, startNatsServer, startService, waitForHttp,
} from '../../../../tools/dev/system.mjs';

export default async function globalSetup() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-e2e-'));
  fs.chmodSync(tmp, 0o755);
  const state = { tmp, children: new Map() };
  globalThis.__COFFER_E2E__ = state;

  // Database: the machine's PostgreSQL when it answers (TEST_DATABASE_URL overrides), else an embedded one.
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    if (await portOpen(5432)) adminUrl = 'postgres://postgres@127.0.0.1:5432/postgres';
    else {
      state.embedded = await startEmbeddedPostgres({ dataDir: path.join(tmp, 'pg'), port: await freePort() });
      adminUrl = state.embedded.url.replace(/\/coffer$/, '/postgres');
    }
  }
  const dbName = `coffer_test_${randomBytes(6).toString('hex')}`;
  await ensureDatabase(adminUrl, dbName);
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  const databaseUrl = u.toString();
  Object.assign(state, { adminUrl, dbName });
  await migrate(databaseUrl);

  const natsPort = await freePort();
  state.nats = await startNatsServer({ port: natsPort, storeDir: path.join(tmp, 'nats') });

  const gatewayPort = await freePort();
  const env = {
    DATABASE_URL: databaseUrl,
    NATS_URL: `nats://127.0.0.1:${natsPort}`,
    KEY_ENCRYPTION_KEYS: `test:${randomBytes(32).toString('base64')}`,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    AUTH_CACHE_TTL_MS: '5000',
    SESSION_SWEEP_INTERVAL_MS: '1000',
    TOKEN_SWEEP_INTERVAL_MS: '1000',
    ALLOW_PRIVATE_CALLBACKS: 'true',
    HEADER_ALIAS_PREFIXES: 'BT',
  };
  const logDir = path.join(process.cwd(), 'tmp', 'e2e-logs');
  fs.mkdirSync(logDir, { recursive: true });
  const ports = {};
  for (const s of SERVICES) ports[s.name] = s.name === 'gateway' ? gatewayPort : await freePort();
  const start = (s) => {
    const child = startService(s, { ...env, [s.healthEnv]: String(ports[s.name]) }, { quiet: true, logFile: path.join(logDir, `${s.name}.log`) });
    state.children.set(s.name, child);
    return child;
  };
  for (const s of SERVICES) start(s);
  await Promise.all(SERVICES.map((s) => waitForHttp(`http://127.0.0.1:${ports[s.name]}/readyz`, 90_000)));

  // Control endpoint for outage tests: POST /stop/<service>, POST /start/<service>
  const control = http.createServer(async (req, res) => {
    const [, action, name] = (req.url ?? '').split('/');
    const service = SERVICES.find((s) => s.name === name);
    if (!service || !['stop', 'start'].includes(action)) return res.writeHead(404).end();
    if (action === 'stop') {
      const child = state.children.get(name);
      if (child && child.exitCode === null) {
        await new Promise((r) => {
          child.once('exit', r);
          child.kill('SIGTERM');
        });
      }
    } else {
      start(service);
      await waitForHttp(`http://127.0.0.1:${ports[name]}/readyz`, 60_000);
    }
    res.writeHead(204).end();
  });
  const controlPort = await freePort();
  await new Promise((r) => control.listen(controlPort, '127.0.0.1', r));
  state.control = control;

  Object.assign(process.env, {
    COFFER_E2E_URL: `http://127.0.0.1:${gatewayPort}`,
    COFFER_E2E_DATABASE_URL: databaseUrl,
    COFFER_E2E_KEK: env.KEY_ENCRYPTION_KEYS,
    COFFER_E2E_CONTROL: `http://127.0.0.1:${controlPort}`,
    COFFER_E2E_LOG_DIR: logDir,
    COFFER_E2E_HEALTH_PORTS: JSON.stringify(ports),
  });
}

export async function stopAll() {
  const state = globalThis.__COFFER_E2E__;
  if (!state) return;
  state.control?.close();
  await Promise.all(
    [...state.children.values()].map(
      (c) => new Promise((r) => (c.exitCode !== null ? r() : (c.once('exit', r), c.kill('SIGTERM')))),
    ),
  );
  state.nats?.kill();
  if (state.dbName) await dropDatabase(state.adminUrl, state.dbName).catch(() => undefined);
  if (state.embedded) await state.embedded.pg.stop().catch(() => undefined);
  fs.rmSync(state.tmp, { recursive: true, force: true });
}
