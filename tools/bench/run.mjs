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
//   BENCH_TRACING=1                the throwaway system traces every request to a discarding OTLP collector
//                                  (lib/trace-sink.mjs): what tracing costs, against a run without it; its results
//                                  are named <date>[-quick]-tracing and never become the reference of the comparison
//                                  (nor do those of a BENCH_ONLY run, named <date>[-quick]-only)
//   BENCH_CONSOLE=0                skip the web console's first-page time in Chromium (tools/bench/console.mjs, on
//                                  by default unless BENCH_ONLY names something else); BENCH_ONLY=console runs only that
//   BENCH_ELEMENTS=1               also the Elements fields' budgets in Chromium (tools/bench/elements.mjs: loader size,
//                                  time to ready and to a token, against plain inputs); BENCH_ONLY=elements runs only that
//
// Every run ends with issue 35's goals (lib/goals.mjs: figure, ratio, target, verdict; --quick adds the rows the goals
// read at 1 and 32 clients), the idle measurement of the throwaway system (lib/idle.mjs) and the comparison of every
// ratio with the last committed result of the same kind (lib/compare.mjs): BENCH_IDLE_SECONDS, BENCH_IDLE_SETTLE,
// BENCH_GOAL_ROWS=0, BENCH_COMPARE=<file>|0.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { APPS, ROOT, build } from '../dev/system.mjs';
import { startTraceSink } from './lib/trace-sink.mjs';
import { pgBaseline, startFloorServer } from './lib/baselines.mjs';
import { startSkeleton } from './lib/skeleton.mjs';
import { drainDeferredWork } from './lib/deferred-work.mjs';
import { committedResult, compareResults, comparisonMarkdown, comparisonText, loadResult } from './lib/compare.mjs';
import { CpuSampler, postgresBackends } from './lib/cpu.mjs';
import { SCALE_SMALL, SKELETON, TARGETS, clientPasses, goalsMarkdown, goalsText, judgeGoals, loneReadHops } from './lib/goals.mjs';
import { httpClient } from './lib/http.mjs';
import { idleMarkdown, idleTable, measureIdle } from './lib/idle.mjs';
import { load } from './lib/load.mjs';
import { natsPerOp, natsSnapshot } from './lib/nats-monitor.mjs';
import { explainStatements, plansMarkdown, plansText } from './lib/plans.mjs';
import { duringRun, markdown, svg, switchesLine, switchesPerOp, tableHeader, tableLine, toRow, totalSwitches } from './lib/report.mjs';
import { prepare, requestScenarios, scaleScenarios } from './lib/scenarios.mjs';
import { countExpired, countTokens, insertCopies, seedTo, settle } from './lib/seed.mjs';
import { startTarget } from './lib/target.mjs';
import { machineShares, machineTime } from './lib/machine-time.mjs';
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
  // each scale point's scenarios measured this many times, in alternating order (goal 5 judges each figure's median)
  scaleRounds: Math.max(1, Number(env('BENCH_SCALE_ROUNDS', '1', '3'))),
  scaleSizes: [...env('BENCH_SCALE_SIZES', '10000', '10000').split(','), ...(process.env.BENCH_SCALE_1M === '1' ? ['1000000'] : [])]
    .filter(Boolean)
    .map(Number),
  // the sweep needs control of its interval: on by default only for the throwaway system
  sweepRows: process.env.BENCH_SWEEP_ROWS !== undefined ? Number(process.env.BENCH_SWEEP_ROWS) : undefined,
  only: process.env.BENCH_ONLY,
  expression: process.env.BENCH_EXPRESSION === '1',
  // the edge validation pipe's cost per body (issue 12); on unless a subset of scenarios was asked for
  contracts: process.env.BENCH_CONTRACTS !== undefined ? process.env.BENCH_CONTRACTS === '1' : !process.env.BENCH_ONLY,
  // what an auth invalidation costs the gateway by how many principals it caches; on unless a subset was asked for
  principals: process.env.BENCH_PRINCIPALS !== undefined ? process.env.BENCH_PRINCIPALS === '1' : !process.env.BENCH_ONLY,
  cpuProf: args.has('--cpu-prof'),
  kek: process.env.BENCH_KEK === '1' || process.env.BENCH_ONLY === 'kek',
  proxy: process.env.BENCH_PROXY === '1' || process.env.BENCH_ONLY === 'proxy',
  elements: process.env.BENCH_ELEMENTS === '1' || process.env.BENCH_ONLY === 'elements',
  console: process.env.BENCH_CONSOLE !== undefined ? process.env.BENCH_CONSOLE === '1' : !process.env.BENCH_ONLY || process.env.BENCH_ONLY === 'console',
  // the idle measurement (issue 35, goal 3): after start (before the load) and a settle time, sample the system's processes
  idleSeconds: Number(env('BENCH_IDLE_SECONDS', '15', '60')),
  // longer than MEMORY_RECLAIM_IDLE_MS (10 s): the services' one shrinking collection after start-up work is not idle cost
  idleSettle: Number(env('BENCH_IDLE_SETTLE', '15', '30')),
  // the rows the goals read at 1 and 32 clients, added when BENCH_CLIENTS does not measure them (--quick: 8 only)
  goalRows: process.env.BENCH_GOAL_ROWS !== '0',
  // what to compare the ratios with: the last committed result of the same kind unless a file (or <rev>:<path>) is named; 0: nothing
  compare: process.env.BENCH_COMPARE,
  replicas: Object.fromEntries(
    (process.env.BENCH_REPLICAS ?? '')
      .split(',')
      .filter(Boolean)
      .map((pair) => [pair.split('=')[0], Number(pair.split('=')[1])]),
  ),
};
const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);
const rows = [];
/** what the goal table is judged from besides the rows: the proxy bench's rows and the idle figures, or why not */
const judged = {
  proxy: null,
  proxyWhy: 'set BENCH_PROXY=1',
  idle: null,
  idleProcesses: null,
  idleWhy: 'the request section did not run',
  idleNote: '',
  hasDatabase: true,
  // EXPLAIN (ANALYZE, BUFFERS) of the list and search statements at each scale point (goal 5)
  scalePlans: [],
};

/** A drain that gave up (a shared system that never settles): the window's CPU then includes others' work. */
function logUndrained(scenario, when, { drained, ms }) {
  if (!drained) log(`${scenario}: the sealer and the relay had not caught up ${ms} ms ${when} the window`);
}

function record(row) {
  rows.push(row);
  console.log(tableLine(row));
  if (row.first_error) console.log(`   first error: ${row.first_error}`);
  const switches = switchesLine(row);
  if (switches) console.log(switches);
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

/** Runs tools/bench/<name>.bench.ts from its sources (ts-node, with the workspace's paths) and prints what it prints. */
function microBenchmark(title, tsconfig, name) {
  console.log(`\n== ${title} ==`);
  const run = spawnSync(
    path.join(ROOT, 'node_modules/.bin/ts-node'),
    ['--transpile-only', '-r', './tools/bench/lib/ts-paths.cjs', '-P', tsconfig, `tools/bench/${name}.bench.ts`],
    { cwd: ROOT, stdio: 'inherit' },
  );
  // the rest still runs, but the run says it is incomplete (a micro-benchmark once failed unnoticed for days)
  if (run.status !== 0) {
    log(`the ${name} micro-benchmark failed (above): the run exits with status 1`);
    process.exitCode = 1;
  }
}

async function main() {
  const startedAt = new Date();
  const machineAtStart = machineTime();
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
  if (CONFIG.contracts) microBenchmark("request contracts (libs/contracts, the gateway's validation pipe)", 'libs/contracts/tsconfig.lib.json', 'contracts');
  if (CONFIG.principals)
    microBenchmark("the gateway's principal cache: a session authorized, by principals cached", 'apps/gateway/tsconfig.app.json', 'principal-cache');
  // BENCH_ONLY=kek|proxy|console: only that part, then the goal table (of what it measured) and the comparison
  const onlyPart = () => concludeGoals({ started_at: startedAt.toISOString(), config: CONFIG, rows: [] });
  if (CONFIG.kek) {
    console.log('\n== key-encryption key: KEK_PROVIDER=pkcs11 (SoftHSM2) vs env, alternating windows ==');
    if (!args.has('--no-build')) build([...APPS, 'admin']);
    const kekRows = await kekBench({ seconds: CONFIG.seconds, warmup: CONFIG.warmup, clients: [CONFIG.scaleClients], log });
    const dir = path.join(ROOT, 'bench/results');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `kek-${startedAt.toISOString().slice(0, 19).replace(/:/g, '-')}.json`), `${JSON.stringify(kekRows, null, 2)}\n`);
    if (CONFIG.only === 'kek') return onlyPart();
  }
  if (CONFIG.proxy) {
    console.log('\n== proxy: through /proxy vs straight to the destination, alternating windows ==');
    if (!args.has('--no-build')) build([...APPS, 'admin']);
    // the proxy bench writes its rows here: goal 4 of the table is judged from them
    const jsonFile = path.join(os.tmpdir(), `coffer-bench-proxy-${process.pid}.json`);
    const res = spawnSync(
      process.execPath,
      [path.join(ROOT, 'tools/bench/proxy.mjs'), '--no-build', '--seconds', String(CONFIG.seconds), '--warmup', String(CONFIG.warmup), '--json', jsonFile],
      {
        cwd: ROOT,
        stdio: 'inherit',
      },
    );
    try {
      judged.proxy = JSON.parse(fs.readFileSync(jsonFile, 'utf8')).rows;
    } catch {
      judged.proxyWhy = `the proxy bench failed (exit ${res.status ?? res.signal}): see its output above`;
    } finally {
      fs.rmSync(jsonFile, { force: true });
    }
    if (CONFIG.only === 'proxy') return onlyPart();
  }
  if (CONFIG.console) {
    console.log("\n== web console: the first page's time until usable in Chromium, against a bare page ==");
    if (!args.has('--no-build')) build([...APPS, 'admin']);
    spawnSync(process.execPath, [path.join(ROOT, 'tools/bench/console.mjs'), '--no-build', '--samples', QUICK ? '5' : '20'], { cwd: ROOT, stdio: 'inherit' });
    if (CONFIG.only === 'console') return onlyPart();
  }
  if (CONFIG.elements) {
    console.log('\n== Elements: the hosted card fields in Chromium (size, time to ready, time to a token), against plain inputs ==');
    if (!args.has('--no-build')) build([...APPS, 'admin']);
    spawnSync(process.execPath, [path.join(ROOT, 'tools/bench/elements.mjs'), '--no-build', '--samples', QUICK ? '5' : '20'], { cwd: ROOT, stdio: 'inherit' });
    if (CONFIG.only === 'elements') return onlyPart();
  }
  const stamp = startedAt.toISOString().slice(0, 19).replace(/:/g, '-');
  const cpuProfDir = CONFIG.cpuProf ? path.join(ROOT, 'tmp/cpu-prof', stamp) : undefined;
  if (cpuProfDir) fs.mkdirSync(cpuProfDir, { recursive: true });
  const tracing = process.env.BENCH_TRACING === '1' ? await startTraceSink() : undefined;
  if (tracing) log(`tracing on: every process exports its spans to ${tracing.env.OTEL_EXPORTER_OTLP_ENDPOINT} (discarded)`);
  const target = await startTarget({ log, cpuProfDir, replicas: CONFIG.replicas, noBuild: args.has('--no-build'), env: tracing?.env });
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
  let skeleton;
  const floorHttp = httpClient(floor.url, Math.max(64, ...CONFIG.clients));
  judged.hasDatabase = Boolean(db);
  try {
    log('preparing applications, reactors and 200 cards ...');
    const data = await prepare(http.call, target.managementKey);
    const tenantId = target.tenantId ?? (await http.call('GET', `/tokens/${data.cards[0]}`, { key: data.key })).tenant_id;
    skeleton = await startBenchSkeleton(target, tenantId, db);
    const sampler = new CpuSampler(async () => ({
      ...target.processPids(),
      ...(skeleton?.pids ?? {}),
      ...(db ? { postgres: await postgresBackends(db, target.databaseName) } : {}),
      'fastify-floor': [floor.pid],
      bench: [process.pid],
    }));

    /**
     * warm-up, then the measured window between two CPU snapshots. The sealing and relaying the requests left behind
     * (lib/deferred-work.mjs) is waited for before the window opens and again before it closes: each window's CPU is
     * its own requests' work, the deferred part included, and none of the scenario measured before it.
     */
    const measure = async ({ group, scenario, clients, op, seconds = CONFIG.seconds, baseline, baselineOps, extra, stop, warmup = CONFIG.warmup }) => {
      if (warmup > 0) await load({ clients, seconds: warmup, op });
      if (db) logUndrained(scenario, 'before', await drainDeferredWork(db));
      const natsBefore = await nats();
      const commitsBefore = await commits();
      const before = await sampler.snapshot();
      const startUs = monotonicMicros();
      const r = await load({ clients, seconds, op, stop });
      const deferred = db ? await drainDeferredWork(db) : null;
      if (deferred) logUndrained(scenario, 'after', deferred);
      windows.push({ scenario, clients, startUs, endUs: monotonicMicros() });
      const after = await sampler.snapshot();
      const cpu = CpuSampler.diff(before, after);
      const switches = switchesPerOp(CpuSampler.switches(before, after), r.count);
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
        extra: {
          ...extra,
          ...(switches ? { switches_per_op: switches } : {}),
          ...(natsMsgs ? { nats_msgs_per_op: natsMsgs } : {}),
          ...(Number.isFinite(pgCommits) ? { pg_xacts_per_op: pgCommits } : {}),
          // how long after the load the deferred work took to finish (its CPU is in the row's figures)
          ...(deferred ? { deferred_ms: deferred.ms, ...(deferred.drained ? {} : { deferred_undrained: true }) } : {}),
        },
      });
      record(row);
      return r;
    };
    const wanted = (name) => !CONFIG.only || CONFIG.only.split(',').some((s) => name.toLowerCase().includes(s.toLowerCase()));

    // --- idle (issue 35, goal 3): the system as started, before any load, while nobody calls ---
    if (CONFIG.idleSeconds > 0 && wanted('idle')) await measureIdleSystem(target);
    else judged.idleWhy = CONFIG.idleSeconds > 0 ? 'left out by BENCH_ONLY' : 'BENCH_IDLE_SECONDS=0';

    console.log(`\n${tableHeader()}`);

    // --- scale first, on a tenant that holds only the seeded cards: list/search/cursor, read and create as it grows ---
    if (db && wanted('scale')) {
      const scenarios = scaleScenarios(http.call, data);
      const sizes = [await countTokens(db, tenantId), ...CONFIG.scaleSizes];
      /** one scale point: its scenarios in BENCH_SCALE_ROUNDS rounds, then the plans of the list and search statements */
      const measurePoint = async (size, again = false) => {
        const tokens = await countTokens(db, tenantId);
        for (let round = 1; round <= CONFIG.scaleRounds; round++) {
          for (const s of round % 2 ? scenarios : [...scenarios].reverse()) {
            await measure({
              group: 'scale',
              scenario: `${s.name} @ ${tokens}${again ? ' (again)' : ''}${CONFIG.scaleRounds > 1 ? ` #${round}` : ''}`,
              clients: CONFIG.scaleClients,
              op: s.op,
              seconds: Math.min(CONFIG.seconds, 3),
              // the size asked for and the scenario: goal 5 pairs the points by them (the creates add to `tokens`)
              extra: {
                tokens,
                scale_size: size,
                scale_scenario: s.name,
                ...(CONFIG.scaleRounds > 1 ? { scale_round: round } : {}),
                ...(again ? { scale_again: true } : {}),
              },
            });
          }
        }
        const point = {
          size,
          tokens: await countTokens(db, tenantId),
          plans: await explainStatements(db, tenantId),
          shared_buffers: (await db.query('SHOW shared_buffers')).rows[0].shared_buffers,
          ...(again ? { again: true } : {}),
        };
        judged.scalePlans.push(point);
        console.log(plansText(point));
      };
      for (const size of sizes) {
        const seeded = await seedTo(db, tenantId, data.cards[0], size);
        if (seeded > 0.05) log(`seeded the tenant to ${await countTokens(db, tenantId)} tokens in ${seeded.toFixed(1)} s`);
        await measurePoint(size);
      }
      // Goal 5 compares points minutes apart, and this machine's speed drifts over minutes by more than the goal's
      // margin: the small point is measured again after the large one, and goal 5 pools its rounds from both sides.
      const again = sizes.includes(SCALE_SMALL) && Math.max(...sizes) > SCALE_SMALL;
      // back to a small tenant: the filler deleted; before the small point again, the table and its indexes rewritten
      // to the size they have without it (VACUUM FULL locks the table: only on the throwaway system, never a shared one)
      await db.query(`DELETE FROM tokens WHERE tenant_id = $1 AND id LIKE 'fill-%'`, [tenantId]);
      await db.query(again && target.kind === 'throwaway' ? 'VACUUM (FULL, ANALYZE) tokens' : 'VACUUM (ANALYZE) tokens');
      if (again) {
        await settle(db);
        log(`the ${SCALE_SMALL}-token point again, after the larger ones (${await countTokens(db, tenantId)} tokens)`);
        await measurePoint(SCALE_SMALL, true);
      }
    }

    // --- baselines and request scenarios, interleaved per client count so each ratio compares like with like ---
    // (plus, unless BENCH_CLIENTS measures them, the goals' rows: the create and read with their baselines at 32
    // clients, the read with the SELECT at 1 client; lib/goals.mjs)
    const base = db ? await pgBaseline(db, tenantId) : null;
    if (base) await base.prime();
    const scenarios = requestScenarios(http.call, data).filter((s) => wanted(s.name));
    for (const pass of clientPasses(CONFIG.clients, CONFIG.goalRows)) {
      const { clients } = pass;
      const these = pass.scenarios ? scenarios.filter((s) => pass.scenarios.includes(s.name)) : scenarios;
      if (pass.goalOnly && !these.length) continue;
      const extra = pass.goalOnly ? { goal_row: true } : undefined;
      const baselineOps = {};
      if (base && pass.baselines.includes('insert'))
        baselineOps.insert = (await measure({ group: 'baseline', scenario: 'pg INSERT (token-shaped row)', clients, op: base.insert, extra })).ops;
      if (base && pass.baselines.includes('select'))
        baselineOps.select = (await measure({ group: 'baseline', scenario: 'pg SELECT by primary key', clients, op: base.select, extra })).ops;
      if (pass.baselines.includes('floor'))
        baselineOps.floor = (await measure({ group: 'baseline', scenario: 'bare Fastify handler', clients, op: () => floorHttp.call('GET', '/floor') })).ops;
      // the topology floor (lib/skeleton.mjs): judged by the goals beside Coffer's rows, no ratio of its own
      if (skeleton && pass.baselines.includes('skeleton-create'))
        await measure({ group: 'baseline', scenario: SKELETON.create, clients, op: skeleton.create, extra });
      // and with the bus message shared by concurrent requests (nothing to share at one client)
      if (skeleton && pass.baselines.includes('skeleton-create') && clients > 1)
        await measure({ group: 'baseline', scenario: SKELETON.createCoalesced, clients, op: skeleton.createCoalesced, extra });
      if (skeleton && pass.baselines.includes('skeleton-read'))
        await measure({ group: 'baseline', scenario: SKELETON.read, clients, op: skeleton.read, extra });
      if (skeleton && pass.baselines.includes('skeleton-read') && clients > 1)
        await measure({ group: 'baseline', scenario: SKELETON.readCoalesced, clients, op: skeleton.readCoalesced, extra });
      for (const s of these) {
        await measure({ group: 'request', scenario: s.name, clients, op: s.op, baseline: s.baseline, baselineOps: baselineOps[s.baseline], extra });
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
    // what the run shared the machine with: a slow disk (iowait) or a neighbour's VM (steal) moves every figure
    const cpuTimeDuringRun = machineShares(machineAtStart, machineTime());
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
        ...(cpuTimeDuringRun ? { cpu_time_during_run: cpuTimeDuringRun } : {}),
      },
      rows,
      ...(tracing ? { tracing: { exports: tracing.sink.requests, exported_bytes: tracing.sink.bytes } } : {}),
      ...(judged.proxy ? { proxy: judged.proxy } : {}),
      ...(judged.idle ? { idle: { ...judged.idle, note: judged.idleNote } } : {}),
      ...(judged.idleProcesses ? { idle_processes: judged.idleProcesses } : {}),
      ...(judged.scalePlans.length ? { scale_plans: judged.scalePlans } : {}),
    };
    printSummary(rows);
    if (cpuTimeDuringRun) console.log(duringRun(cpuTimeDuringRun).replace(/^; t/, 'T'));
    const printGoals = concludeGoals(result, { print: false });
    const dir = path.join(ROOT, 'bench/results');
    fs.mkdirSync(dir, { recursive: true });
    // a run of some scenarios only (BENCH_ONLY) is named -only: it is never the reference of a later run's comparison
    const name = `${stamp}${QUICK ? '-quick' : ''}${CONFIG.only ? '-only' : ''}${tracing ? '-tracing' : ''}`;
    fs.writeFileSync(path.join(dir, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
    fs.writeFileSync(path.join(dir, `${name}.svg`), `${svg(result)}\n`);
    const sections = [markdown(result), goalsMarkdown(result.goals)];
    if (result.idle) sections.push(idleMarkdown(result.idle));
    if (result.idle_processes) sections.push(idleMarkdown(result.idle_processes, 'Idle, a process per service (SERVICES_AS=processes)'));
    if (result.scale_plans) sections.push(plansMarkdown(result.scale_plans));
    if (result.comparison?.file) sections.push(comparisonMarkdown(result.comparison, result.comparison.file, TARGETS.regressionDrop));
    fs.writeFileSync(path.join(dir, `${name}.md`), `${sections.join('\n\n')}\n`);
    console.log(`\nwrote bench/results/${name}.{json,svg,md}`);
    if (args.has('--update-readme')) updateReadme(result, name);
    // last, so they are what a run leaves on the screen
    printGoals();
  } finally {
    await floorHttp.close().catch(() => undefined);
    await floor.stop();
    await skeleton?.stop();
    await http.close().catch(() => undefined);
    await db?.end();
    await target.stop();
    if (tracing) {
      log(`tracing: ${tracing.sink.requests} exports, ${(tracing.sink.bytes / 2 ** 20).toFixed(1)} MiB of spans`);
      await tracing.stop();
    }
    if (cpuProfDir) {
      fs.writeFileSync(path.join(cpuProfDir, 'windows.json'), `${JSON.stringify(windows, null, 2)}\n`);
      log(`CPU profiles in ${path.relative(ROOT, cpuProfDir)}: node tools/bench/profile-summary.mjs ${path.relative(ROOT, cpuProfDir)} --window <scenario>`);
    }
  }
}

/**
 * The topology floor (lib/skeleton.mjs) beside a throwaway system: its nats-server is started with the system's bus
 * secrets, its tables live in the system's database. Resolves {pids, create, read, stop}, or null for a target it
 * cannot stand beside (an operator's system: no bus secrets here).
 */
async function startBenchSkeleton(target, tenantId, db) {
  if (!target.bus || !db) {
    log('topology floor: not measured (it needs a throwaway system and its database)');
    return null;
  }
  const skeleton = await startSkeleton({ bus: target.bus, store: { databaseUrl: target.databaseUrl, tenantId } });
  const http = httpClient(skeleton.url, 64);
  const card = { type: 'card', data: { number: '4242424242424242', expiration_month: 12, expiration_year: 2030 }, metadata: { customer: 'c-1' } };
  return {
    pids: skeleton.pids,
    create: () => http.call('POST', '/tokens', { body: card }),
    read: (_client, seq) => http.call('GET', `/tokens/${skeleton.readId(seq)}`),
    createCoalesced: () => http.call('POST', '/coalesced/tokens', { body: card }),
    readCoalesced: (_client, seq) => http.call('GET', `/coalesced/tokens/${skeleton.readId(seq)}`),
    stop: async () => {
      await http.close().catch(() => undefined);
      await skeleton.stop();
    },
  };
}

/**
 * Goal 3: waits BENCH_IDLE_SETTLE seconds after the system started (before any load: the idle system an operator
 * starts), then samples every process the throwaway system started
 * (services, their children such as the sandbox's worker processes, nats-server; PostgreSQL not) for
 * BENCH_IDLE_SECONDS: RSS and CPU per process. Against BASE_URL: the trees of BENCH_PIDS.
 */
async function measureIdleSystem(target) {
  const roots = target.processPids();
  if (!Object.keys(roots).length) {
    judged.idleWhy = 'no process ids (BASE_URL without BENCH_PIDS)';
    return;
  }
  const { idleSeconds: seconds, idleSettle: settle } = CONFIG;
  // goal 3 is the system `npm start` runs: the services as threads of one service host. The target runs a process per
  // service (its CPU per request is told per service), so a twin started as npm start does is measured beside it.
  const twin = target.startNpmStartTwin ? await target.startNpmStartTwin() : null;
  judged.idleNote =
    `after start (before the load) and ${settle} s of settling, ${seconds} s window` +
    (seconds < 60 ? ` (shorter than the goal's 60 s${QUICK ? ': --quick' : ''})` : '') +
    (target.sweepIntervalMs ? `, expiry sweep every ${target.sweepIntervalMs} ms` : '') +
    (twin ? ", npm start's arrangement: the services as threads of one service host (SERVICES_AS=threads)" : '');
  console.log(`\n== idle: ${judged.idleNote} ==`);
  try {
    await new Promise((r) => setTimeout(r, settle * 1000));
    const [asThreads, asProcesses] = await Promise.all([twin ? measureIdle({ roots: twin.roots, seconds }) : null, measureIdle({ roots, seconds })]);
    judged.idle = twin ? asThreads : asProcesses;
    judged.idleProcesses = twin ? asProcesses : null;
    if (twin && asProcesses)
      judged.idleNote += `; a process per service (as in Kubernetes): ${asProcesses.total.rss_max_mb} MB, ${asProcesses.total.cpu_pct_of_core} % of one core`;
  } finally {
    await twin?.stop();
  }
  if (!judged.idle) judged.idleWhy = 'no /proc here (Linux only)';
  else {
    console.log(idleTable(judged.idle));
    if (judged.idleProcesses) console.log(`\na process per service (SERVICES_AS=processes, as in Kubernetes):\n${idleTable(judged.idleProcesses)}`);
  }
}

/**
 * Judges the goals and compares the ratios with the last committed result of the same kind (or BENCH_COMPARE);
 * adds `goals` and `comparison` to `result`. Prints the goal table and the comparison now, or returns a function
 * that does (`print: false`: the run prints them last, after writing its files).
 */
function concludeGoals(result, { print = true } = {}) {
  const judge = (comparison, comparisonWhy) =>
    judgeGoals({ rows: result.rows, ...judged, comparison, comparisonWhy, scale1m: process.env.BENCH_SCALE_1M === '1' });
  // goal 6 compares the other goals' ratios too: judge them first, then compare, then judge goal 6
  result.goals = judge(null);
  let comparison = null;
  let why;
  if (CONFIG.compare === '0') why = 'BENCH_COMPARE=0';
  else {
    const previous = CONFIG.compare ? loadResult(ROOT, CONFIG.compare) : committedResult(ROOT, QUICK);
    if (previous.result) comparison = { file: previous.file, ...compareResults(previous.result, result, TARGETS.regressionDrop) };
    else why = previous.why;
  }
  result.goals = judge(comparison, why);
  result.comparison = comparison ?? { why };
  const show = () => {
    console.log(`\n${goalsText(result.goals)}`);
    console.log(`\n${comparison ? comparisonText(comparison, comparison.file, TARGETS.regressionDrop) : `== Regression check ==\nnot compared: ${why}`}`);
  };
  if (print) show();
  return show;
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

/** The figures behind the goals at the highest configured client count (the goals themselves: lib/goals.mjs). */
function printSummary(all) {
  const at = (scenario, clients) => all.find((r) => r.group !== 'scale' && r.group !== 'sweep' && r.scenario === scenario && r.clients === clients);
  const max = Math.max(...CONFIG.clients);
  const lines = [];
  const create = at('POST /tokens (card)', max);
  if (create?.ratio !== undefined)
    lines.push(`POST /tokens (card) at ${max} clients: ${create.ops_per_s} req/s = ${create.ratio} × the INSERT ceiling, p99 ${create.p99_ms} ms`);
  const read = at('GET /tokens/{id}', max);
  if (read)
    lines.push(
      `GET /tokens/{id} at ${max} clients: ${read.ops_per_s} req/s, p99 ${read.p99_ms} ms${read.ratio !== undefined ? `, ${read.ratio} × the SELECT ceiling` : ''}`,
    );
  const single = at('GET /tokens/{id}', 1);
  if (single) lines.push(`GET /tokens/{id}, one client: mean ${single.mean_ms} ms`);
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
  // how often a request puts a process to sleep and wakes it (or preempts it), against the floor's same hops
  for (const [what, row, floorRow] of [
    ['read', read, at(SKELETON.read, max)],
    ['create', create, at(SKELETON.create, max)],
  ]) {
    if (!row?.switches_per_op) continue;
    const floorSwitches = floorRow?.switches_per_op ? `; the topology floor's ${totalSwitches(floorRow.switches_per_op).toFixed(2)}` : '';
    lines.push(`context switches per ${what}: ${totalSwitches(row.switches_per_op).toFixed(2)} over every process${floorSwitches}`);
  }
  if (lines.length) console.log(`\n== summary ==\n${lines.join('\n')}`);
  const hops = loneReadHops(all);
  if (hops.length) console.log(`\n== a lone read, hop by hop (mean latency at 1 client) ==\n${hops.join('\n')}`);
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
  () => process.exit(process.exitCode ?? 0),
  (err) => {
    console.error(`bench failed: ${err.stack ?? err}`);
    process.exit(1);
  },
);
