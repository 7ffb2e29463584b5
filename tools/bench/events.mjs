// Events benchmark (docs/events.md, docs/benchmarks.md): on a throwaway system,
//   1. token create throughput at 32 clients, windows with no webhook subscribed and with one webhook subscribed to
//      token.created whose local receiver (its own process, a bare keep-alive HTTP/1.1 endpoint) answers 204. The
//      windows come in ABBA order (off, on, on, off, ...) after an unmeasured warm-up of 10 s with the webhook on
//      (the services' CPU per create still falls for a while after start), each preceded by its own warm-up second; an
//      "on" window ends when the receiver has every event it created (so nothing it queued is dropped by the
//      webhook's delete, and its backlog does not spill into the next window). Per window: CPU per create of each
//      process (PostgreSQL's backends of the database together), PostgreSQL commits per create, and the CPU seconds
//      other processes of the machine used meanwhile (a window beside another job is not comparable).
//   2. at a fixed 500 creates/s (below saturation, so every window does the same work), windows in ABBA order again:
//      the delivery lag of the "on" windows (receiver arrival − event.timestamp, p50/p99/max over every event), and
//      each process's CPU per create in both — a window's CPU is counted until its last event arrived. Unlike a
//      saturated window's throughput, which moves with whatever else the machine does, this measures what a
//      delivery costs: `delivery_cpu_ms` (on − off), and `cpu_ratio` = CPU per create off / on, the throughput ratio a
//      CPU-bound machine would show if nothing else changed.
//
//   node tools/dev/runtime.mjs tools/bench/events.mjs [--seconds 10] [--clients 32] [--rate 500] [--rounds 2]
//     [--warmup 10] [--no-build] [--cpu-prof]   (--cpu-prof: every service writes tmp/cpu-prof/events-<date>/<name>-0.cpuprofile;
//                                  node tools/bench/profile-summary.mjs <dir> --window 'webhook subscribed')
import fs from 'node:fs';
import path from 'node:path';
import { fork } from 'node:child_process';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { ROOT } from '../dev/system.mjs';
import { CpuSampler, postgresBackends } from './lib/cpu.mjs';
import { machineBusySeconds } from './lib/machine-time.mjs';
import { startTarget } from './lib/target.mjs';
import { httpClient } from './lib/http.mjs';
import { load, percentile } from './lib/load.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    clients: { type: 'string', default: '32' },
    rate: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '10' },
    'no-build': { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
  },
});
const SECONDS = Number(values.seconds);
const CLIENTS = Number(values.clients);
const RATE = Number(values.rate);
const ROUNDS = Number(values.rounds);
const WARMUP = Number(values.warmup);
const log = (m) => process.stderr.write(`[bench:events] ${m}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

/** The receiver process (lib/event-receiver.mjs): `url`, `count()`, `lags({reset})`, `pid`, `close()`. */
async function receiver() {
  const child = fork(path.join(import.meta.dirname, 'lib/event-receiver.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m.port));
    child.once('exit', () => reject(new Error('the receiver exited')));
  });
  let asked = 0;
  const ask = (opts = {}) =>
    new Promise((resolve) => {
      const id = ++asked;
      const on = (m) => {
        if (m.id !== id) return;
        child.off('message', on);
        resolve(m);
      };
      child.on('message', on);
      child.send({ ask: id, ...opts });
    });
  return {
    url: `http://127.0.0.1:${port}/events`,
    pid: child.pid,
    count: async () => (await ask()).count,
    lags: async ({ reset = false } = {}) => (await ask({ lags: true, reset })).lags,
    close: () => new Promise((r) => (child.exitCode !== null ? r() : (child.once('exit', r), child.kill('SIGTERM')))),
  };
}

async function main() {
  const cpuProfDir = values['cpu-prof'] ? path.join(ROOT, 'tmp/cpu-prof', `events-${new Date().toISOString().replace(/[:.]/g, '-')}`) : undefined;
  if (cpuProfDir) fs.mkdirSync(cpuProfDir, { recursive: true });
  // the receiver listens on 127.0.0.1: the throwaway system lets webhooks reach private addresses
  const target = await startTarget({ log, cpuProfDir, noBuild: values['no-build'], env: { ALLOW_PRIVATE_CALLBACKS: 'true' } });
  const client = httpClient(target.url, CLIENTS + 8);
  const rx = await receiver();
  const db = target.databaseUrl ? new pg.Pool({ connectionString: target.databaseUrl, max: 2, application_name: 'coffer-bench' }) : null;
  const sampler = new CpuSampler(async () => ({
    ...target.processPids(),
    ...(db ? { postgres: await postgresBackends(db, target.databaseName) } : {}),
    receiver: [rx.pid],
    bench: [process.pid],
  }));
  const commits = async () =>
    db ? Number((await db.query('SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()')).rows[0].xact_commit) : NaN;
  const windows = [];
  try {
    const app = await client.call('POST', '/applications', {
      key: target.managementKey,
      body: { name: 'bench events', type: 'private', permissions: ['token:create'] },
      expect: 201,
    });
    const create = () => client.call('POST', '/tokens', { key: app.key, body: { type: 'token', data: 'bench' }, expect: 201 });

    /** One window: its warm-up second and measured seconds; with the webhook on, until every event has arrived. */
    const runWindow = async (mode, seconds) => {
      const hook =
        mode === 'on'
          ? await client.call('POST', '/webhooks', { key: target.managementKey, body: { name: 'bench', url: rx.url, events: ['token.created'] }, expect: 201 })
          : undefined;
      const received = await rx.count();
      const warm = await load({ clients: CLIENTS, seconds: 1, op: create });
      const before = await sampler.snapshot();
      const machineBefore = machineBusySeconds();
      const commitsBefore = await commits();
      const startUs = monotonicMicros();
      const r = await load({ clients: CLIENTS, seconds, op: create });
      const endUs = monotonicMicros();
      // stats reach pg_stat_database at a backend's next report (at most a second later)
      await sleep(1100);
      const cpu = CpuSampler.diff(before, await sampler.snapshot());
      // what the machine did besides this system, the load and the receiver (another job skews a window)
      r.otherCpuSeconds = Math.max(0, machineBusySeconds() - machineBefore - Object.values(cpu).reduce((a, b) => a + b, 0));
      r.commitsPerCreate = (await commits()) - commitsBefore;
      r.cpu = cpu;
      let drainMs = 0;
      if (hook) {
        const expected = warm.count + r.count;
        const ended = performance.now();
        while ((await rx.count()) - received < expected && performance.now() - ended < 60_000) await sleep(20);
        drainMs = performance.now() - ended;
        r.delivered = (await rx.count()) - received;
        r.expected = expected;
        await client.call('DELETE', `/webhooks/${hook.id}`, { key: target.managementKey, expect: 204 });
      }
      r.drainMs = drainMs;
      r.commitsPerCreate /= r.count;
      windows.push({ scenario: mode === 'on' ? 'webhook subscribed' : 'no webhook', clients: CLIENTS, startUs, endUs });
      return r;
    };

    // 0. an unmeasured warm-up of every path (the dispatcher's included)
    if (WARMUP > 0) await runWindow('on', WARMUP);
    await rx.lags({ reset: true });
    await sleep(2000);

    // 1. throughput in ABBA order: off, on | on, off | ...
    const results = { off: [], on: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of round % 2 === 0 ? ['off', 'on'] : ['on', 'off']) {
        const r = await runWindow(mode, SECONDS);
        results[mode].push(r);
        const cpuPerCreate = Object.entries(r.cpu)
          .filter(([, s]) => s > 0)
          .map(([k, s]) => `${k} ${((s * 1000) / r.count).toFixed(2)}`)
          .join(', ');
        log(
          `creates, ${mode === 'on' ? 'webhook subscribed' : 'no webhook'}: ${r.ops.toFixed(0)}/s p99 ${r.p99.toFixed(1)} ms (${r.errors} errors)` +
            `${mode === 'on' ? `; ${r.delivered}/${r.expected} delivered, the last ${(r.drainMs / 1000).toFixed(1)} s after the window` : ''}`,
        );
        log(
          `  CPU ms per create: ${cpuPerCreate}; PostgreSQL commits per create ${r.commitsPerCreate.toFixed(2)}; other processes ${r.otherCpuSeconds.toFixed(1)} CPU s`,
        );
        await sleep(2000);
      }
    }

    // 2. fixed-rate windows: the delivery lag, and each process's CPU per create with and without the webhook
    const fixedRateWindow = async (mode) => {
      const hook =
        mode === 'on'
          ? await client.call('POST', '/webhooks', { key: target.managementKey, body: { name: 'lag', url: rx.url, events: ['token.created'] }, expect: 201 })
          : undefined;
      await sleep(1000);
      await rx.lags({ reset: true });
      const before = await sampler.snapshot();
      const total = RATE * SECONDS;
      const start = performance.now();
      let sent = 0;
      let failed = 0;
      let firstError;
      const inFlight = new Set();
      while (sent < total) {
        const due = start + (sent * 1000) / RATE;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        const p = create().catch((err) => {
          failed++;
          firstError ??= String(err?.message ?? err).slice(0, 200);
        });
        inFlight.add(p);
        p.finally(() => inFlight.delete(p));
        sent++;
      }
      await Promise.all(inFlight);
      const achieved = sent / ((performance.now() - start) / 1000);
      let received = [];
      if (hook) {
        const deadline = Date.now() + 60_000;
        while ((received = await rx.lags()).length < sent - failed && Date.now() < deadline) await sleep(100);
      }
      // the last deliveries' settling, and the stats of both windows taken over the same quiet tail
      await sleep(1100);
      const cpu = CpuSampler.diff(before, await sampler.snapshot());
      if (hook) await client.call('DELETE', `/webhooks/${hook.id}`, { key: target.managementKey, expect: 204 });
      if (failed) log(`fixed rate, ${mode}: ${failed} creates failed, the first: ${firstError}`);
      const created = sent - failed;
      const cpuMs = Object.values(cpu).reduce((a, b) => a + b, 0) * 1000;
      log(
        `fixed ${RATE}/s, ${mode === 'on' ? 'webhook subscribed' : 'no webhook'}: CPU ms per create ${(cpuMs / created).toFixed(3)} (` +
          `${Object.entries(cpu)
            .filter(([, v]) => v > 0)
            .map(([k, v]) => `${k} ${((v * 1000) / created).toFixed(3)}`)
            .join(', ')})${hook ? `; ${received.length}/${created} delivered` : ''}`,
      );
      return { mode, sent, failed, achieved, received, cpu, created };
    };
    const fixed = { off: [], on: [] };
    for (const mode of ['off', 'on', 'on', 'off']) {
      fixed[mode].push(await fixedRateWindow(mode));
      await sleep(2000);
    }
    const lags = Float64Array.from(fixed.on.flatMap((w) => w.received)).sort();
    const sent = fixed.on.reduce((a, w) => a + w.sent, 0);
    const failed = fixed.on.reduce((a, w) => a + w.failed, 0);
    const achieved = Math.min(...fixed.on.map((w) => w.achieved));
    const fixedCpuPerCreate = (ws) => {
      const out = {};
      const created = ws.reduce((a, w) => a + w.created, 0);
      for (const k of Object.keys(ws[0].cpu)) out[k] = Number(((ws.reduce((a, w) => a + w.cpu[k], 0) * 1000) / created).toFixed(3));
      out.total = Number(((ws.reduce((a, w) => a + Object.values(w.cpu).reduce((x, y) => x + y, 0), 0) * 1000) / created).toFixed(3));
      return out;
    };
    const fixedOff = fixedCpuPerCreate(fixed.off);
    const fixedOn = fixedCpuPerCreate(fixed.on);

    const mean = (xs, f) => xs.reduce((a, b) => a + f(b), 0) / xs.length;
    const cpuPerCreate = (xs) => {
      const out = {};
      for (const k of Object.keys(xs[0].cpu)) out[k] = Number(mean(xs, (r) => (r.cpu[k] * 1000) / r.count).toFixed(3));
      out.total = Number(mean(xs, (r) => (Object.values(r.cpu).reduce((a, b) => a + b, 0) * 1000) / r.count).toFixed(3));
      return out;
    };
    const summary = {
      clients: CLIENTS,
      seconds: SECONDS,
      creates_per_s_no_webhook: Math.round(mean(results.off, (r) => r.ops)),
      creates_per_s_webhook_subscribed: Math.round(mean(results.on, (r) => r.ops)),
      ratio: Number((mean(results.on, (r) => r.ops) / mean(results.off, (r) => r.ops)).toFixed(3)),
      windows: { no_webhook: results.off.map((r) => Math.round(r.ops)), webhook_subscribed: results.on.map((r) => Math.round(r.ops)) },
      // CPU seconds of other processes in each window: a window that ran beside another job is not comparable
      other_cpu_s: {
        no_webhook: results.off.map((r) => Number(r.otherCpuSeconds.toFixed(1))),
        webhook_subscribed: results.on.map((r) => Number(r.otherCpuSeconds.toFixed(1))),
      },
      cpu_ms_per_create: { no_webhook: cpuPerCreate(results.off), webhook_subscribed: cpuPerCreate(results.on) },
      pg_commits_per_create: {
        no_webhook: Number(mean(results.off, (r) => r.commitsPerCreate).toFixed(2)),
        webhook_subscribed: Number(mean(results.on, (r) => r.commitsPerCreate).toFixed(2)),
      },
      fixed_rate: {
        rate: RATE,
        cpu_ms_per_create: { no_webhook: fixedOff, webhook_subscribed: fixedOn },
        delivery_cpu_ms: Number((fixedOn.total - fixedOff.total).toFixed(3)),
        cpu_ratio: Number((fixedOff.total / fixedOn.total).toFixed(3)),
      },
      lag: {
        target_rate: RATE,
        achieved_rate: Math.round(achieved),
        events_sent: sent,
        create_errors: failed,
        events_received: lags.length,
        p50_ms: percentile(lags, 50),
        p99_ms: percentile(lags, 99),
        max_ms: lags.length ? lags[lags.length - 1] : NaN,
      },
    };
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    log(
      `throughput ratio at ${CLIENTS} clients (same run): ${summary.ratio} (target >= 0.9); at ${RATE}/s a delivery costs ` +
        `${summary.fixed_rate.delivery_cpu_ms} ms of CPU on a create's ${fixedOff.total} ms: CPU ratio ${summary.fixed_rate.cpu_ratio}; ` +
        `delivery lag p50 ${summary.lag.p50_ms} ms p99 ${summary.lag.p99_ms} ms (target p99 < 1000 ms)`,
    );
  } finally {
    await rx.close();
    await client.close();
    await db?.end();
    await target.stop();
    if (cpuProfDir) {
      fs.writeFileSync(path.join(cpuProfDir, 'windows.json'), `${JSON.stringify(windows, null, 2)}\n`);
      log(
        `CPU profiles in ${path.relative(ROOT, cpuProfDir)}: node tools/bench/profile-summary.mjs ${path.relative(ROOT, cpuProfDir)} --window 'webhook subscribed'`,
      );
    }
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err?.stack ?? err}\n`);
    process.exit(1);
  },
);
