// The goals of issue 35, judged from one run's figures: each goal a line with the measured figure, a ratio measured
// in the same run (to an in-run baseline where there is one, else to the target), the target and a verdict —
// PASS, FAIL or "not measured" with the reason. Pure: run.mjs hands in the rows, the idle figures, the proxy bench's
// rows and the comparison with the last committed result (compare.mjs). docs/benchmarks.md, "Goals".

export const TARGETS = {
  createPerInsert: 1.0, // creates ≥ 1.0 × the INSERT ceiling at 32 clients
  readPerInsert: 1.0, // audited reads ≥ 1.0 × the same INSERT ceiling at 32 clients …
  readP99Ms: 10, // … with p99 < 10 ms
  loneReadMeanMs: 0.6, // a lone read: mean < 0.6 ms at 1 client
  idleRssMb: 500, // the whole system idle: ≤ 500 MB RSS (MB = 10^6 bytes) …
  idleCpuPctOfCore: 1, // … and ≤ 1 % of one core
  proxyPerForwarder: 0.5, // proxy ≥ 0.5 × a bare forwarder at 32 clients, immediate destination …
  proxyOverheadP50Ms: 0.5, // … and ≤ 0.5 ms p50 over direct at one client
  scaleCostRatio: 1.2, // at 1,000,000 tokens within 1.2 × the cost at 10,000 (PostgreSQL CPU per request and p50)
  regressionDrop: 0.1, // no ratio fell more than 10 % against the last committed result
};

/** Client counts the goals read their rows at, and the rows each needs there (baselines by their key). */
export const GOAL_CLIENTS = 32;
export const LONE_CLIENTS = 1;
export const GOAL_PASSES = [
  // the lone read and its hops: HTTP floor, the gateway alone (/healthz), with authentication (/ping), the read
  {
    clients: LONE_CLIENTS,
    baselines: ['insert', 'select', 'floor', 'skeleton-read'],
    scenarios: ['GET /healthz (gateway)', 'GET /ping (gateway, authenticated)', 'GET /tokens/{id}'],
  },
  {
    clients: GOAL_CLIENTS,
    baselines: ['insert', 'select', 'skeleton-create', 'skeleton-read'],
    scenarios: ['POST /tokens (card)', 'GET /tokens/{id}'],
  },
];

/**
 * The passes of the request section, by client count in ascending order: the configured counts with every baseline
 * and scenario (`scenarios: null`), plus, when `goalRows`, the goals' rows at 1 and 32 clients that the configured
 * counts do not measure (e.g. --quick's 8 clients).
 */
export function clientPasses(clients, goalRows = true) {
  const passes = clients.map((c) => ({ clients: c, baselines: ['insert', 'select', 'floor', 'skeleton-create', 'skeleton-read'], scenarios: null }));
  if (goalRows) for (const p of GOAL_PASSES) if (!clients.includes(p.clients)) passes.push({ ...p, goalOnly: true });
  return passes.sort((a, b) => a.clients - b.clients);
}

/** The scale scenarios goal 5 judges (the cursor pages are measured, not judged). */
export const SCALE_JUDGED = [
  'GET /tokens metadata filter',
  'POST /tokens/search (v1)',
  'GET /v2/tokens metadata, page 1',
  'POST /v2/tokens/search, page 1',
  'GET /tokens/{id}',
  'POST /tokens (card)',
];
export const SCALE_SMALL = 10_000;
export const SCALE_LARGE = 1_000_000;

export const INSERT = 'pg INSERT (token-shaped row)';
export const SELECT = 'pg SELECT by primary key';
/**
 * The topology floor's rows (lib/skeleton.mjs): Coffer's hops with nothing of Coffer, one NATS request per API request
 * or (`…Coalesced`) one shared by the API requests of an event-loop iteration.
 */
export const SKELETON = Object.freeze({
  create: 'skeleton create (HTTP, NATS, INSERT)',
  read: 'skeleton read (HTTP, NATS, SELECT+audit)',
  createCoalesced: 'skeleton create, coalesced bus',
  readCoalesced: 'skeleton read, coalesced bus',
});

const r3 = (x) => +x.toFixed(3);
const r3OrNull = (x) => (typeof x === 'number' && Number.isFinite(x) ? r3(x) : null);
const n0 = (x) => Math.round(x).toLocaleString('en-US');

/**
 * What the topology floor (lib/skeleton.mjs: Coffer's hops, nothing of Coffer) reached in the same run: the most any
 * design with these hops could show on this machine, and how much of it Coffer reaches. {} without the row.
 */
function throughputBound(skeleton, coffer, insert, what, coalesced) {
  if (!skeleton?.ops_per_s || skeleton.errors) return {};
  const shared = coalesced?.ops_per_s && !coalesced.errors;
  return {
    bound:
      `the topology floor (HTTP, NATS, one group-committing store, PostgreSQL; nothing of Coffer) ${n0(skeleton.ops_per_s)} req/s = ` +
      `${r3(skeleton.ops_per_s / insert.ops_per_s)} × INSERT; Coffer's ${what} ${r3(coffer.ops_per_s / skeleton.ops_per_s)} × the floor` +
      (shared ? `; with one NATS message shared by concurrent requests the floor is ${r3(coalesced.ops_per_s / insert.ops_per_s)} × INSERT` : ''),
    floor_ratio: r3(skeleton.ops_per_s / insert.ops_per_s),
    ...(shared ? { coalesced_floor_ratio: r3(coalesced.ops_per_s / insert.ops_per_s) } : {}),
  };
}

/** Goal 4a's bound: the proxy bench's bus forwarder (Coffer's proxy hops, nothing of Coffer) against the bare one. */
function proxyThroughputBound(floor, proxied, forwarder) {
  if (!floor?.ops_per_s) return {};
  return {
    bound:
      `the proxy's topology floor (edge, NATS, forwarder; nothing of Coffer) ${n0(floor.ops_per_s)} req/s = ` +
      `${r3(floor.ops_per_s / forwarder.ops_per_s)} × bare forwarder; Coffer's proxy ${r3(proxied.ops_per_s / floor.ops_per_s)} × the floor`,
    floor_ratio: r3(floor.ops_per_s / forwarder.ops_per_s),
  };
}

function latencyBound(skeleton, coffer) {
  if (!skeleton?.mean_ms || skeleton.errors) return {};
  return {
    bound: `the topology floor's lone read (HTTP, NATS, one statement) mean ${skeleton.mean_ms} ms; Coffer's ${r3(coffer.mean_ms / skeleton.mean_ms)} × it`,
    floor_mean_ms: skeleton.mean_ms,
  };
}

function notMeasured(base, why) {
  return { ...base, figure: '–', ratio: null, verdict: 'not measured', why };
}

const median = (xs) => {
  const v = xs.filter((x) => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return undefined;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
};

/**
 * One scale point's rows (one per round) as one: the median of its rounds' p50 and PostgreSQL CPU per request, so one
 * window disturbed by the machine does not decide the verdict; errors are summed (any error fails the goal).
 */
function medianRow(rows) {
  if (rows.length <= 1) return rows[0] && { ...rows[0], rounds: 1 };
  const postgres = median(rows.map((r) => r.cpu_ms_per_op?.postgres));
  return {
    ...rows[0],
    rounds: rows.length,
    p50_ms: median(rows.map((r) => r.p50_ms)),
    cpu_ms_per_op: { ...rows[0].cpu_ms_per_op, postgres },
    errors: rows.reduce((n, r) => n + (r.errors ?? 0), 0),
  };
}

/** A scale row's scenario and requested size (older results: parsed from "<scenario> @ <tokens>"). */
export function scalePoint(row) {
  const m = /^(.*) @ (\d+)$/.exec(row.scenario);
  return { scenario: row.scale_scenario ?? m?.[1] ?? row.scenario, size: row.scale_size ?? (m ? Number(m[2]) : row.tokens) };
}

/**
 * The goal lines. `rows`: the run's rows; `idle`: lib/idle.mjs's figures (or null, with `idleWhy`); `proxy`: the
 * proxy bench's rows (or null, with `proxyWhy`); `comparison`: compare.mjs's result (or null, with `comparisonWhy`);
 * `scalePlans`: plans.mjs's EXPLAIN figures per scale point; `scale1m`, `hasDatabase`, `idleNote` shape the reasons
 * and notes.
 */
export function judgeGoals({
  rows = [],
  idle = null,
  idleWhy = 'not run',
  idleNote = '',
  proxy = null,
  proxyWhy = 'set BENCH_PROXY=1',
  comparison = null,
  comparisonWhy = 'no committed result to compare with',
  scale1m = false,
  hasDatabase = true,
  scalePlans = [],
}) {
  const T = TARGETS;
  const row = (group, scenario, clients) => rows.find((r) => r.group === group && r.scenario === scenario && r.clients === clients);
  const goals = [];
  const errorsWhy = (...rs) =>
    rs
      .filter((r) => r?.errors)
      .map((r) => `${r.errors} errors in ${r.scenario} (first: ${r.first_error ?? '?'})`)
      .join('; ');
  const noDb = 'needs the database for the INSERT baseline (BENCH_DATABASE_URL)';

  // 1 — creates against the INSERT ceiling at 32 clients
  {
    const base = {
      id: '1',
      goal: `creates (POST /tokens card), ${GOAL_CLIENTS} clients`,
      target: `≥ ${T.createPerInsert.toFixed(1)} × INSERT`,
      better: 'higher',
    };
    const create = row('request', 'POST /tokens (card)', GOAL_CLIENTS);
    const ins = row('baseline', INSERT, GOAL_CLIENTS);
    if (!create) goals.push(notMeasured(base, `no POST /tokens (card) row at ${GOAL_CLIENTS} clients (BENCH_CLIENTS, BENCH_ONLY, BENCH_GOAL_ROWS)`));
    else if (!ins?.ops_per_s) goals.push(notMeasured(base, noDb));
    else {
      const raw = create.ops_per_s / ins.ops_per_s;
      const ratio = r3(raw);
      const errors = errorsWhy(create);
      goals.push({
        ...base,
        figure: `${n0(create.ops_per_s)} req/s (p99 ${create.p99_ms} ms); INSERT ${n0(ins.ops_per_s)} req/s`,
        ratio,
        ratio_of: 'INSERT',
        verdict: raw >= T.createPerInsert && !errors ? 'PASS' : 'FAIL',
        ...(errors ? { why: errors } : {}),
        ...throughputBound(row('baseline', SKELETON.create, GOAL_CLIENTS), create, ins, 'creates', row('baseline', SKELETON.createCoalesced, GOAL_CLIENTS)),
      });
    }
  }

  // 2a — audited reads against the same INSERT ceiling, p99 < 10 ms, the SELECT ceiling beside it
  {
    const base = {
      id: '2a',
      goal: `audited reads (GET /tokens/{id}, random ids), ${GOAL_CLIENTS} clients`,
      target: `≥ ${T.readPerInsert.toFixed(1)} × INSERT, p99 < ${T.readP99Ms} ms`,
      better: 'higher',
    };
    const read = row('request', 'GET /tokens/{id}', GOAL_CLIENTS);
    const ins = row('baseline', INSERT, GOAL_CLIENTS);
    const sel = row('baseline', SELECT, GOAL_CLIENTS);
    if (!read) goals.push(notMeasured(base, `no GET /tokens/{id} row at ${GOAL_CLIENTS} clients (BENCH_CLIENTS, BENCH_ONLY, BENCH_GOAL_ROWS)`));
    else if (!ins?.ops_per_s) goals.push(notMeasured(base, noDb));
    else {
      const raw = read.ops_per_s / ins.ops_per_s;
      const ratio = r3(raw);
      const fails = [];
      if (raw < T.readPerInsert) fails.push(`${ratio} × INSERT < ${T.readPerInsert}`);
      if (!(read.p99_ms < T.readP99Ms)) fails.push(`p99 ${read.p99_ms} ms ≥ ${T.readP99Ms} ms`);
      const errors = errorsWhy(read);
      if (errors) fails.push(errors);
      goals.push({
        ...base,
        figure:
          `${n0(read.ops_per_s)} req/s, p99 ${read.p99_ms} ms; INSERT ${n0(ins.ops_per_s)} req/s` +
          (sel?.ops_per_s ? `, SELECT ${n0(sel.ops_per_s)} req/s (reads ${r3(read.ops_per_s / sel.ops_per_s)} × SELECT)` : ''),
        ratio,
        ratio_of: 'INSERT',
        verdict: fails.length ? 'FAIL' : 'PASS',
        ...(fails.length ? { why: fails.join('; ') } : {}),
        ...throughputBound(row('baseline', SKELETON.read, GOAL_CLIENTS), read, ins, 'reads', row('baseline', SKELETON.readCoalesced, GOAL_CLIENTS)),
      });
    }
  }

  // 2b — a lone read's mean latency (ratio: to a lone SELECT's mean, lower is better)
  {
    const base = { id: '2b', goal: `a lone read (GET /tokens/{id}), ${LONE_CLIENTS} client`, target: `mean < ${T.loneReadMeanMs} ms`, better: 'lower' };
    const read = row('request', 'GET /tokens/{id}', LONE_CLIENTS);
    const sel = row('baseline', SELECT, LONE_CLIENTS);
    if (!read) goals.push(notMeasured(base, `no GET /tokens/{id} row at ${LONE_CLIENTS} client (BENCH_CLIENTS, BENCH_ONLY, BENCH_GOAL_ROWS)`));
    else {
      const errors = errorsWhy(read);
      goals.push({
        ...base,
        figure: `mean ${read.mean_ms} ms, p50 ${read.p50_ms} ms${sel ? `; SELECT mean ${sel.mean_ms} ms` : ''}`,
        ratio: sel?.mean_ms ? r3(read.mean_ms / sel.mean_ms) : null,
        ratio_of: 'SELECT mean latency',
        verdict: read.mean_ms < T.loneReadMeanMs && !errors ? 'PASS' : 'FAIL',
        ...(errors ? { why: errors } : {}),
        ...latencyBound(row('baseline', SKELETON.read, LONE_CLIENTS), read),
      });
    }
  }

  // 3 — idle: RSS and CPU of the whole system (PostgreSQL excluded); ratios to the targets
  {
    const rssBase = { id: '3a', goal: 'idle RSS, whole system (PostgreSQL excluded)', target: `≤ ${T.idleRssMb} MB`, better: 'lower' };
    const cpuBase = { id: '3b', goal: 'idle CPU, whole system (PostgreSQL excluded)', target: `≤ ${T.idleCpuPctOfCore} % of one core`, better: 'lower' };
    if (!idle) {
      goals.push(notMeasured(rssBase, idleWhy), notMeasured(cpuBase, idleWhy));
    } else {
      const t = idle.total;
      const rss = t.rss_max_mb;
      goals.push({
        ...rssBase,
        figure: `${rss} MB peak over ${t.processes} processes (${t.rss_mb} MB at the end${t.pss_mb !== undefined ? `, PSS ${t.pss_mb} MB` : ''})`,
        ratio: r3(rss / T.idleRssMb),
        ratio_of: 'target',
        verdict: rss <= T.idleRssMb ? 'PASS' : 'FAIL',
        ...(idleNote ? { note: idleNote } : {}),
      });
      goals.push({
        ...cpuBase,
        figure: `${t.cpu_pct_of_core} % of one core (${t.cpu_ms} ms CPU in ${idle.seconds} s)`,
        ratio: r3(t.cpu_pct_of_core / T.idleCpuPctOfCore),
        ratio_of: 'target',
        verdict: t.cpu_pct_of_core <= T.idleCpuPctOfCore ? 'PASS' : 'FAIL',
        ...(idleNote ? { note: idleNote } : {}),
      });
    }
  }

  // 4 — the proxy against a bare forwarder (tools/bench/proxy.mjs's rows)
  {
    const thrBase = {
      id: '4a',
      goal: `proxy throughput, ${GOAL_CLIENTS} clients, immediate destination`,
      target: `≥ ${T.proxyPerForwarder} × bare forwarder`,
      better: 'higher',
    };
    const ovhBase = {
      id: '4b',
      goal: 'proxy overhead, 1 client, immediate destination',
      target: `p50 ≤ +${T.proxyOverheadP50Ms} ms over direct`,
      better: 'lower',
    };
    const pick = (clients, scenario) => proxy?.find((r) => r.destination === 'immediate destination' && r.clients === clients && r.scenario === scenario);
    if (!proxy) goals.push(notMeasured(thrBase, proxyWhy), notMeasured(ovhBase, proxyWhy));
    else {
      const proxied = pick(GOAL_CLIENTS, 'proxied');
      const forwarder = pick(GOAL_CLIENTS, 'bare forwarder');
      if (!proxied || !forwarder?.ops_per_s) goals.push(notMeasured(thrBase, `the proxy bench has no ${GOAL_CLIENTS}-client rows`));
      else {
        const raw = proxied.ops_per_s / forwarder.ops_per_s;
        const ratio = r3(raw);
        goals.push({
          ...thrBase,
          figure: `${n0(proxied.ops_per_s)} req/s; bare forwarder ${n0(forwarder.ops_per_s)} req/s`,
          ratio,
          ratio_of: 'bare forwarder',
          verdict: raw >= T.proxyPerForwarder ? 'PASS' : 'FAIL',
          ...proxyThroughputBound(pick(GOAL_CLIENTS, 'bus forwarder'), proxied, forwarder),
        });
      }
      const one = pick(1, 'proxied');
      const direct = pick(1, 'direct');
      if (!one || !direct) goals.push(notMeasured(ovhBase, 'the proxy bench has no 1-client rows'));
      else
        goals.push({
          ...ovhBase,
          figure: `p50 +${one.p50_overhead_ms} ms (proxied ${one.p50_ms} ms, direct ${direct.p50_ms} ms)`,
          ratio: direct.p50_ms ? r3(one.p50_ms / direct.p50_ms) : null,
          ratio_of: 'direct p50',
          verdict: one.p50_overhead_ms <= T.proxyOverheadP50Ms ? 'PASS' : 'FAIL',
          ...(pick(1, 'bus forwarder')
            ? {
                bound: `the proxy's topology floor (edge, NATS, forwarder; nothing of Coffer): p50 +${pick(1, 'bus forwarder').p50_overhead_ms} ms over direct`,
              }
            : {}),
        });
    }
  }

  // 5 — flat at scale: PostgreSQL CPU per request and p50 at 1,000,000 tokens against 10,000
  {
    const base = {
      id: '5',
      goal: 'flat at scale: 1,000,000 vs 10,000 tokens',
      target: `≤ ${T.scaleCostRatio} × (pg CPU/req and p50)`,
      better: 'lower',
    };
    const scale = rows.filter((r) => r.group === 'scale').map((r) => ({ row: r, ...scalePoint(r) }));
    // a point measured in several rounds (BENCH_SCALE_ROUNDS) is judged on each figure's median over its rounds
    const at = (scenario, size) => medianRow(scale.filter((s) => s.scenario === scenario && s.size === size).map((s) => s.row));
    if (!hasDatabase) goals.push(notMeasured(base, 'needs the database (BENCH_DATABASE_URL) to seed the tenant'));
    else if (!scale.some((s) => s.size === SCALE_SMALL)) goals.push(notMeasured(base, `no ${n0(SCALE_SMALL)}-token point (BENCH_SCALE_SIZES, BENCH_ONLY)`));
    else if (!scale.some((s) => s.size === SCALE_LARGE))
      goals.push(notMeasured(base, scale1m ? 'the 1,000,000-token point did not run' : 'set BENCH_SCALE_1M=1'));
    else {
      const details = [];
      const fails = [];
      let worst = null;
      for (const scenario of SCALE_JUDGED) {
        const small = at(scenario, SCALE_SMALL);
        const large = at(scenario, SCALE_LARGE);
        if (!small || !large) {
          details.push({ scenario, note: 'not measured at both points' });
          fails.push(`${scenario}: not measured at both points`);
          continue;
        }
        const pgSmall = small.cpu_ms_per_op?.postgres;
        const pgLarge = large.cpu_ms_per_op?.postgres;
        // the verdict on the unrounded ratios, the figures rounded
        const cpu = pgSmall && pgLarge !== undefined && pgLarge !== null ? pgLarge / pgSmall : null;
        const p50 = small.p50_ms ? large.p50_ms / small.p50_ms : null;
        details.push({
          scenario,
          ...(small.rounds > 1 || large.rounds > 1 ? { rounds: Math.max(small.rounds, large.rounds) } : {}),
          // the median of an even number of rounds is a mean of two: rounded like the rows' own figures
          pg_cpu_ms: [pgSmall, pgLarge].map(r3OrNull),
          p50_ms: [small.p50_ms, large.p50_ms].map(r3OrNull),
          pg_cpu_ratio: cpu === null ? null : r3(cpu),
          p50_ratio: p50 === null ? null : r3(p50),
        });
        for (const [metric, v] of [
          ['pg CPU/req', cpu],
          ['p50', p50],
        ]) {
          if (v === null) continue;
          if (!worst || v > worst.raw) worst = { scenario, metric, raw: v, ratio: r3(v) };
          if (v > T.scaleCostRatio) fails.push(`${scenario} ${metric} ${r3(v)} ×`);
        }
        if (large.errors || small.errors) fails.push(errorsWhy(small, large));
      }
      const noCpu = details.some((d) => d.pg_cpu_ratio === null && !d.note);
      // a million tokens outgrow a small buffer cache: the setting the run had says which machine the figures are of
      const sharedBuffers = scalePlans.find((p) => p.size === SCALE_LARGE)?.shared_buffers;
      const measuredAgain = scale.some((s) => s.size === SCALE_SMALL && s.row.scale_again);
      const notes = [
        ...(measuredAgain
          ? [`the ${n0(SCALE_SMALL)}-token point measured before and after the larger ones, its rounds pooled (the machine's drift between points cancels)`]
          : []),
        ...(noCpu ? ["PostgreSQL's CPU not measured (PostgreSQL not on this machine): p50 only"] : []),
        ...(sharedBuffers ? [`PostgreSQL's shared_buffers: ${sharedBuffers}`] : []),
      ];
      // the list and search statements' execution times in their plans at both points (the plans: printed at each point)
      const planAt = (size) => scalePlans.find((p) => p.size === size)?.plans ?? [];
      const plans = planAt(SCALE_SMALL).map((p) => ({
        name: p.name,
        execution_ms: [p.execution_ms ?? null, planAt(SCALE_LARGE).find((q) => q.name === p.name)?.execution_ms ?? null],
      }));
      goals.push({
        ...base,
        figure: worst ? `worst: ${worst.scenario} ${worst.metric} ${worst.ratio} ×` : 'no comparable figures',
        ratio: worst?.ratio ?? null,
        ratio_of: `${n0(SCALE_SMALL)} tokens`,
        verdict: worst && !fails.length ? 'PASS' : 'FAIL',
        ...(fails.length ? { why: fails.join('; ') } : {}),
        ...(notes.length ? { note: notes.join('; ') } : {}),
        details,
        ...(plans.length ? { plans } : {}),
      });
    }
  }

  // 6 — no silent regression against the last committed result
  {
    const base = {
      id: '6',
      goal: 'no silent regression against the last committed result',
      target: `no ratio fell > ${T.regressionDrop * 100} %`,
      better: 'higher',
    };
    if (!comparison) goals.push(notMeasured(base, comparisonWhy));
    else if (!comparison.compared) goals.push(notMeasured(base, `no ratio of this run is in ${comparison.file}`));
    else {
      const n = comparison.regressions.length;
      goals.push({
        ...base,
        figure: `${n} of ${comparison.compared} ratios fell > ${T.regressionDrop * 100} % against ${comparison.file}`,
        ratio: null,
        verdict: n ? 'FAIL' : 'PASS',
        ...(n ? { why: 'listed in the regression check below' } : {}),
      });
    }
  }
  return goals;
}

const fmtRatio = (g) => (g.ratio === null || g.ratio === undefined ? '–' : `${g.ratio.toFixed(3)} × ${g.ratio_of}`);
const verdictText = (g) => (g.verdict === 'not measured' ? `not measured (${g.why})` : g.verdict);

/** The terminal section: one line per goal (measured, ratio, target, verdict), the reasons of failures below. */
export function goalsText(goals) {
  const lines = ['== Goals (issue 35) =='];
  lines.push(`${'goal'.padEnd(4)} ${'what'.padEnd(58)} ${'ratio'.padEnd(24)} ${'target'.padEnd(34)} verdict`);
  for (const g of goals) {
    lines.push(`${g.id.padEnd(4)} ${g.goal.slice(0, 58).padEnd(58)} ${fmtRatio(g).padEnd(24)} ${g.target.padEnd(34)} ${verdictText(g)}`);
    if (g.figure !== '–') lines.push(`       measured: ${g.figure}`);
    if (g.verdict === 'FAIL' && g.why) lines.push(`       why: ${g.why}`);
    if (g.bound) lines.push(`       bound: ${g.bound}`);
    if (g.note) lines.push(`       note: ${g.note}`);
    for (const d of g.details ?? [])
      lines.push(
        d.note
          ? `       ${d.scenario}: ${d.note}`
          : `       ${d.scenario.padEnd(34)} pg CPU/req ${d.pg_cpu_ms.map((x) => x ?? '–').join(' → ')} ms (${d.pg_cpu_ratio ?? '–'} ×), p50 ${d.p50_ms.join(' → ')} ms (${d.p50_ratio ?? '–'} ×)`,
      );
    for (const p of g.plans ?? []) lines.push(`       plan: ${p.name}: execution ${p.execution_ms.map((x) => x ?? '–').join(' → ')} ms`);
  }
  return lines.join('\n');
}

const md = (s) => String(s).replace(/\|/g, '\\|');

/** The same as a Markdown table, for the .md result file. */
export function goalsMarkdown(goals) {
  const lines = ['## Goals (issue 35)', '', '| goal | what | measured | ratio | target | verdict |', '|---|---|---|---:|---|---|'];
  for (const g of goals) {
    const extra = [g.verdict === 'FAIL' && g.why ? `why: ${g.why}` : '', g.bound ? `bound: ${g.bound}` : '', g.note ? `note: ${g.note}` : '']
      .filter(Boolean)
      .join('; ');
    lines.push(`| ${g.id} | ${md(g.goal)} | ${md(g.figure)}${extra ? ` (${md(extra)})` : ''} | ${md(fmtRatio(g))} | ${md(g.target)} | ${md(verdictText(g))} |`);
  }
  return lines.join('\n');
}

/**
 * Where a lone read's time goes, hop by hop, from the 1-client rows (mean latency): the HTTP floor (a bare Fastify
 * handler), the gateway's own request handling (/healthz minus the floor), authentication from the principal cache
 * (/ping minus /healthz), and the rest of the read: the bus both ways, token-service and its one statement, whose
 * PostgreSQL part alone is an audited write (the INSERT baseline's mean). Lines of text, or [] without the rows.
 */
export function loneReadHops(rows) {
  const at = (scenario) => rows.find((r) => r.clients === LONE_CLIENTS && r.scenario === scenario && r.group !== 'scale' && r.group !== 'sweep');
  const [floor, health, ping, read, insert, select] = [
    'bare Fastify handler',
    'GET /healthz (gateway)',
    'GET /ping (gateway, authenticated)',
    'GET /tokens/{id}',
    INSERT,
    SELECT,
  ].map(at);
  if (!floor || !health || !ping || !read) return [];
  const ms = (x) => `${x.toFixed(3)} ms`;
  const lines = [
    `HTTP floor (bare Fastify, its own process)       ${ms(floor.mean_ms)}`,
    `gateway request handling (/healthz − floor)      ${ms(health.mean_ms - floor.mean_ms)}`,
    `authentication, cached (/ping − /healthz)        ${ms(ping.mean_ms - health.mean_ms)}`,
    `bus both ways + token-service + PostgreSQL       ${ms(read.mean_ms - ping.mean_ms)}  (read − /ping)`,
  ];
  if (insert) lines.push(`  of which PostgreSQL's audited write at least  ${ms(insert.mean_ms)}  (pg INSERT alone, one client)`);
  if (select) lines.push(`  a SELECT alone, for comparison                ${ms(select.mean_ms)}`);
  lines.push(`a lone read in all                               ${ms(read.mean_ms)}`);
  const skeleton = at(SKELETON.read);
  if (skeleton)
    lines.push(
      `the same hops with nothing of Coffer            ${ms(skeleton.mean_ms)}  (the topology floor: bare Fastify, NATS, one statement)`,
      `  HTTP floor to it: the bus hop and the store   ${ms(skeleton.mean_ms - floor.mean_ms)}`,
      `  Coffer's own work on top of it                ${ms(read.mean_ms - skeleton.mean_ms)}`,
    );
  return lines;
}
