#!/usr/bin/env node
// Job queues compared on this machine (issue 36: "a maintained queue … chosen by a short written comparison with
// measurements"; docs/queues.md holds the comparison). Three ways to run webhook deliveries and asynchronous reactor
// jobs, each with the same no-op job and the same load, one after the other on one throwaway database:
//
//   coffer     Coffer's own pattern: a row per job, inserted in the writer's transaction; a NOTIFY after commit wakes
//              the workers, which claim with UPDATE … FOR UPDATE SKIP LOCKED and a lease, and complete in batches
//   pg-boss    pg-boss 12: send() with the writer's transaction (its `db` option), a queue with NOTIFY, one group per
//              tenant (per-tenant concurrency, as Coffer's fair claims), heartbeats to notice a dead worker
//   graphile   graphile-worker 0.18: graphile_worker.add_job() in the writer's transaction, LISTEN/NOTIFY wake-ups
//   jetstream  a JetStream work-queue stream with a durable pull consumer (the publish is acknowledged once stored;
//              it cannot join a PostgreSQL transaction, so a writer would still need the outbox in front of it)
//
//   node tools/dev/runtime.mjs tools/bench/queues.mjs [--jobs 4000] [--rate 200] [--only coffer,pg-boss,graphile,jetstream] [--json]
//
// For each: the burst (jobs enqueued by 16 writers at once, each in its own transaction, drained by 8 concurrent
// handlers: enqueue and processing rates, latency from the writer's start to the handler's start), a steady load
// (--rate jobs/s for 5 s: latency), what it costs while idle (PostgreSQL transactions and this process's CPU over
// 10 s), and a crash: a worker process takes a job and is killed with SIGKILL; how long until the job runs again.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { AckPolicy, RetentionPolicy, StorageType, connect, nanos } from 'nats';
import { run as graphileRun, runMigrations } from 'graphile-worker';
import { PgBoss } from 'pg-boss';
import { ensureDatabase, dropDatabase } from '../dev/system.mjs';
import { percentile } from './lib/load.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const JOBS = opt('jobs', 4000);
const RATE = opt('rate', 200);
const WRITERS = 16;
const HANDLERS = 8;
const LEASE_MS = 10_000;
const json = args.includes('--json');
const log = (msg) => process.stderr.write(`[queues] ${msg}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const natsUrl = process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222';

const round = (n, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

/** One arm's figures: `enqueue(i)` adds job i (resolves once durable), the handler calls `ran(i)` as it starts each. */
async function measure(name, arm) {
  const started = new Map();
  const stamps = new Map();
  let done = 0;
  let waiter = null;
  const ran = (i) => {
    if (started.has(i)) return;
    started.set(i, performance.now());
    done++;
    if (waiter && done >= waiter.n) waiter.resolve();
  };
  const allRan = (n) => (done >= n ? Promise.resolve() : new Promise((resolve) => (waiter = { n, resolve })));
  await arm.start(ran);

  // the burst
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      for (let i = next++; i < JOBS; i = next++) {
        stamps.set(i, performance.now());
        await arm.enqueue(i);
      }
    }),
  );
  const enqueuedMs = performance.now() - t0;
  await allRan(JOBS);
  const drainedMs = performance.now() - t0;
  const burstLatency = [...started].map(([i, t]) => t - stamps.get(i)).sort((a, b) => a - b);

  // a steady load
  const base = JOBS;
  const steadyCount = RATE * 5;
  const s0 = performance.now();
  const pending = [];
  for (let k = 0; k < steadyCount; k++) {
    const due = s0 + (k * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const i = base + k;
    stamps.set(i, performance.now());
    pending.push(arm.enqueue(i));
  }
  await Promise.all(pending);
  await allRan(base + steadyCount);
  const steadyLatency = Array.from({ length: steadyCount }, (_, k) => started.get(base + k) - stamps.get(base + k)).sort((a, b) => a - b);

  // idle: first let the statistics of the pooled backends reach pg_stat_database (an idle backend reports them
  // within 10 s), so the window counts only what runs while nothing happens
  await sleep(12_000);
  const xacts = () =>
    arm.sql.query('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()').then((r) => Number(r.rows[0].n));
  const x0 = await xacts();
  const c0 = process.cpuUsage();
  await sleep(10_000);
  const cpu = process.cpuUsage(c0);
  const idleXacts = (await xacts()) - x0 - 1; // the reading's own transaction
  await arm.stop();

  // a crash: a worker process takes a job and is killed
  const crash = await arm.crash?.();

  return {
    name,
    enqueuePerSecond: round((JOBS * 1000) / enqueuedMs, 0),
    processedPerSecond: round((JOBS * 1000) / drainedMs, 0),
    burstLatencyMs: { p50: round(percentile(burstLatency, 50)), p99: round(percentile(burstLatency, 99)) },
    steadyLatencyMs: { rate: RATE, p50: round(percentile(steadyLatency, 50)), p99: round(percentile(steadyLatency, 99)) },
    idle: { pgTransactionsPer10s: idleXacts, cpuMsPer10s: round((cpu.user + cpu.system) / 1000, 0) },
    crash,
  };
}

/** Runs `source` (an ES module body) in a child process, waits for it to say "taken", kills it with SIGKILL. */
async function killedWorker(source, env) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', source], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
    cwd: HERE,
  });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the worker took no job within 20 s')), 20_000);
    child.stdout.on('data', (d) => String(d).includes('taken') && (clearTimeout(timer), resolve()));
    child.once('exit', (code) => reject(new Error(`the worker exited (${code}) before taking the job`)));
  });
  child.removeAllListeners('exit');
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
}

/** How long after the kill the job ran again, or null within `capMs`. */
async function rerunWithin(capMs, check) {
  const t0 = performance.now();
  while (performance.now() - t0 < capMs) {
    if (await check()) return round(performance.now() - t0, 0);
    await sleep(100);
  }
  return null;
}

function cofferArm(url) {
  const sql = new pg.Pool({ connectionString: url, max: WRITERS + 4 });
  sql.on('error', () => undefined);
  let listener;
  let stopping = false;
  const loops = [];
  const schema = `CREATE TABLE IF NOT EXISTS bq_jobs (
      id bigserial PRIMARY KEY, tenant_id uuid NOT NULL, body jsonb NOT NULL, status text NOT NULL DEFAULT 'pending',
      attempts int NOT NULL DEFAULT 0, next_attempt_at timestamptz NOT NULL DEFAULT now(), locked_until timestamptz,
      created_at timestamptz NOT NULL DEFAULT now());
    CREATE INDEX IF NOT EXISTS bq_jobs_due ON bq_jobs (next_attempt_at) WHERE status = 'pending'`;
  const CLAIM = `UPDATE bq_jobs j SET locked_until = now() + make_interval(secs => $2::int / 1000.0), attempts = j.attempts + 1
    FROM (SELECT id FROM bq_jobs WHERE status = 'pending' AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until < now())
          ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED) due
    WHERE j.id = due.id RETURNING j.id, j.body`;
  return {
    sql,
    async start(ran) {
      await sql.query(schema);
      listener = await sql.connect();
      // every sleeping loop wakes on a NOTIFY (a set of waiters: one notification may find several asleep)
      const sleepers = new Set();
      // a NOTIFY that came while every loop was busy: the next one to find nothing due claims again before sleeping
      let missed = false;
      listener.on('notification', () => {
        if (!sleepers.size) missed = true;
        for (const wake of sleepers) wake();
        sleepers.clear();
      });
      await listener.query('LISTEN bq_wake');
      this.wakeAll = () => {
        for (const wake of sleepers) wake();
        sleepers.clear();
      };
      for (let w = 0; w < 2; w++)
        loops.push(
          (async () => {
            while (!stopping) {
              const { rows } = await sql.query({ name: 'bq_claim', text: CLAIM, values: [HANDLERS / 2, LEASE_MS] });
              if (!rows.length) {
                if (missed) {
                  missed = false;
                  continue;
                }
                // nothing due: sleep until a NOTIFY, or the safety sweep (60 s, as Coffer's)
                await new Promise((r) => {
                  const t = setTimeout(r, 60_000);
                  sleepers.add(() => (clearTimeout(t), r()));
                });
                continue;
              }
              await Promise.all(rows.map(async (r) => ran(r.body.i)));
              await sql.query({
                name: 'bq_done',
                text: `UPDATE bq_jobs SET status = 'done', locked_until = NULL WHERE id = ANY($1::bigint[])`,
                values: [rows.map((r) => r.id)],
              });
            }
          })(),
        );
    },
    async enqueue(i) {
      const c = await sql.connect();
      try {
        await c.query('BEGIN');
        await c.query({ name: 'bq_add', text: 'INSERT INTO bq_jobs (tenant_id, body) VALUES ($1, $2)', values: [randomUUID(), { i }] });
        await c.query('COMMIT');
      } finally {
        c.release();
      }
      // after the commit, as Coffer does: a NOTIFY inside the transaction would serialize the commits
      await sql.query(`SELECT pg_notify('bq_wake', '')`);
    },
    async stop() {
      stopping = true;
      this.wakeAll();
      await Promise.allSettled(loops);
      listener.release();
    },
    async crash() {
      const { rows } = await sql.query(`INSERT INTO bq_jobs (tenant_id, body) VALUES ($1, '{"i": -1}') RETURNING id`, [randomUUID()]);
      await killedWorker(
        `import pg from 'pg'; const c = new pg.Client(process.env.Q_URL); await c.connect();
         const { rows } = await c.query(${JSON.stringify(CLAIM)}, [1, ${LEASE_MS}]); if (rows.length) console.log('taken'); await new Promise(() => {});`,
        { Q_URL: url },
      );
      const rerun = await rerunWithin(60_000, async () => (await sql.query(CLAIM, [1, LEASE_MS])).rows.some((r) => r.id === rows[0].id));
      await sql.end();
      return { leaseMs: LEASE_MS, rerunAfterMs: rerun };
    },
  };
}

function pgBossArm(url) {
  const sql = new pg.Pool({ connectionString: url, max: WRITERS + 4 });
  sql.on('error', () => undefined);
  // its own intervals as shipped (supervision and the queue cache every 60 s), with LISTEN/NOTIFY on (off by default)
  const options = { connectionString: url, max: 6, useListenNotify: true };
  let boss;
  return {
    sql,
    async start(ran) {
      // the queues exist before the instance that uses them starts, so its queue cache knows they are NOTIFY queues
      const setup = new PgBoss(options);
      setup.on('error', () => undefined);
      await setup.start();
      await setup.createQueue('deliver', { notify: true });
      await setup.createQueue('hang', { notify: true, heartbeatSeconds: 10, retryLimit: 3, retryDelay: 0 });
      await setup.stop({ graceful: false, wait: true });
      boss = new PgBoss(options);
      boss.on('error', () => undefined);
      await boss.start();
      await boss.work('deliver', { batchSize: HANDLERS, pollingIntervalSeconds: 0.5, burstWhenBatchFull: true, groupConcurrency: 4 }, async (jobs) =>
        jobs.forEach((j) => ran(j.data.i)),
      );
    },
    async enqueue(i) {
      const c = await sql.connect();
      try {
        await c.query('BEGIN');
        await boss.send('deliver', { i }, { group: { id: randomUUID() }, db: { executeSql: (text, values) => c.query(text, values) } });
        await c.query('COMMIT');
      } finally {
        c.release();
      }
    },
    async stop() {
      await boss.offWork('deliver');
    },
    async crash() {
      await boss.send('hang', {});
      await killedWorker(
        `import { PgBoss } from 'pg-boss'; const boss = new PgBoss({ connectionString: process.env.Q_URL, max: 2 }); boss.on('error', () => undefined);
         await boss.start(); await boss.work('hang', { pollingIntervalSeconds: 0.5 }, async () => { console.log('taken'); await new Promise(() => {}); });`,
        { Q_URL: url },
      );
      let reran = false;
      await boss.work('hang', { pollingIntervalSeconds: 0.5 }, async () => void (reran = true));
      const rerun = await rerunWithin(120_000, async () => reran);
      await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
      await sql.end();
      return { leaseMs: 10_000, rerunAfterMs: rerun, capMs: 120_000 };
    },
  };
}

function graphileArm(url) {
  const sql = new pg.Pool({ connectionString: url, max: WRITERS + 4 });
  sql.on('error', () => undefined);
  let runner;
  return {
    sql,
    async start(ran) {
      await runMigrations({ connectionString: url, logger: quietLogger });
      runner = await graphileRun({
        pgPool: sql,
        concurrency: HANDLERS,
        noHandleSignals: true,
        logger: quietLogger,
        taskList: { deliver: async (payload) => ran(payload.i) },
      });
    },
    async enqueue(i) {
      const c = await sql.connect();
      try {
        await c.query('BEGIN');
        await c.query(`SELECT graphile_worker.add_job('deliver', json_build_object('i', $1::int))`, [i]);
        await c.query('COMMIT');
      } finally {
        c.release();
      }
    },
    async stop() {
      await runner.stop();
    },
    async crash() {
      await sql.query(`SELECT graphile_worker.add_job('hang', '{}'::json)`);
      await killedWorker(
        `import { Logger, run } from 'graphile-worker';
         await run({ connectionString: process.env.Q_URL, concurrency: 1, noHandleSignals: true, logger: new Logger(() => () => undefined),
           taskList: { hang: async () => { console.log('taken'); await new Promise(() => {}); } } });`,
        { Q_URL: url },
      );
      let reran = false;
      const second = await graphileRun({
        pgPool: sql,
        concurrency: 1,
        noHandleSignals: true,
        logger: quietLogger,
        taskList: { hang: async () => void (reran = true) },
      });
      const rerun = await rerunWithin(60_000, async () => reran);
      await second.stop();
      await sql.end();
      return { leaseMs: 4 * 3600_000, rerunAfterMs: rerun };
    },
  };
}

const quietLogger = new (await import('graphile-worker')).Logger(() => () => undefined);

function jetstreamArm(pgUrl) {
  const suffix = randomBytes(4).toString('hex');
  const stream = `BQ_${suffix}`;
  const subject = `bq.${suffix}.deliver`;
  const sql = new pg.Pool({ connectionString: pgUrl, max: 2 });
  let nc;
  let js;
  let messages;
  let consuming;
  return {
    sql,
    async start(ran) {
      nc = await connect({ servers: natsUrl });
      const jsm = await nc.jetstreamManager();
      await jsm.streams.add({ name: stream, subjects: [subject], retention: RetentionPolicy.Workqueue, storage: StorageType.File });
      await jsm.consumers.add(stream, { durable_name: 'workers', ack_policy: AckPolicy.Explicit, ack_wait: nanos(LEASE_MS), max_ack_pending: 1000 });
      js = nc.jetstream();
      const consumer = await js.consumers.get(stream, 'workers');
      messages = await consumer.consume({ max_messages: 64 });
      consuming = (async () => {
        for await (const m of messages) {
          ran(m.json().i);
          m.ack();
        }
      })();
    },
    async enqueue(i) {
      await js.publish(subject, JSON.stringify({ i }));
    },
    async stop() {
      await messages.close();
      await consuming;
    },
    async crash() {
      await js.publish(subject, JSON.stringify({ i: -1 }));
      await killedWorker(
        `import { connect } from 'nats'; const nc = await connect({ servers: process.env.Q_NATS });
         const c = await nc.jetstream().consumers.get(process.env.Q_STREAM, 'workers'); const m = await c.next({ expires: 15000 });
         if (m) console.log('taken'); await new Promise(() => {});`,
        { Q_NATS: natsUrl, Q_STREAM: stream },
      );
      const consumer = await js.consumers.get(stream, 'workers');
      const rerun = await rerunWithin(60_000, async () => {
        const m = await consumer.next({ expires: 1000 });
        if (m) m.ack();
        return Boolean(m);
      });
      const jsm = await nc.jetstreamManager();
      await jsm.streams.delete(stream);
      await nc.close();
      await sql.end();
      return { leaseMs: LEASE_MS, rerunAfterMs: rerun };
    },
  };
}

const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : null;
const results = [];
for (const [name, make] of [
  ['coffer', cofferArm],
  ['pg-boss', pgBossArm],
  ['graphile', graphileArm],
  ['jetstream', jetstreamArm],
].filter(([name]) => !only || only.includes(name))) {
  const db = `coffer_bench_queues_${randomBytes(4).toString('hex')}`;
  await ensureDatabase(adminUrl, db);
  const u = new URL(adminUrl);
  u.pathname = `/${db}`;
  try {
    log(`${name}: ${JOBS} jobs in a burst, ${RATE}/s for 5 s, 10 s idle, a killed worker ...`);
    results.push(await measure(name, make(u.toString())));
  } finally {
    await dropDatabase(adminUrl, db).catch(() => undefined);
  }
}

if (json) process.stdout.write(`${JSON.stringify({ jobs: JOBS, writers: WRITERS, handlers: HANDLERS, results }, null, 2)}\n`);
else {
  process.stdout.write(`${JOBS} no-op jobs from ${WRITERS} writers (a transaction or publish each), ${HANDLERS} handlers at once\n\n`);
  process.stdout.write(
    '| queue | enqueued/s | processed/s | burst p50 / p99 ms | steady p50 / p99 ms | idle: pg xacts / CPU ms per 10 s | killed worker: job ran again after |\n',
  );
  process.stdout.write('|---|---:|---:|---:|---:|---:|---|\n');
  for (const r of results)
    process.stdout.write(
      `| ${r.name} | ${r.enqueuePerSecond} | ${r.processedPerSecond} | ${r.burstLatencyMs.p50} / ${r.burstLatencyMs.p99} | ${r.steadyLatencyMs.p50} / ${r.steadyLatencyMs.p99} | ${r.idle.pgTransactionsPer10s} / ${r.idle.cpuMsPer10s} | ${r.crash?.rerunAfterMs === null ? `not within ${(r.crash.capMs ?? 60_000) / 1000} s (lock held ${r.crash.leaseMs / 1000} s)` : `${r.crash?.rerunAfterMs} ms (lease ${r.crash?.leaseMs / 1000} s)`} |\n`,
    );
}
