#!/usr/bin/env node
// `npm run test:ha [-- --no-build] [--seconds N]`: the high-availability drill (docs/high-availability.md). Starts, on
// loopback, PostgreSQL with automatic failover (etcd, two Patroni-managed servers, a primary and a synchronous
// standby, HAProxy routing to the leader), three clustered nats-servers with JetStream, and Coffer with two gateways
// behind HAProxy and two token-services; runs create and read load with idempotency keys and kills, one experiment
// after the other, a NATS node, the PostgreSQL primary, then a gateway and a token-service. Afterwards it retries every
// unacknowledged create with its key, checks every acknowledged one, and prints as its last line
// `HA {json}`: per experiment acknowledged, lost, duplicates, hangs (no answer in 20 s) and unavailable_ms (the
// longest gap without a successful write). Exit code 1 when a goal is missed.
import '../dev/runtime.mjs'; // first: re-executes this command on the pinned Node (docs/runtime.md)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { APPS, ROOT, build, startEphemeralSystem } from '../dev/system.mjs';
import { verifyTokenWrites } from '../faults/checks.mjs';
import { GatewayClient, LoadGenerator, Recorder } from '../faults/load-generator.mjs';
import { startGatewayBalancer } from './gateway-balancer.mjs';
import { startNatsCluster } from './nats-cluster.mjs';
import { ensureHaPackages } from './packages.mjs';
import { startPostgresHa } from './postgres-ha.mjs';

/** A request without an answer after this long is a hang (the bound). */
const HANG_MS = 20_000;
/** The whole drill, start to clean-up: about 3 minutes on a 2-core machine. */
const OVERALL_LIMIT_MS = 15 * 60_000;
/** The goals: the longest write outage each experiment may cause. */
const UNAVAILABLE_BOUND_MS = { 'nats-node': 5_000, 'postgres-primary': 30_000, 'coffer-replicas': 5_000 };

const { values: opts } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    seconds: { type: 'string', default: '12' },
    clients: { type: 'string', default: '6' },
    readers: { type: 'string', default: '2' },
  },
});
const log = (msg) => process.stderr.write(`[ha] ${msg}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** how long each experiment keeps its component down (a node's repair time), and the load after it returns */
const downMs = Number(opts.seconds) * 1000;

/** Readers: each reads an acknowledged token by id, over and over; what they saw is counted per phase. */
class ReadLoad {
  constructor({ client, key, recorder, readers }) {
    Object.assign(this, { client, key, recorder, readers });
    this.running = false;
    this.byPhase = new Map();
  }

  start() {
    this.running = true;
    this.loops = Array.from({ length: this.readers }, () => this.loop());
  }

  async stop() {
    this.running = false;
    await Promise.all(this.loops ?? []);
  }

  async loop() {
    let ids = [];
    for (let n = 0; this.running; n++) {
      // the acknowledged ids, looked up again now and then (the list grows all the time)
      if (n % 200 === 0) ids = [...this.recorder.writes.values()].filter((w) => w.acknowledgedAt).map((w) => w.id);
      if (!ids.length) {
        n = -1;
        await sleep(100);
        continue;
      }
      const phase = this.recorder.phase;
      const res = await this.client.send('GET', `/tokens/${ids[Math.floor(Math.random() * ids.length)]}`, { key: this.key });
      const figures = this.byPhase.get(phase) ?? { reads: 0, ok: 0, failed: 0, hangs: 0, statuses: {} };
      figures.reads++;
      if (res.status === 200) figures.ok++;
      else {
        figures.failed++;
        figures.statuses[res.status || res.error] = (figures.statuses[res.status || res.error] ?? 0) + 1;
        await sleep(50);
      }
      if (res.ms >= HANG_MS - 100) figures.hangs++;
      this.byPhase.set(phase, figures);
    }
  }
}

/**
 * State the gateways share, checked before the experiments: a console session signed in through one gateway works
 * through the other, and signing out through the second ends it on the first at once (its principal cache is
 * invalidated over the bus).
 */
async function checkSharedState({ consoleUrls, managementKey }) {
  const [first, second] = consoleUrls;
  const call = (base, method, path, { headers = {}, body } = {}) =>
    fetch(`${base}${path}`, {
      method,
      headers: { origin: base, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(HANG_MS),
    });
  const signIn = await call(first, 'POST', '/console/session', { body: { api_key: managementKey } });
  const csrf = (await signIn.json()).csrf_token;
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const session = { cookie, 'x-coffer-csrf': csrf };
  const elsewhere = await call(second, 'GET', '/console/session', { headers: session });
  const work = await call(second, 'GET', '/applications', { headers: session });
  const signOut = await call(second, 'DELETE', '/console/session', { headers: session });
  const afterSignOut = await call(first, 'GET', '/console/session', { headers: session });
  const figures = {
    console_sign_in: signIn.status,
    console_session_on_other_gateway: elsewhere.status,
    console_work_on_other_gateway: work.status,
    console_sign_out_on_other_gateway: signOut.status,
    console_session_after_sign_out: afterSignOut.status,
  };
  figures.verdict =
    signIn.status === 201 && elsewhere.status === 200 && work.status === 200 && signOut.status === 204 && afterSignOut.status === 401 ? 'PASS' : 'FAIL';
  return figures;
}

/**
 * A rate limit holds across the gateways: a new public application (RATE_LIMIT_PUBLIC, 50 a minute by default) sends
 * creates alternately to each gateway, as a round-robin balancer would; N are admitted in total, then both refuse.
 */
async function checkSharedRateLimit({ urls, managementKey, limit = 50 }) {
  const call = (base, method, path, key, body) =>
    fetch(`${base}${path}`, {
      method,
      headers: { 'svc-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(HANG_MS),
    });
  const app = await call(urls[0], 'POST', '/applications', managementKey, { name: 'ha rate limit', type: 'public', permissions: ['token:create'] });
  const key = (await app.json()).key;
  // not across a minute's boundary, where the previous window's count starts to fade
  while (Date.now() % 60_000 > 50_000) await sleep(500);
  const statuses = [];
  for (let n = 0; n < limit + 20; n++) {
    const res = await call(urls[n % urls.length], 'POST', '/tokens', key, { type: 'token', data: `rate ${n}` });
    statuses.push({ gateway: n % urls.length, status: res.status, retryAfter: res.headers.get('retry-after') });
    await res.arrayBuffer();
  }
  const admitted = statuses.filter((s) => s.status === 201).length;
  const refusedBy = new Set(statuses.filter((s) => s.status === 429 && s.retryAfter).map((s) => s.gateway));
  return { limit, admitted, refused: statuses.filter((s) => s.status === 429).length, refused_by_both: refusedBy.size === urls.length };
}

/** The events stream as one node's monitoring port sees it: its leader's name and its message count. */
async function eventsStream(nats) {
  for (const node of nats.nodes) {
    try {
      const res = await fetch(`http://127.0.0.1:${node.monitorPort}/jsz?accounts=true&streams=true`, { signal: AbortSignal.timeout(2_000) });
      const streams = (await res.json()).account_details?.flatMap((a) => a.stream_detail ?? []) ?? [];
      const stream = streams.find((x) => x.name === 'COFFER_EVENTS');
      if (stream) return { leader: stream.cluster?.leader, messages: stream.state?.messages ?? 0, replicas: (stream.cluster?.replicas?.length ?? 0) + 1 };
    } catch {
      /* that node is down: ask the next */
    }
  }
  return undefined;
}

/** The longest stretch of [from, to] without a successful write (a 201), in ms. */
function longestWriteGap(attempts, from, to) {
  const successes = attempts
    .filter((a) => a.status === 201 && a.at >= from && a.at <= to)
    .map((a) => a.at)
    .sort((a, b) => a - b);
  let gap = 0;
  let last = from;
  for (const at of successes) {
    gap = Math.max(gap, at - last);
    last = at;
  }
  return Math.max(gap, to - last);
}

async function main() {
  const started = Date.now();
  ensureHaPackages(log);
  if (!opts['no-build']) build([...APPS, 'admin']);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-ha-'));
  fs.chmodSync(dir, 0o755);
  const logDir = path.join(ROOT, 'tmp', 'ha');
  fs.rmSync(logDir, { recursive: true, force: true });
  const cleanups = [];
  let exitCode = 1;
  // bounded in time whatever hangs: everything started is stopped, and the run fails
  const watchdog = setTimeout(async () => {
    log(`the drill overran ${OVERALL_LIMIT_MS / 60_000} minutes: stopping everything`);
    for (const cleanup of cleanups.splice(0)) await cleanup().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
    process.exit(1);
  }, OVERALL_LIMIT_MS);
  watchdog.unref();
  try {
    log('starting PostgreSQL (etcd, Patroni: a primary and a synchronous standby, HAProxy) ...');
    const postgres = await startPostgresHa({ dir: path.join(dir, 'postgres'), log });
    cleanups.push(() => postgres.stop());
    let nats;
    log('starting Coffer on a three-node NATS cluster, two gateways and two token-services ...');
    const sys = await startEphemeralSystem({
      logDir,
      adminUrl: postgres.url,
      // the load's private application must not be throttled (its rate is what the drill measures); the rate-limit
      // check below uses a public application under the default RATE_LIMIT_PUBLIC
      env: { EVENTS_STREAM_REPLICAS: '3', LOG_LEVEL: 'warn', RATE_LIMIT_PRIVATE: '1000000/10s' },
      replicas: { gateway: 2, 'token-service': 2 },
      // six services start at once beside two PostgreSQL servers, etcd, HAProxy and three nats-servers, on two cores:
      // the drill measures failover, not start-up, so a slow start is given time (a crash still fails at once)
      readyTimeoutMs: 180_000,
      startBus: async ({ bus }) => {
        nats = await startNatsCluster({ bus, dir: path.join(dir, 'nats'), log });
        return nats;
      },
    });
    cleanups.unshift(() => sys.stop());
    const balancer = await startGatewayBalancer({ dir: path.join(dir, 'haproxy'), gateways: sys.urls });
    cleanups.unshift(() => balancer.stop());
    log(`ready in ${((Date.now() - started) / 1000).toFixed(0)} s; gateways ${sys.urls.join(', ')} behind ${balancer.url}`);

    const { management_key: managementKey } = sys.createTenant('ha drill');
    const client = new GatewayClient(balancer.url, { cutoffMs: HANG_MS });
    const created = await client.send('POST', '/applications', {
      key: managementKey,
      body: { name: 'ha load', type: 'private', permissions: ['token:create', 'token:read', 'token:use'] },
    });
    if (created.status !== 201) throw new Error(`creating the load's application: ${created.status} ${JSON.stringify(created.body)}`);
    const key = created.body.key;
    const sharedState = await checkSharedState({ consoleUrls: sys.consoleUrls, managementKey });
    sharedState.rate_limit = await checkSharedRateLimit({ urls: sys.urls, managementKey });
    if (sharedState.rate_limit.admitted !== sharedState.rate_limit.limit || !sharedState.rate_limit.refused_by_both) sharedState.verdict = 'FAIL';
    log(`shared state across the gateways: ${JSON.stringify(sharedState)}`);
    const runId = `ha-${Date.now()}`;
    const recorder = new Recorder();
    const load = new LoadGenerator({ client, recorder, key, runId, clients: Number(opts.clients), giveUpMs: 60_000 });
    const reads = new ReadLoad({ client, key, recorder, readers: Number(opts.readers) });
    load.start();
    reads.start();
    await sleep(3_000);

    const alive = () => [...sys.children.values(), ...(sys.replicas ?? [])].filter((c) => c.exitCode === null && c.signalCode === null).length;
    const processes = alive();
    const experiments = [
      {
        name: 'nats-node',
        what: 'kill -9 one of the three nats-servers, bring it back',
        run: async (figures) => {
          // the server leading the events stream: its loss makes the stream elect a new leader under load
          const stream = await eventsStream(nats);
          const victim = Math.max(
            0,
            nats.nodes.findIndex((n) => n.name === stream?.leader),
          );
          figures.killed = nats.nodes[victim].name;
          figures.events_stream_leader = stream?.leader ?? null;
          figures.events_stream_replicas = stream?.replicas;
          await nats.kill(victim);
          await sleep(downMs);
          await nats.restart(victim);
        },
      },
      {
        name: 'postgres-primary',
        what: 'kill -9 the PostgreSQL primary (Patroni and postmaster), bring it back as a standby',
        run: async (figures) => {
          const { name } = await postgres.killLeader();
          figures.killed = name;
          const deadline = Date.now() + 60_000;
          let leader = null;
          while (Date.now() < deadline && (!leader || leader === name)) {
            await sleep(250);
            leader = await postgres.leader().catch(() => null);
          }
          figures.new_leader = leader;
          await sleep(downMs);
          await postgres.restart(name);
          await postgres.waitHealthy({ timeoutMs: 90_000 });
        },
      },
      {
        name: 'coffer-replicas',
        what: 'kill -9 a gateway and a token-service, start them again',
        run: async () => {
          await Promise.all([sys.stopService('gateway', 'SIGKILL'), sys.stopService('token-service', 'SIGKILL')]);
          await sleep(downMs);
          await Promise.all([sys.startService('gateway'), sys.startService('token-service')]);
        },
      },
    ];
    const results = {};
    for (const experiment of experiments) {
      recorder.phase = experiment.name;
      const figures = { what: experiment.what };
      const from = Date.now();
      await sleep(2_000);
      log(`${experiment.name}: ${experiment.what}`);
      await experiment.run(figures);
      await sleep(downMs / 2);
      // every process of the system still runs but the ones the experiment itself killed and started again
      const running = alive();
      figures.window_ms = Date.now() - from;
      figures.unavailable_ms = longestWriteGap(recorder.attempts, from, Date.now());
      figures.processes_down = processes - running;
      results[experiment.name] = figures;
      log(`${experiment.name}: longest write gap ${figures.unavailable_ms} ms`);
    }
    recorder.phase = 'after';
    await load.stop();
    await reads.stop();

    // every create that was never acknowledged and carried an idempotency key is sent again with it: either it was
    // written (the same token comes back) or it is written now; never twice
    const unacknowledged = [...recorder.writes.values()].filter((w) => w.kind === 'token' && !w.acknowledgedAt);
    log(`retrying ${unacknowledged.length} unacknowledged creates with their keys ...`);
    for (const w of unacknowledged) {
      const res = await client.send('POST', '/tokens', { key, body: w.data, idempotencyKey: w.key });
      if (res.status === 201) Object.assign(w, { id: res.body.id, acknowledgedAt: Date.now(), retriedAfter: true });
    }
    const verified = await verifyTokenWrites({ client, key, runId, recorder });
    // every acknowledged create wrote a token.created event in its transaction; the relay publishes each to the
    // replicated stream (at least once), so the stream ends up holding at least as many messages
    let stream = await eventsStream(nats);
    for (let waited = 0; waited < 30_000 && (stream?.messages ?? 0) < verified.acknowledged; waited += 500) {
      await sleep(500);
      stream = await eventsStream(nats);
    }
    const events = { stream_messages: stream?.messages ?? 0, acknowledged_creates: verified.acknowledged, replicas: stream?.replicas };
    const phaseOf = (k) => recorder.writes.get(k)?.phase;
    let met = true;
    for (const [name, figures] of Object.entries(results)) {
      const writes = [...recorder.writes.values()].filter((w) => w.phase === name && (w.kind === 'token' || w.kind === 'token-plain'));
      const attempts = recorder.attemptsIn(name);
      const readFigures = reads.byPhase.get(name) ?? { reads: 0, ok: 0, failed: 0, hangs: 0, statuses: {} };
      Object.assign(figures, {
        acknowledged: writes.filter((w) => w.acknowledgedAt).length,
        lost: verified.lost.filter((k) => phaseOf(k) === name).length + verified.wrongData.filter((k) => phaseOf(k) === name).length,
        duplicates: verified.duplicatedKeys.filter((k) => phaseOf(k) === name).length,
        hangs: attempts.filter((a) => a.ms >= HANG_MS - 100).length + readFigures.hangs,
        unacknowledged_without_key: writes.filter((w) => w.kind === 'token-plain' && !w.acknowledgedAt).length,
        failed_attempts: attempts.filter((a) => a.status !== 201).length,
        // a 500 is a bug whatever failed; a 503 tells the client when to retry, in the problem format
        server_errors: attempts.filter((a) => a.status === 500).length + (readFigures.statuses[500] ?? 0),
        unavailable_without_retry_after: attempts.filter((a) => a.status === 503 && (!a.retryAfter || !a.problem)).length,
        reads: readFigures,
      });
      const bound = UNAVAILABLE_BOUND_MS[name];
      const ok =
        figures.lost === 0 &&
        figures.duplicates === 0 &&
        figures.hangs === 0 &&
        figures.unavailable_ms < bound &&
        figures.processes_down === 0 &&
        figures.server_errors === 0 &&
        figures.unavailable_without_retry_after === 0;
      figures.verdict = ok ? 'PASS' : 'FAIL';
      if (!ok) met = false;
      log(
        `${name}: ${figures.verdict} acknowledged ${figures.acknowledged}, lost ${figures.lost}, duplicates ${figures.duplicates}, hangs ${figures.hangs}, ` +
          `unavailable ${figures.unavailable_ms} ms (bound ${bound}), reads ${readFigures.ok}/${readFigures.reads}`,
      );
    }
    const total = {
      acknowledged: verified.acknowledged,
      lost: verified.lost.length + verified.wrongData.length,
      duplicates: verified.duplicates,
      unreadable: verified.unreadable,
    };
    if (total.lost || total.duplicates || total.unreadable || sharedState.verdict !== 'PASS') met = false;
    if (events.stream_messages < events.acknowledged_creates || events.replicas !== 3) met = false;
    await client.close();
    fs.mkdirSync(logDir, { recursive: true });
    const report = { ...results, shared_state: sharedState, events, total, seconds: Math.round((Date.now() - started) / 1000), verdict: met ? 'PASS' : 'FAIL' };
    fs.writeFileSync(path.join(logDir, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
    exitCode = met ? 0 : 1;
    log(`done in ${report.seconds} s: ${report.verdict} (tmp/ha/latest.json; the processes' logs in tmp/ha)`);
    for (const cleanup of cleanups.splice(0)) await cleanup().catch((err) => log(`clean-up: ${err.message}`));
    process.stdout.write(`HA ${JSON.stringify(report)}\n`);
  } catch (err) {
    log(`failed: ${err.stack ?? err}`);
  } finally {
    for (const cleanup of cleanups) await cleanup().catch((err) => log(`clean-up: ${err.message}`));
    fs.rmSync(dir, { recursive: true, force: true });
  }
  process.exit(exitCode);
}

await main();
