// Smoke test of the NATS cluster of the HA drill (node --test tools/ha/nats-cluster.test.mjs): three TLS nats-servers
// with the services' nkey users, routed into one JetStream cluster; a stream of three replicas keeps every message
// through the kill -9 of one node, which rejoins with its store.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ensureBusSecrets, serviceBusEnv } from '../dev/nats-bus.mjs';
import { startNatsCluster } from './nats-cluster.mjs';

const log = (msg) => process.stderr.write(`[ha] ${msg}\n`);

/** a connection as one service, the way libs/bus/src/nats-config.ts opens it (nkey, TLS against the bus's CA) */
async function connectAs(bus, url, service) {
  const { connect, nkeyAuthenticator } = await import('nats');
  const env = serviceBusEnv(bus, url, service);
  const seed = new TextEncoder().encode(fs.readFileSync(env.NATS_NKEY_SEED_FILE, 'utf8').trim());
  return connect({
    servers: env.NATS_URL.split(','),
    name: `ha-test-${service}`,
    authenticator: nkeyAuthenticator(seed),
    tls: { caFile: env.NATS_TLS_CA_FILE },
    inboxPrefix: `_INBOX.${service}`,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
  });
}

test('NATS cluster: an R3 stream keeps every message through the kill -9 of a node, which rejoins', { timeout: 120_000 }, async () => {
  const { AckPolicy, StorageType } = await import('nats');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-nats-ha-'));
  const bus = ensureBusSecrets(path.join(tmp, 'bus'));
  const startedAt = Date.now();
  const cluster = await startNatsCluster({ bus, dir: path.join(tmp, 'cluster'), log });
  log(`started in ${Date.now() - startedAt} ms`);
  const conns = [];
  try {
    assert.equal(cluster.urls.length, 3);
    assert.equal(cluster.url, cluster.urls.join(','));
    // webhook-dispatcher owns COFFER_EVENTS (creates it, publishes); events-reader reads it (deploy/nats/permissions.json)
    const writer = await connectAs(bus, cluster.url, 'webhook-dispatcher');
    const reader = await connectAs(bus, cluster.url, 'events-reader');
    conns.push(writer, reader);
    const jsm = await writer.jetstreamManager({ checkAPI: false });
    const info = await jsm.streams.add({ name: 'COFFER_EVENTS', subjects: ['coffer.events.>'], storage: StorageType.File, num_replicas: 3 });
    assert.equal(info.config.num_replicas, 3);
    const js = writer.jetstream();
    const publish = async (from, to) => {
      for (let i = from; i < to; i++) await js.publish(`coffer.events.t1.test`, `event ${i}`, { msgID: `e${i}`, timeout: 5000 });
    };
    await publish(0, 50);

    // kill -9 the node that leads the stream (the worst case), then publish through the two left
    const leaderName = (await jsm.streams.info('COFFER_EVENTS')).cluster?.leader;
    const victim = Math.max(
      0,
      cluster.nodes.findIndex((n) => n.name === leaderName),
    );
    const killedAt = Date.now();
    await cluster.kill(victim);
    assert.equal(cluster.running(victim), false);
    let published = false;
    let firstError;
    for (let attempt = 0; !published && Date.now() - killedAt < 30_000; attempt++) {
      try {
        await publish(50, 100);
        published = true;
      } catch (err) {
        firstError ??= err;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    assert.ok(published, `publishing after the kill failed: ${firstError?.message}`);
    log(`killed ${cluster.nodes[victim].name} (the stream's leader ${leaderName}); the 50 next published after ${Date.now() - killedAt} ms`);

    const readAll = async () => {
      const rjsm = await reader.jetstreamManager({ checkAPI: false });
      const name = `ha-${Date.now()}`;
      await rjsm.consumers.add('COFFER_EVENTS', { durable_name: name, ack_policy: AckPolicy.Explicit });
      const consumer = await reader.jetstream().consumers.get('COFFER_EVENTS', name);
      const seen = [];
      for (let i = 0; i < 20 && seen.length < 100; i++) {
        const batch = await consumer.fetch({ max_messages: 100, expires: 1000 });
        for await (const m of batch) {
          seen.push(m.string());
          m.ack();
        }
      }
      return seen;
    };
    const expected = Array.from({ length: 100 }, (_, i) => `event ${i}`);
    assert.deepEqual(await readAll(), expected);

    // the node comes back on its ports with its store, and catches up
    await cluster.restart(victim);
    assert.equal(cluster.running(victim), true);
    const jsz = await (await fetch(`http://127.0.0.1:${cluster.nodes[victim].monitorPort}/jsz?streams=true&accounts=true`)).json();
    assert.equal(jsz.meta_cluster.cluster_size, 3);
    // its copy of the stream catches up with the 100 messages
    const deadline = Date.now() + 30_000;
    let replicas;
    for (;;) {
      replicas = (await jsm.streams.info('COFFER_EVENTS')).cluster?.replicas ?? [];
      if (replicas.length === 2 && replicas.every((r) => r.current)) break;
      assert.ok(Date.now() < deadline, `the replicas did not catch up: ${JSON.stringify(replicas)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const streamInfo = await jsm.streams.info('COFFER_EVENTS');
    assert.equal(streamInfo.state.messages, 100);
    assert.deepEqual(await readAll(), expected);
  } finally {
    await Promise.all(conns.map((nc) => nc.close().catch(() => undefined)));
    await cluster.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  assert.equal(fs.existsSync(path.join(tmp, 'cluster')), false);
});
