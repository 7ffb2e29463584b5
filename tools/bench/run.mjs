#!/usr/bin/env node
// `npm run bench`: Coffer's performance figures with their baselines measured in the same run (machines are noisy:
// compare ratios). See docs/benchmarks.md. The pieces, one job each, are in lib/: target (what is loaded), load (the
// load loop), baselines (PostgreSQL and a bare Fastify), cpu (/proc accounting), scenarios, seed (fast SQL growth),
// report (table, JSON, SVG, README table).
//
//   npm run bench                  defaults: 1, 8 and 32 clients, 5 s each after 1 s of warm-up (< 10 minutes)
//   npm run bench -- --quick       1 s per scenario, 8 clients only, a smaller sweep: the end-to-end check
//   npm run bench -- --update-readme   also rewrite README.md's Performance table
//   npm run bench -- --cpu-prof    every process of the throwaway system writes tmp/cpu-prof/<date>/<name>-<n>.cpuprofile
//                                  (summarise: node tools/bench/profile-summary.mjs tmp/cpu-prof/<date> --window read)
//   npm run bench -- --no-build    run the dist/ as it is (e.g. an older build copied in, for a before/after)
//   BENCH_REPLICAS=gateway=2,token-service=2   more processes of a service (gateways take requests in turn)
//   BENCH_KEK=1                    also compare KEK_PROVIDER=pkcs11 (SoftHSM2) with env (tools/bench/kek.mjs);
//                                  BENCH_ONLY=kek runs only that comparison
//   BENCH_PROXY=1                  also the proxy's overhead and throughput against local HTTPS destinations
//                                  (tools/bench/proxy.mjs); BENCH_ONLY=proxy runs only that
//   BENCH_CONSOLE=0                skip the web console's first-page time in Chromium (tools/bench/console.mjs, on
//                                  by default unless BENCH_ONLY names something else); BENCH_ONLY=console runs only that
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { APPS, ROOT, build } from '../dev/system.mjs';
import { pgBaseline, startFloorServer } from './lib/baselines.mjs';
import { CpuSampler, postgresBackends } from './lib/cpu.mjs';
import { httpClient } from './lib/http.mjs';
import { load } from './lib/load.mjs';
import { natsPerOp, natsSnapshot } from './lib/nats-monitor.mjs';
import { markdown, svg, tableHeader, tableLine, toRow } from './lib/report.mjs';
import { listScenarios, prepare, requestScenarios } from './lib/scenarios.mjs';
import { countExpired, countTokens, insertCopies, seedTo } from './lib/seed.mjs';
import { startTarget } from './lib/target.mjs';
import { kekBench } from './kek.mjs';

const args = new Set(process.argv.slice(2));
const QUICK = args.has('--quick');
const env = (name, quick, normal) => process.env[name] ?? (QUICK ? quick : normal);
const CONFIG = {
  quick: QUICK,
  seconds: Number(env('BENCH_SECONDS', '1', '5')),
  warmup: Number(env('BENCH_WARMUP', '0.3', '1')),
  clients: env('BENCH_CLIENTS', '8', '1,8,32').split(',').map(Number),
  scaleClients: Number(env('BENCH_SCALE_CLIENTS', '8', '8')),
  scaleSizes: [...env('BENCH_SCALE_SIZES', '10000', '10000').split(','), ...(process.env.BENCH_SCALE_1M === '1' ? ['1000000'] : [])]
    .filter(Boolean)
    .map(Number),
  // the sweep needs control of its interval: on by default only for the throwaway system
  sweepRows: process.env.BENCH_SWEEP_ROWS !== undefined ? Number(process.env.BENCH_SWEEP_ROWS) : undefined,
  only: process.env.BENCH_ONLY,
  expression: process.env.BENCH_EXPRESSION === '1',
  // the edge validation pipe's cost per body (issue 12); on unless a subset of scenarios was asked for
  contracts: process.env.BENCH_CONTRACTS !== undefined ? process.env.BENCH_CONTRACTS === '1' : !process.env.BENCH_ONLY,
  cpuProf: args.has('--cpu-prof'),
  kek: process.env.BENCH_KEK === '1' || process.env.BENCH_ONLY === 'kek',
  proxy: process.env.BENCH_PROXY === '1' || process.env.BENCH_ONLY === 'proxy',
  console: process.env.BENCH_CONSOLE !== undefined ? process.env.BENCH_CONSOLE === '1' : !process.env.BENCH_ONLY || process.env.BENCH_ONLY === 'console',
  replicas: Object.fromEntries(
    (process.env.BENCH_REPLICAS ?? '')
      .split(',')
      .filter(Boolean)
      .map((pair) => [pair.split('=')[0], Number(pair.split('=')[1])]),
  ),
};
const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);
const rows = [];

function record(row) {
  rows.push(row);
  console.log(tableLine(row));
  if (row.first_error) console.log(`   first error: ${row.first_error}`);
  const n = row.nats_msgs_per_op;
  if (n)
    console.log(
      `   nats msgs/req: ${n.published} published, ${n.delivered} delivered (${Object.entries(n.by)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}); pg transactions/req ${row.pg_xacts_per_op ?? '–'}`,
    );
}

/** the CLOCK_MONOTONIC microseconds V8 stamps profile samples with, so a summary can keep one scenario's samples */
const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);
const windows = [];

async function main() {
  const startedAt = new Date();
  if (CONFIG.expression) {
    console.log('\n== expression library (libs/expression) ==');
    spawnSync(
      path.join(ROOT, 'node_modules/.bin/ts-node'),
      ['--transpile-only', '-P', 'libs/expression/tsconfig.json', '-O', '{"module":"commonjs"}', 'tools/bench/expression.bench.ts'],
      {
        cwd: ROOT,
        stdio: 'inherit',
      },
    );
  }
  if (CONFIG.contracts) {
    console.log("\n== request contracts (libs/contracts, the gateway's validation pipe) ==");
    spawnSync(path.join(ROOT, 'node_modules/.bin/ts-node'), ['--transpile-only', '-P', 'libs/contracts/tsconfig.lib.json', 'tools/bench/contracts.bench.ts'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
  }
  if (CONFIG.kek) {
    console.log('\n== key-encryption key: KEK_PROVIDER=pkcs11 (SoftHSM2) vs env, alternating windows ==');
    if (!args.has('--no-build')) build([...APPS, 'admin']);
    const kekRows = await kekBench({ seconds: CONFIG.seconds, warmup: CONFIG.warmup, clients: [CONFIG.scaleClients], log });
    const dir = path.join(ROOT, 'bench/results');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `kek-${startedAt.toISOString().slice(0, 19).replace(/:/g, '-')}.json`), `${JSON.stringify(kekRows, null, 2)}\n`);
    if (CONFIG.only === 'kek') return;
  }
  if (CONFIG.proxy) {
    console.log('\n== proxy: through /proxy vs straight to the destination, alternating windows ==');
    if (!args.has('--no-build')) build([...APPS, 'admin']);
    spawnSync(
      process.execPath,
      [path.join(ROOT, 'tools/bench/proxy.mjs'), '--no-build', '--seconds', String(CONFIG.seconds), '--warmup', String(CONFIG.warmup)],
      {
        cwd: ROOT,
        stdio: 'inherit',
      },
    );
    if (CONFIG.only === 'proxy') return;
  }
  if (CONFIG.console) {
    console.log("\n== web console: the first page's time until usable in Chromium, against a bare page ==");
    if (!args.has('--no-build')) build([...APPS, 'admin']);
    spawnSync(process.execPath, [path.join(ROOT, 'tools/bench/console.mjs'), '--no-build', '--samples', QUICK ? '5' : '20'], { cwd: ROOT, stdio: 'inherit' });
    if (CONFIG.only === 'console') return;
  }
  const stamp = startedAt.toISOString().slice(0, 19).replace(/:/g, '-');
  const cpuProfDir = CONFIG.cpuProf ? path.join(ROOT, 'tmp/cpu-prof', stamp) : undefined;
  if (cpuProfDir) fs.mkdirSync(cpuProfDir, { recursive: true });
  const target = await startTarget({ log, cpuProfDir, replicas: CONFIG.replicas, noBuild: args.has('--no-build') });
  const sweepRows = CONFIG.sweepRows ?? (target.kind === 'throwaway' ? (QUICK ? 10_000 : 100_000) : 0);
  const http = httpClient(target.urls ?? target.url, Math.max(64, ...CONFIG.clients) + 8);
  const nats = () => (target.natsMonitorUrl ? natsSnapshot(target.natsMonitorUrl).catch(() => undefined) : undefined);
  // transactions committed in the target's database, read-only ones (a plain SELECT) included, other services' polling too
  const commits = async () =>
    db ? Number((await db.query('SELECT xact_commit FROM pg_stat_database WHERE datname = $1', [target.databaseName])).rows[0]?.xact_commit ?? NaN) : NaN;
  const db = target.databaseUrl
    ? new pg.Pool({ connectionString: target.databaseUrl, max: Math.max(...CONFIG.clients, CONFIG.scaleClients) + 2, application_name: 'coffer-bench' })
    : null;
  const floor = await startFloorServer();
  const floorHttp = httpClient(floor.url, Math.max(64, ...CONFIG.clients));
  try {
    log('preparing applications, reactors and 200 cards ...');
    const data = await prepare(http.call, target.managementKey);
    const tenantId = target.tenantId ?? (await http.call('GET', `/tokens/${data.cards[0]}`, { key: data.key })).tenant_id;
    const sampler = new CpuSampler(async () => ({
      ...target.processPids(),
      ...(db ? { postgres: await postgresBackends(db, target.databaseName) } : {}),
      'fastify-floor': [floor.pid],
      bench: [process.pid],
    }));

    /** warm-up, then the measured window between two CPU snapshots */
    const measure = async ({ group, scenario, clients, op, seconds = CONFIG.seconds, baseline, baselineOps, extra, stop, warmup = CONFIG.warmup }) => {
      if (warmup > 0) await load({ clients, seconds: warmup, op });
      const natsBefore = await nats();
      const commitsBefore = await commits();
      const before = await sampler.snapshot();
      const startUs = monotonicMicros();
      const r = await load({ clients, seconds, op, stop });
      windows.push({ scenario, clients, startUs, endUs: monotonicMicros() });
      const cpu = CpuSampler.diff(before, await sampler.snapshot());
      const natsMsgs = group === 'baseline' ? undefined : natsPerOp(natsBefore, await nats(), r.count);
      // pg_stat_database lags up to its flush interval (~1 s): a rough figure, good enough to tell 1 from 3
      const pgCommits = r.count ? +(((await commits()) - commitsBefore) / r.count).toFixed(2) : NaN;
      const row = toRow({
        group,
        scenario,
        clients,
        r,
        cpu,
        baseline,
        baselineOps,
        extra: { ...extra, ...(natsMsgs ? { nats_msgs_per_op: natsMsgs } : {}), ...(Number.isFinite(pgCommits) ? { pg_xacts_per_op: pgCommits } : {}) },
      });
      record(row);
      return r;
    };
    const wanted = (name) => !CONFIG.only || CONFIG.only.split(',').some((s) => name.toLowerCase().includes(s.toLowerCase()));

    console.log(`\n${tableHeader()}`);

    // --- scale first, on a tenant that holds only the seeded cards: list/search/cursor latency as it grows ---
    if (db && wanted('scale')) {
      const scenarios = listScenarios(http.call, data);
      const sizes = [await countTokens(db, tenantId), ...CONFIG.scaleSizes];
      for (const size of sizes) {
        const seeded = await seedTo(db, tenantId, data.cards[0], size);
        const tokens = await countTokens(db, tenantId);
        if (seeded > 0.05) log(`seeded the tenant to ${tokens} tokens in ${seeded.toFixed(1)} s`);
        for (const s of scenarios) {
          await measure({
            group: 'scale',
            scenario: `${s.name} @ ${tokens}`,
            clients: CONFIG.scaleClients,
            op: s.op,
            seconds: Math.min(CONFIG.seconds, 3),
            extra: { tokens },
          });
        }
      }
      // back to a small tenant for the request scenarios
      await db.query(`DELETE FROM tokens WHERE tenant_id = $1 AND id LIKE 'fill-%'`, [tenantId]);
      await db.query('VACUUM ANALYZE tokens');
    }

    // --- baselines and request scenarios, interleaved per client count so each ratio compares like with like ---
    const base = db ? await pgBaseline(db, tenantId) : null;
    const scenarios = requestScenarios(http.call, data).filter((s) => wanted(s.name));
    for (const clients of CONFIG.clients) {
      const baselineOps = {};
      if (base) {
        baselineOps.insert = (await measure({ group: 'baseline', scenario: 'pg INSERT (token-shaped row)', clients, op: base.insert })).ops;
        baselineOps.select = (await measure({ group: 'baseline', scenario: 'pg SELECT by primary key', clients, op: base.select })).ops;
      }
      baselineOps.floor = (await measure({ group: 'baseline', scenario: 'bare Fastify handler', clients, op: () => floorHttp.call('GET', '/floor') })).ops;
      for (const s of scenarios) {
        await measure({ group: 'request', scenario: s.name, clients, op: s.op, baseline: s.baseline, baselineOps: baselineOps[s.baseline] });
        if (s.drains === 'reactor_jobs' && db) await drainReactorJobs(db, tenantId, rows[rows.length - 1]);
      }
    }
    if (base) await base.drop();

    // --- the expiry sweep of many expired tokens while reads go on ---
    if (db && sweepRows > 0 && wanted('sweep')) {
      const clients = CONFIG.scaleClients;
      const read = (_c, seq) => http.call('GET', `/tokens/${data.cards[seq % data.cards.length]}`, { key: data.key });
      await measure({ group: 'sweep', scenario: 'GET /tokens/{id} before the sweep', clients, op: read });
      const past = new Date(Date.now() - 60_000).toISOString();
      const t0 = performance.now();
      await insertCopies(db, tenantId, data.cards[0], sweepRows, past);
      const inserted = (performance.now() - t0) / 1000;
      log(
        `inserted ${sweepRows} expired tokens in ${inserted.toFixed(1)} s; reading while the sweep (every ${target.sweepIntervalMs ?? '?'} ms) deletes them ...`,
      );
      const started = performance.now();
      let done = false;
      let doneAt;
      const poll = (async () => {
        while (!done) {
          if ((await countExpired(db, tenantId)) === 0) {
            doneAt = performance.now();
            done = true;
          } else await new Promise((r) => setTimeout(r, 250));
        }
      })();
      const cap = Number(process.env.BENCH_SWEEP_MAX_SECONDS ?? 300);
      const capTimer = setTimeout(() => (done = true), cap * 1000);
      const r = await measure({
        group: 'sweep',
        scenario: `GET /tokens/{id} during sweep of ${sweepRows}`,
        clients,
        op: read,
        seconds: cap,
        warmup: 0,
        stop: () => done,
        extra: { sweep_rows: sweepRows, sweep_interval_ms: target.sweepIntervalMs },
      });
      clearTimeout(capTimer);
      await poll;
      const row = rows[rows.length - 1];
      // known only now: the sweep ended the window
      row.sweep_seconds = doneAt ? +((doneAt - started) / 1000).toFixed(2) : null;
      if (row.sweep_seconds) {
        row.sweep_rows_per_s = Math.round(sweepRows / row.sweep_seconds);
        console.log(
          `   sweep: ${sweepRows} expired tokens gone ${row.sweep_seconds} s after their insert (≈ ${row.sweep_rows_per_s}/s incl. up to one interval of waiting); reads p99 ${r.p99.toFixed(2)} ms`,
        );
      } else console.log(`   sweep: not finished within ${cap} s (BENCH_SWEEP_MAX_SECONDS)`);
    }

    // --- outputs ---
    const result = {
      started_at: startedAt.toISOString(),
      finished_at: new Date().toISOString(),
      target: target.kind === 'throwaway' ? 'throwaway system started like npm start' : target.url,
      config: CONFIG,
      machine: {
        cpus: os.cpus().length,
        cpu_model: os.cpus()[0]?.model?.trim() ?? 'unknown',
        memory_gb: Math.round(os.totalmem() / 2 ** 30),
        os: `${os.type()} ${os.release()}`,
        node: process.version,
        load_average_at_start: os.loadavg().map((x) => +x.toFixed(2)),
      },
      rows,
    };
    printSummary(rows);
    const dir = path.join(ROOT, 'bench/results');
    fs.mkdirSync(dir, { recursive: true });
    const name = `${stamp}${QUICK ? '-quick' : ''}`;
    fs.writeFileSync(path.join(dir, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
    fs.writeFileSync(path.join(dir, `${name}.svg`), `${svg(result)}\n`);
    fs.writeFileSync(path.join(dir, `${name}.md`), `${markdown(result)}\n`);
    console.log(`\nwrote bench/results/${name}.{json,svg,md}`);
    if (args.has('--update-readme')) updateReadme(result, name);
  } finally {
    await floorHttp.close().catch(() => undefined);
    await floor.stop();
    await http.close().catch(() => undefined);
    await db?.end();
    await target.stop();
    if (cpuProfDir) {
      fs.writeFileSync(path.join(cpuProfDir, 'windows.json'), `${JSON.stringify(windows, null, 2)}\n`);
      log(`CPU profiles in ${path.relative(ROOT, cpuProfDir)}: node tools/bench/profile-summary.mjs ${path.relative(ROOT, cpuProfDir)} --window <scenario>`);
    }
  }
}

/** Waits until the accepted asynchronous invocations have run, so their work does not land in the next row. */
async function drainReactorJobs(db, tenantId, row) {
  const started = performance.now();
  const cap = started + 180_000;
  for (;;) {
    const { n } = (await db.query(`SELECT count(*)::int AS n FROM reactor_jobs WHERE tenant_id = $1 AND status IN ('pending', 'running')`, [tenantId])).rows[0];
    if (n === 0 || performance.now() > cap) {
      row.backlog_left = n;
      row.backlog_drained_s = +((performance.now() - started) / 1000).toFixed(2);
      console.log(`   accepted jobs ${n ? `still pending after ${row.backlog_drained_s} s: ${n}` : `all run ${row.backlog_drained_s} s after the window`}`);
      return;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The figures the issue tracks: create against INSERT, read throughput and latency, the HTTP floor. */
function printSummary(all) {
  const at = (scenario, clients) => all.find((r) => r.scenario === scenario && r.clients === clients);
  const max = Math.max(...CONFIG.clients);
  const lines = [];
  const create = at('POST /tokens (card)', max);
  if (create?.ratio !== undefined)
    lines.push(`POST /tokens (card) at ${max} clients: ${create.ops_per_s} req/s = ${create.ratio} × the INSERT ceiling (goal ≥ 0.5), p99 ${create.p99_ms} ms`);
  const read = at('GET /tokens/{id}', max);
  if (read)
    lines.push(
      `GET /tokens/{id} at ${max} clients: ${read.ops_per_s} req/s (goal ≥ 5,000), p99 ${read.p99_ms} ms (goal < 20 ms)${read.ratio !== undefined ? `, ${read.ratio} × the SELECT ceiling` : ''}`,
    );
  const single = at('GET /tokens/{id}', 1);
  if (single) lines.push(`GET /tokens/{id}, one client: mean ${single.mean_ms} ms (goal < 1 ms)`);
  const floor = at('bare Fastify handler', max);
  const health = at('GET /healthz (gateway)', max);
  if (floor && health)
    lines.push(`HTTP floor at ${max} clients: bare Fastify ${floor.ops_per_s} req/s, gateway /healthz ${health.ops_per_s} req/s (${health.ratio} × floor)`);
  if (read?.cpu_ms_per_op?.gateway !== undefined)
    lines.push(
      `CPU per read: gateway ${read.cpu_ms_per_op.gateway} ms, token-service ${read.cpu_ms_per_op['token-service']} ms, nats ${read.cpu_ms_per_op['nats-server']} ms, pg ${read.cpu_ms_per_op.postgres ?? '–'} ms`,
    );
  if (create?.cpu_ms_per_op?.gateway !== undefined)
    lines.push(
      `CPU per create: gateway ${create.cpu_ms_per_op.gateway} ms, token-service ${create.cpu_ms_per_op['token-service']} ms, nats ${create.cpu_ms_per_op['nats-server']} ms, pg ${create.cpu_ms_per_op.postgres ?? '–'} ms`,
    );
  if (lines.length) console.log(`\n== summary ==\n${lines.join('\n')}`);
}

/** Replaces the table between the README's bench markers with this run's. */
function updateReadme(result, name) {
  const file = path.join(ROOT, 'README.md');
  const text = fs.readFileSync(file, 'utf8');
  const start = '<!-- bench:start -->';
  const end = '<!-- bench:end -->';
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) return log('README.md has no bench markers: not updated');
  const body = `${markdown(result)}\n\nChart: [bench/results/${name}.svg](bench/results/${name}.svg); all figures: [bench/results/${name}.json](bench/results/${name}.json).`;
  fs.writeFileSync(file, `${text.slice(0, a + start.length)}\n${body}\n${text.slice(b)}`);
  log('README.md Performance table updated');
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(`bench failed: ${err.stack ?? err}`);
    process.exit(1);
  },
);
