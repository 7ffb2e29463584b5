// A local NATS cluster for the HA drill (tools/ha): `size` nats-servers on loopback, each configured like the single
// private server of tools/dev (TLS required on the client port, one nkey user per service, JetStream), joined by
// cluster routes into one JetStream cluster, each node with its own server_name, store directory and monitoring port.
// The routes run TLS too, with a certificate of their own from the bus's CA (routes verify each other both ways, so the
// server certificate, issued for serverAuth only, would not do).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeNatsConfig } from '../dev/nats-bus.mjs';
import { findNatsServer, freePort } from '../dev/system.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** a timeout that does not keep the process alive once everything else is done */
const deadline = (ms) => new Promise((r) => setTimeout(r, ms).unref());
const exited = (child) => child.exitCode !== null || child.signalCode !== null;
const waitExit = (child) => (exited(child) ? Promise.resolve() : new Promise((r) => child.once('exit', r)));

/** a certificate for the routes (serverAuth + clientAuth, 127.0.0.1), signed by the bus's CA, under `dir` */
function issueRouteCertificate(bus, dir) {
  const openssl = (args, input) => {
    const res = spawnSync(process.env.OPENSSL_BIN ?? 'openssl', args, { input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
    if (res.error || res.status !== 0) throw new Error(`openssl ${args[0]} failed: ${res.error?.message ?? res.stderr.trim()}`);
    return res.stdout;
  };
  const keyFile = path.join(dir, 'route.key');
  const certFile = path.join(dir, 'route.pem');
  const ext = path.join(dir, 'route.ext');
  openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', keyFile]);
  fs.chmodSync(keyFile, 0o600);
  const csr = openssl(['req', '-new', '-key', keyFile, '-subj', '/CN=coffer-nats-route']);
  fs.writeFileSync(
    ext,
    'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth,clientAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n',
  );
  try {
    const caKey = path.join(path.dirname(bus.caFile), 'ca.key');
    openssl(
      [
        'x509',
        '-req',
        '-CA',
        bus.caFile,
        '-CAkey',
        caKey,
        '-set_serial',
        `0x${randomBytes(16).toString('hex')}`,
        '-days',
        '30',
        '-sha256',
        '-extfile',
        ext,
        '-out',
        certFile,
      ],
      csr,
    );
  } finally {
    fs.rmSync(ext, { force: true });
  }
  return { certFile, keyFile, caFile: bus.caFile };
}

async function getJson(url) {
  const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
  return { status: res.status, body: await res.json().catch(() => ({})) };
}

/**
 * Starts the cluster; resolves when every node is ready, routed to all the others, and JetStream has a meta leader.
 * `bus` is what ensureBusSecrets returned (its CA, server certificate and users); `dir` holds the nodes' configuration,
 * logs and stores (created; removed by stop()).
 * → { urls: ['tls://127.0.0.1:<port>', …], url (the comma list NATS_URL takes), nodes, kill(i), restart(i), stop() }
 */
export async function startNatsCluster({ bus, dir, size = 3, log = () => undefined }) {
  const bin = findNatsServer();
  if (!bin) throw new Error('nats-server was not found: install it (apt-get install -y nats-server)');
  fs.mkdirSync(dir, { recursive: true });
  const startedAt = Date.now();
  const routeTls = issueRouteCertificate(bus, dir);
  const nodes = [];
  for (let i = 0; i < size; i++) {
    nodes.push({ index: i, name: `nats-${i}`, port: await freePort(), routePort: await freePort(), monitorPort: await freePort() });
  }
  for (const node of nodes) {
    node.storeDir = path.join(dir, node.name, 'jetstream');
    node.logFile = path.join(dir, node.name, 'nats-server.log');
    fs.mkdirSync(node.storeDir, { recursive: true });
    node.conf = writeNatsConfig(bus, {
      port: node.port,
      storeDir: node.storeDir,
      monitorPort: node.monitorPort,
      serverName: node.name,
      file: path.join(dir, node.name, 'nats.conf'),
      cluster: {
        name: 'coffer',
        port: node.routePort,
        routes: nodes.filter((n) => n !== node).map((n) => `nats-route://127.0.0.1:${n.routePort}`),
        tls: routeTls,
      },
    });
  }

  const spawnNode = (node) => {
    const out = fs.openSync(node.logFile, 'a');
    node.logFrom = fs.fstatSync(out).size;
    node.child = spawn(bin, ['-c', node.conf], { stdio: ['ignore', out, out] });
    fs.closeSync(out);
  };

  /** ready: its log says so, its routes reach every other live node, and /healthz (JetStream current) answers 200 */
  const nodeReady = async (node, peers) => {
    if (!fs.readFileSync(node.logFile).subarray(node.logFrom).includes('Server is ready')) return false;
    try {
      const routez = await getJson(`http://127.0.0.1:${node.monitorPort}/routez`);
      if ((routez.body.num_routes ?? 0) < peers) return false;
      const jsz = await getJson(`http://127.0.0.1:${node.monitorPort}/jsz`);
      if (!jsz.body.meta_cluster?.leader) return false;
      const health = await getJson(`http://127.0.0.1:${node.monitorPort}/healthz`);
      return health.status === 200;
    } catch {
      return false;
    }
  };

  const waitReady = async (list, timeoutMs) => {
    const deadline = Date.now() + timeoutMs;
    const live = () => nodes.filter((n) => n.child && !exited(n.child)).length;
    for (;;) {
      const dead = list.find((n) => exited(n.child));
      if (dead) throw new Error(`${dead.name} exited (code ${dead.child.exitCode ?? dead.child.signalCode}); its log: ${dead.logFile}`);
      const ready = await Promise.all(list.map((n) => nodeReady(n, live() - 1)));
      if (ready.every(Boolean)) return;
      if (Date.now() > deadline) {
        const late = list.filter((_, i) => !ready[i]).map((n) => `${n.name} (${n.logFile})`);
        throw new Error(`the NATS cluster was not ready within ${timeoutMs} ms: ${late.join(', ')}`);
      }
      await sleep(100);
    }
  };

  const killAll = async (signal) => {
    const running = nodes.filter((n) => n.child && !exited(n.child));
    for (const n of running) n.child.kill(signal);
    await Promise.race([Promise.all(running.map((n) => waitExit(n.child))), deadline(10_000)]);
    for (const n of running) if (!exited(n.child)) n.child.kill('SIGKILL');
    await Promise.all(running.map((n) => waitExit(n.child)));
  };
  // the node processes die with this one, even when a test fails without calling stop()
  const onExit = () => nodes.forEach((n) => n.child && !exited(n.child) && n.child.kill('SIGKILL'));
  process.once('exit', onExit);

  try {
    for (const node of nodes) spawnNode(node);
    await waitReady(nodes, 60_000);
  } catch (err) {
    await killAll('SIGKILL');
    process.removeListener('exit', onExit);
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  log(`NATS cluster of ${size} ready in ${Date.now() - startedAt} ms (client ports ${nodes.map((n) => n.port).join(', ')})`);

  const urls = nodes.map((n) => `tls://127.0.0.1:${n.port}`);
  const node = (i) => {
    if (!nodes[i]) throw new Error(`no NATS node ${i} (the cluster has ${size})`);
    return nodes[i];
  };
  return {
    urls,
    url: urls.join(','),
    /** per node: name, port, routePort, monitorPort (http://127.0.0.1:<monitorPort>/jsz …), storeDir, logFile */
    nodes: nodes.map(({ name, port, routePort, monitorPort, storeDir, logFile }) => ({ name, port, routePort, monitorPort, storeDir, logFile })),
    /** kill -9 of node i; resolves when it has exited */
    async kill(i) {
      const n = node(i);
      if (!n.child || exited(n.child)) return;
      n.child.kill('SIGKILL');
      await waitExit(n.child);
    },
    /** starts node i again (same ports, same store); resolves when it is ready and routed to every live node */
    async restart(i, { timeoutMs = 60_000 } = {}) {
      const n = node(i);
      if (n.child && !exited(n.child)) throw new Error(`${n.name} is running`);
      const at = Date.now();
      spawnNode(n);
      await waitReady([n], timeoutMs);
      log(`${n.name} rejoined in ${Date.now() - at} ms`);
    },
    /** whether node i's process is running */
    running: (i) => Boolean(node(i).child && !exited(node(i).child)),
    async stop() {
      try {
        await killAll('SIGTERM');
      } finally {
        process.removeListener('exit', onExit);
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
