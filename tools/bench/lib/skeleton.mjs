// The topology floor (issue 35: "for any goal not met, what bounds it, measured"): Coffer's shape with nothing of
// Coffer in it. An edge process (bare Fastify) hands each request over NATS to a store process that writes it to
// PostgreSQL with a group commit and replies after the commit, through a nats-server of its own started like the
// system's (TLS, the same per-service users and grants). What a create or an audited read costs on this path is the
// least any design with Coffer's hops can cost on this machine; Coffer's figures divided by the skeleton's say how much
// Coffer's own work adds, and the skeleton's divided by the INSERT ceiling how far the hops alone leave the goals.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort, startNatsServer } from '../../dev/system.mjs';
import { serviceBusEnv } from '../../dev/nats-bus.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Resolves when `child` prints its first line (returned), rejects if it exits first. */
function firstLine(child, name) {
  return new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the skeleton's ${name} exited (${code}) before it was ready`)));
  });
}

const stopChild = (child) => new Promise((r) => (child.exitCode !== null ? r() : (child.once('exit', r), child.kill('SIGTERM'))));

/**
 * Starts the skeleton with the system's bus secrets `bus`: the edge, and the store when `store` names its database
 * ({databaseUrl, tenantId}: its tables are its own, dropped at stop), the proxy's forwarder when `forwardTo` names a
 * destination origin (`forwarderEnv`: e.g. NODE_EXTRA_CA_CERTS). Resolves {url, pids, readId, stop}; `pids` names its
 * processes for the CPU sampler.
 */
export async function startSkeleton({ bus, store, forwardTo, forwarderEnv = {} }) {
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-skeleton-'));
  const port = await freePort();
  const nats = await startNatsServer({ port, storeDir, bus });
  const url = `tls://127.0.0.1:${port}`;
  const started = [];
  const start = async (file, service, env) => {
    const child = spawn(process.execPath, [path.join(HERE, file)], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...serviceBusEnv(bus, url, service), ...env },
    });
    started.push(child);
    return { child, line: await firstLine(child, file) };
  };
  const stopAll = async () => {
    for (const child of started.reverse()) await stopChild(child);
    await stopChild(nats);
    fs.rmSync(storeDir, { recursive: true, force: true });
  };
  try {
    const primed = 1000;
    const pids = { 'skeleton-nats': [nats.pid] };
    if (store) {
      const { child } = await start('skeleton-store.mjs', 'token-service', {
        DATABASE_URL: store.databaseUrl,
        SKELETON_TENANT_ID: store.tenantId,
        SKELETON_PRIMED: String(primed),
      });
      pids['skeleton-store'] = [child.pid];
    }
    if (forwardTo) {
      const { child } = await start('skeleton-forwarder.mjs', 'proxy-service', { SKELETON_DESTINATION: forwardTo, ...forwarderEnv });
      pids['skeleton-forwarder'] = [child.pid];
    }
    const edge = await start('skeleton-edge.mjs', 'gateway', {});
    pids['skeleton-edge'] = [edge.child.pid];
    return { url: `http://127.0.0.1:${Number(edge.line)}`, pids, readId: (seq) => `sk-${seq % primed}`, stop: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
