#!/usr/bin/env node
// `npm start`: zero-configuration local Coffer. Installs what is missing, builds, starts (or reuses) PostgreSQL and
// NATS, applies migrations, creates a default tenant on first start, then runs the six services with prefixed
// logs: as threads of one process (the service host, service-host.mjs) unless SERVICES_AS=processes asks for a
// process each. Ctrl-C stops everything. DATABASE_URL / NATS_URL / KEY_ENCRYPTION_KEYS override the local defaults. The local
// bus is production's: TLS with a CA generated into .data/nats, each service connecting as its own NATS user.
import './runtime.mjs'; // first: re-executes this command on the pinned Node (docs/runtime.md)
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import {
  DATA_DIR,
  ROOT,
  RUNTIME_FILE,
  SERVICES,
  build,
  ensureInstalled,
  freePort,
  ensureKeyEncryptionKeys,
  ensureNats,
  log_ as log,
  migrate,
  portOpen,
  servicesAs,
  startEmbeddedPostgres,
  startService,
  startServiceHost,
  waitForHttp,
} from './system.mjs';

const started = Date.now();
const children = [];
let embedded;
let stopping = false;

async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  log('stopping ...');
  for (const c of children) c.kill('SIGTERM');
  await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r() : c.once('exit', r)))));
  if (embedded) await embedded.pg.stop().catch(() => undefined);
  fs.rmSync(RUNTIME_FILE, { force: true });
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

/** A port nothing listens on yet: `preferred` when it is free, else one the system picks. */
async function portFor(preferred, what) {
  if (!(await portOpen(preferred))) return preferred;
  const port = await freePort();
  log(`port ${preferred} (${what}) is taken: using ${port}`);
  return port;
}

/**
 * The ports a service listens on: the gateway's API on PORT (8080), the operator's choice, used as given; each
 * process's health and metrics port on its default (docs/operations.md) unless something else holds it, as NATS
 * does with 4222, so a second checkout's `npm start` (or a test's) does not stop on a port it never asked for.
 */
async function servicePorts(s) {
  if (s.name !== 'gateway') return { [s.healthEnv]: String(await portFor(s.port, `${s.name} health`)) };
  // the demo checkout of the Elements fields is served on their origin when the whole system runs here
  return {
    PORT: process.env.PORT ?? '8080',
    [s.metricsEnv]: String(await portFor(s.metricsPort, 'gateway metrics')),
    ELEMENTS_DEMO: process.env.ELEMENTS_DEMO ?? 'true',
  };
}

async function main() {
  const mode = servicesAs(); // a bad SERVICES_AS stops the start before anything is built
  if (mode === 'processes' && !process.env.SERVICES_AS) log('KEK_PROVIDER=pkcs11: a process per service (an HSM library keeps one state per process)');
  fs.mkdirSync(DATA_DIR, { recursive: true, mode: 0o755 });
  ensureInstalled();
  build([...SERVICES.map((s) => s.name), 'admin', 'console', 'elements']);
  const kek = ensureKeyEncryptionKeys();

  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    log('starting the embedded PostgreSQL (data in .data/postgres) ...');
    embedded = await startEmbeddedPostgres();
    databaseUrl = embedded.url;
  }
  const nats = await ensureNats();
  if (nats.child) children.push(nats.child);
  await migrate(databaseUrl);
  fs.writeFileSync(RUNTIME_FILE, JSON.stringify({ pid: process.pid, databaseUrl, natsUrl: nats.url }, null, 2), { mode: 0o600 });

  const env = { DATABASE_URL: databaseUrl, NATS_URL: nats.url, KEY_ENCRYPTION_KEYS: kek };
  const bootstrapFile = path.join(DATA_DIR, 'bootstrap.json');
  if (!fs.existsSync(bootstrapFile)) {
    const res = spawnSync(process.execPath, [path.join(ROOT, 'dist/tools/admin/main.js'), 'tenants', 'create', '--name', 'default', '--json'], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (res.status !== 0) throw new Error('could not create the default tenant');
    fs.writeFileSync(bootstrapFile, res.stdout, { mode: 0o600 });
    const { tenant_id, management_key } = JSON.parse(res.stdout);
    log(`created the default tenant ${tenant_id}`);
    log(`its management key (shown once, also in .data/bootstrap.json): ${management_key}`);
  }

  const serviceEnv = async (s) => ({ ...env, ...nats.serviceEnv(s.name), ...(await servicePorts(s)) });
  const launched = [];
  if (mode === 'threads') {
    const entries = [];
    for (const s of SERVICES) entries.push({ service: s, env: await serviceEnv(s) });
    launched.push({ name: 'the service host', child: startServiceHost(entries) });
  } else {
    for (const s of SERVICES) launched.push({ name: s.name, child: startService(s, await serviceEnv(s)) });
  }
  for (const { name, child } of launched) {
    child.once('exit', (code, signal) => {
      if (!stopping) {
        log(`${name} exited (${signal ?? code}); stopping everything`);
        void stop(1);
      }
    });
    children.push(child);
  }
  const port = process.env.PORT ?? '8080';
  const consolePort = process.env.CONSOLE_PORT ?? '8081';
  await waitForHttp(`http://127.0.0.1:${port}/readyz`, 90_000);
  log(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s:`);
  log(`  API            http://localhost:${port}`);
  log(`  API reference  http://localhost:${port}/docs`);
  // the console on an origin of its own (another port): nothing the API origin serves can read its pages
  if (consolePort !== '0') log(`  console        ${process.env.CONSOLE_URL ?? `http://localhost:${consolePort}`}/console/`);
  // the hosted card fields, on an origin of their own too: the loader script a checkout page includes, and a demo
  const elementsPort = process.env.ELEMENTS_PORT ?? '8082';
  if (elementsPort !== '0') {
    const elementsUrl = process.env.ELEMENTS_URL ?? `http://localhost:${elementsPort}`;
    log(`  Elements       ${elementsUrl}/elements/v1/elements.js`);
    if ((process.env.ELEMENTS_DEMO ?? 'true') === 'true') log(`  Elements demo  ${elementsUrl}/elements/v1/demo/`);
  }
}

main().catch((err) => {
  log(`start failed: ${err.message}`);
  void stop(1);
});
