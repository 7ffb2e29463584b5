// The local bus set up like production's: a nats-server that requires TLS, and one user per service with the subject
// permissions of deploy/nats/permissions.json (the matrix deploy/nats/values.yaml carries to Kubernetes; the deploy
// tests hold the two equal). Users authenticate with nkeys: the server's configuration holds each user's public key
// only, and each service signs the server's challenge with its seed (a file of its own, never in the configuration,
// the environment or a log). Its CA, server certificate and seeds are generated on first use, like the
// key-encryption key, under the directory given (.data/nats for `npm start`, a temp directory for a throwaway system).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

// `nats` is loaded when a key is first needed, not when this module is: `npm start` and `npm test` import it (through
// system.mjs) before they run `npm ci`, so on a fresh clone the package is not there yet at import time
const nkeys = () => createRequire(import.meta.url)('nats').nkeys;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const PERMISSIONS_FILE = path.join(ROOT, 'deploy/nats/permissions.json');

/** user name (= service name) → its NATS permissions block */
export function natsPermissions() {
  return JSON.parse(fs.readFileSync(PERMISSIONS_FILE, 'utf8'));
}

// the local CA outlives any checkout; the server certificate is re-issued by that CA when it nears its end
const CA_DAYS = 3650;
const SERVER_DAYS = 825;
const RENEW_WITHIN_SECONDS = 30 * 24 * 3600;

function openssl(args, input) {
  const res = spawnSync(process.env.OPENSSL_BIN ?? 'openssl', args, { input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
  if (res.error) throw new Error(`openssl was not found (${res.error.message}): install it (apt-get install -y openssl) or set NATS_URL`);
  if (res.status !== 0) throw new Error(`openssl ${args[0]} failed: ${res.stderr.trim()}`);
  return res.stdout;
}

/** true when the certificate exists and stays valid for the renewal window */
function certificateFresh(file) {
  if (!fs.existsSync(file)) return false;
  const res = spawnSync(process.env.OPENSSL_BIN ?? 'openssl', ['x509', '-checkend', String(RENEW_WITHIN_SECONDS), '-noout', '-in', file], { stdio: 'ignore' });
  return res.status === 0;
}

function ecKey(file) {
  openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', file]);
  fs.chmodSync(file, 0o600);
}

function issueCa(dir) {
  const key = path.join(dir, 'ca.key');
  ecKey(key);
  openssl([
    'req',
    '-x509',
    '-new',
    '-key',
    key,
    '-sha256',
    '-days',
    String(CA_DAYS),
    '-subj',
    '/CN=Coffer local bus CA',
    '-out',
    path.join(dir, 'ca.pem'),
    '-addext',
    'basicConstraints=critical,CA:TRUE,pathlen:0',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
}

/** a certificate for the loopback addresses the local server listens on, signed by the local CA */
function issueServerCertificate(dir) {
  const key = path.join(dir, 'server.key');
  ecKey(key);
  const csr = openssl(['req', '-new', '-key', key, '-subj', '/CN=localhost']);
  const ext = path.join(dir, 'server.ext');
  fs.writeFileSync(
    ext,
    'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost\n',
  );
  try {
    openssl(
      [
        'x509',
        '-req',
        '-CA',
        path.join(dir, 'ca.pem'),
        '-CAkey',
        path.join(dir, 'ca.key'),
        '-set_serial',
        `0x${randomBytes(16).toString('hex')}`,
        '-days',
        String(SERVER_DAYS),
        '-sha256',
        '-extfile',
        ext,
        '-out',
        path.join(dir, 'server.pem'),
      ],
      csr,
    );
  } finally {
    fs.rmSync(ext, { force: true });
  }
}

/** The public key (`U…`) of a user seed (`SU…`): what the server's configuration names the user by. */
export function nkeyPublicKey(seed) {
  return nkeys().fromSeed(new TextEncoder().encode(seed)).getPublicKey();
}

/** A new user nkey's seed (`SU…`, 58 characters). */
function newSeed() {
  return new TextDecoder().decode(nkeys().createUser().getSeed());
}

/** Where a service's seed lives: the file its NATS_NKEY_SEED_FILE names. */
export function seedFile(dir, service) {
  return path.join(dir, 'nkeys', `${service}.nk`);
}

/**
 * The bus's secrets under `dir`, created when missing: tls/ca.pem (+ ca.key), tls/server.pem (+ server.key) and
 * nkeys/<service>.nk (one user seed per service), every secret file 0600. Returns their paths and each user's public
 * key (the seeds stay in their files). A users.json of passwords left by an older checkout is deleted: nothing reads it.
 */
export function ensureBusSecrets(dir, services = Object.keys(natsPermissions())) {
  const tlsDir = path.join(dir, 'tls');
  fs.mkdirSync(tlsDir, { recursive: true, mode: 0o700 });
  const caFile = path.join(tlsDir, 'ca.pem');
  const certFile = path.join(tlsDir, 'server.pem');
  const keyFile = path.join(tlsDir, 'server.key');
  const generated = [];
  if (!certificateFresh(caFile) || !fs.existsSync(path.join(tlsDir, 'ca.key'))) {
    issueCa(tlsDir);
    generated.push('a local CA');
  }
  if (generated.length || !certificateFresh(certFile) || !fs.existsSync(keyFile)) {
    issueServerCertificate(tlsDir);
    generated.push('a server certificate for 127.0.0.1/localhost');
  }
  fs.rmSync(path.join(dir, 'users.json'), { force: true });
  fs.mkdirSync(path.join(dir, 'nkeys'), { recursive: true, mode: 0o700 });
  const publicKeys = {};
  const missing = [];
  for (const service of services) {
    const file = seedFile(dir, service);
    if (!fs.existsSync(file)) {
      fs.writeFileSync(file, `${newSeed()}\n`, { mode: 0o600 });
      missing.push(service);
    }
    publicKeys[service] = nkeyPublicKey(fs.readFileSync(file, 'utf8').trim());
  }
  if (missing.length) generated.push(`nkeys for ${missing.join(', ')}`);
  return { dir, caFile, certFile, keyFile, publicKeys, generated };
}

/**
 * nats.conf for a private server: TLS required on the client port, JetStream, and the COFFER account with one nkey
 * user per service (its public key and permissions: no secret in this file). Rewritten at every start, so it follows
 * the permission matrix and the seeds on disk.
 * A node of a cluster (tools/ha/nats-cluster.mjs) adds `serverName` (unique per node: JetStream's clustering needs it),
 * `cluster` ({ name, port, routes: ['nats-route://127.0.0.1:<port>', …], tls?: { certFile, keyFile, caFile } }) and
 * `file` (its own configuration file; bus.dir/nats.conf otherwise). Without them the file is as it always was.
 */
export function writeNatsConfig(bus, { port, storeDir, monitorPort, host = '127.0.0.1', serverName, cluster, file: confFile }) {
  const permissions = natsPermissions();
  const users = Object.entries(bus.publicKeys)
    .filter(([user]) => permissions[user])
    .map(([user, nkey]) => ({ nkey, permissions: permissions[user] }));
  const q = JSON.stringify;
  const conf = [
    '# generated by tools/dev/nats-bus.mjs from deploy/nats/permissions.json at every start: edits here are lost',
    ...(serverName ? [`server_name: ${q(serverName)}`] : []),
    `listen: ${q(`${host}:${port}`)}`,
    ...(monitorPort ? [`http: ${q(`${host}:${monitorPort}`)}`] : []),
    // as deploy/nats/values.yaml: the API takes 1 MiB bodies and replies can be larger than the 1 MB default
    'max_payload: 8388608',
    `jetstream { store_dir: ${q(storeDir)} }`,
    // `timeout`: seconds for the handshake; the default (0.5 s) is short on a busy laptop starting six services
    `tls { cert_file: ${q(bus.certFile)}, key_file: ${q(bus.keyFile)}, ca_file: ${q(bus.caFile)}, timeout: 5 }`,
    ...(cluster ? [clusterBlock(cluster, host)] : []),
    `accounts { COFFER { jetstream: enabled, users: ${JSON.stringify(users, null, 2)} } }`,
    '',
  ].join('\n');
  const file = confFile ?? path.join(bus.dir, 'nats.conf');
  fs.writeFileSync(file, conf, { mode: 0o600 });
  return file;
}

/** The `cluster {}` block of a node: its route port, the routes to its peers, and (optionally) TLS on the routes. */
function clusterBlock({ name = 'coffer', port, routes = [], tls }, host) {
  const q = JSON.stringify;
  return [
    'cluster {',
    `  name: ${q(name)}`,
    `  listen: ${q(`${host}:${port}`)}`,
    `  routes: ${q(routes)}`,
    // routes verify each other's certificate both ways: a certificate for serverAuth and clientAuth, from the bus's CA
    ...(tls ? [`  tls { cert_file: ${q(tls.certFile)}, key_file: ${q(tls.keyFile)}, ca_file: ${q(tls.caFile)}, timeout: 5 }`] : []),
    '}',
  ].join('\n');
}

/** What a service needs to reach the bus as itself: the file of its seed, not the seed. */
export function serviceBusEnv(bus, url, service) {
  if (!bus.publicKeys[service]) throw new Error(`no NATS user for ${service} in ${PERMISSIONS_FILE}`);
  return { NATS_URL: url, NATS_TLS_CA_FILE: bus.caFile, NATS_NKEY_SEED_FILE: seedFile(bus.dir, service) };
}
