import assert from 'node:assert/strict';
import { test } from 'node:test';
import { INSERT, SELECT, SKELETON, clientPasses, goalsMarkdown, goalsText, judgeGoals, loneReadHops, scalePoint } from './goals.mjs';

const row = (group, scenario, clients, f = {}) => ({ group, scenario, clients, ops_per_s: 1000, mean_ms: 1, p50_ms: 1, p99_ms: 5, errors: 0, ...f });
const base = [
  row('baseline', INSERT, 32, { ops_per_s: 2000 }),
  row('baseline', SELECT, 32, { ops_per_s: 5000 }),
  row('baseline', SELECT, 1, { mean_ms: 0.2 }),
  row('request', 'POST /tokens (card)', 32, { ops_per_s: 2100 }),
  row('request', 'GET /tokens/{id}', 32, { ops_per_s: 2500, p99_ms: 9.5 }),
  row('request', 'GET /tokens/{id}', 1, { mean_ms: 0.5 }),
];
const byId = (goals) => Object.fromEntries(goals.map((g) => [g.id, g]));

test('goals 1 and 2 divide by the INSERT ceiling at 32 clients and pass at ≥ 1.0 (reads also need p99 < 10 ms)', () => {
  const g = byId(judgeGoals({ rows: base }));
  assert.equal(g['1'].ratio, 1.05);
  assert.equal(g['1'].verdict, 'PASS');
  assert.equal(g['2a'].ratio, 1.25);
  assert.equal(g['2a'].verdict, 'PASS');
  assert.match(g['2a'].figure, /SELECT 5,000 req\/s \(reads 0\.5 × SELECT\)/);
  assert.equal(g['2b'].verdict, 'PASS');
  assert.equal(g['2b'].ratio, 2.5); // 0.5 ms against a lone SELECT's 0.2 ms

  const slow = base.map((r) => (r.scenario === 'GET /tokens/{id}' && r.clients === 32 ? { ...r, p99_ms: 10 } : r));
  const s = byId(judgeGoals({ rows: slow }));
  assert.equal(s['2a'].verdict, 'FAIL');
  assert.match(s['2a'].why, /p99 10 ms ≥ 10 ms/);

  const few = base.map((r) => (r.scenario === 'POST /tokens (card)' ? { ...r, ops_per_s: 1999 } : r));
  assert.equal(byId(judgeGoals({ rows: few }))['1'].verdict, 'FAIL');
});

test('the topology floor bounds goals 1, 2a and 2b when its rows were measured, and changes no verdict', () => {
  const withFloor = [
    ...base,
    row('baseline', SKELETON.create, 32, { ops_per_s: 1000 }),
    row('baseline', SKELETON.read, 32, { ops_per_s: 4000 }),
    row('baseline', SKELETON.read, 1, { mean_ms: 0.25 }),
  ];
  const g = byId(judgeGoals({ rows: withFloor }));
  assert.equal(g['1'].floor_ratio, 0.5); // the floor's 1,000 creates/s against the INSERT ceiling's 2,000
  assert.match(g['1'].bound, /1,000 req\/s = 0\.5 × INSERT; Coffer's creates 2\.1 × the floor/);
  assert.equal(g['2a'].floor_ratio, 2);
  assert.match(g['2a'].bound, /Coffer's reads 0\.625 × the floor/);
  assert.equal(g['2b'].floor_mean_ms, 0.25);
  assert.match(g['2b'].bound, /mean 0\.25 ms; Coffer's 2 × it/);
  assert.deepEqual(
    ['1', '2a', '2b'].map((id) => g[id].verdict),
    ['PASS', 'PASS', 'PASS'],
  );
  assert.match(goalsText(Object.values(g)), /bound: the topology floor/);
  assert.equal(g['1'].coalesced_floor_ratio, undefined);
  // with the coalesced floor measured too, the bound says how far sharing bus messages moves it
  const c = byId(judgeGoals({ rows: [...withFloor, row('baseline', SKELETON.createCoalesced, 32, { ops_per_s: 1500 })] }));
  assert.equal(c['1'].coalesced_floor_ratio, 0.75);
  assert.match(c['1'].bound, /shared by concurrent requests the floor is 0\.75 × INSERT/);
  // no floor rows (or a floor that failed): no bound
  const plain = byId(judgeGoals({ rows: [...base, row('baseline', SKELETON.create, 32, { errors: 3 })] }));
  assert.equal(plain['1'].bound, undefined);
  assert.equal(plain['2b'].bound, undefined);
});

test('errors fail a goal whatever its ratio', () => {
  const rows = base.map((r) => (r.scenario === 'POST /tokens (card)' ? { ...r, errors: 3, first_error: 'POST /tokens: 500' } : r));
  const g = byId(judgeGoals({ rows }));
  assert.equal(g['1'].verdict, 'FAIL');
  assert.match(g['1'].why, /3 errors .*500/);
});

test('a lone read at 0.6 ms or more fails', () => {
  const rows = base.map((r) => (r.scenario === 'GET /tokens/{id}' && r.clients === 1 ? { ...r, mean_ms: 0.6 } : r));
  assert.equal(byId(judgeGoals({ rows }))['2b'].verdict, 'FAIL');
});

test('what is missing is "not measured", with the reason', () => {
  const g = byId(judgeGoals({ rows: base.filter((r) => r.clients !== 32), idleWhy: 'BENCH_IDLE_SECONDS=0' }));
  assert.equal(g['1'].verdict, 'not measured');
  assert.match(g['1'].why, /32 clients/);
  assert.equal(g['3a'].why, 'BENCH_IDLE_SECONDS=0');
  assert.equal(g['4a'].why, 'set BENCH_PROXY=1');
  assert.equal(g['5'].verdict, 'not measured');
  assert.equal(g['6'].verdict, 'not measured');
  const noDb = byId(judgeGoals({ rows: base.filter((r) => r.group !== 'baseline') }));
  assert.match(noDb['1'].why, /database/);
});

test('idle: RSS peak ≤ 500 MB and CPU ≤ 1 % of one core', () => {
  const idle = { seconds: 15, total: { processes: 8, rss_mb: 480, rss_max_mb: 490, cpu_ms: 180, cpu_pct_of_core: 1.2 } };
  const g = byId(judgeGoals({ rows: base, idle, idleNote: '15 s window' }));
  assert.equal(g['3a'].verdict, 'PASS');
  assert.equal(g['3a'].ratio, 0.98);
  assert.equal(g['3b'].verdict, 'FAIL');
  assert.equal(g['3b'].ratio, 1.2);
  assert.equal(g['3b'].note, '15 s window');
});

test('proxy: against the bare forwarder at 32 clients, overhead over direct at one client', () => {
  const p = (clients, scenario, f) => ({ destination: 'immediate destination', clients, scenario, ...f });
  const proxy = [
    p(1, 'direct', { p50_ms: 0.4 }),
    p(1, 'proxied', { p50_ms: 0.8, p50_overhead_ms: 0.4 }),
    p(32, 'proxied', { ops_per_s: 900 }),
    p(32, 'bare forwarder', { ops_per_s: 2000 }),
    { ...p(32, 'bare forwarder', { ops_per_s: 1 }), destination: 'destination answering in 20 ms' },
  ];
  const g = byId(judgeGoals({ rows: base, proxy }));
  assert.equal(g['4a'].ratio, 0.45);
  assert.equal(g['4a'].verdict, 'FAIL');
  assert.equal(g['4b'].verdict, 'PASS');
  assert.equal(g['4b'].ratio, 2);
  assert.equal(g['4a'].bound, undefined);

  // with the proxy's topology floor (the bus forwarder), its bound beside each verdict
  const floor = [...proxy, p(32, 'bus forwarder', { ops_per_s: 1000 }), p(1, 'bus forwarder', { p50_ms: 0.7, p50_overhead_ms: 0.3 })];
  const f = byId(judgeGoals({ rows: base, proxy: floor }));
  assert.equal(f['4a'].floor_ratio, 0.5);
  assert.match(f['4a'].bound, /1,000 req\/s = 0\.5 × bare forwarder; Coffer's proxy 0\.9 × the floor/);
  assert.match(f['4b'].bound, /p50 \+0\.3 ms over direct/);
  assert.equal(f['4a'].verdict, 'FAIL');
});

/** The scale scenarios goal 5 judges, spelled out here so that a change to the judge's list shows in these tests. */
const JUDGED = [
  'GET /tokens metadata filter',
  'POST /tokens/search (v1)',
  'GET /v2/tokens metadata, page 1',
  'POST /v2/tokens/search, page 1',
  'GET /tokens/{id}',
  'POST /tokens (card)',
];

test('scale: every judged scenario within 1.2 × its cost at 10,000 tokens, in PostgreSQL CPU and p50', () => {
  const point = (size, f) =>
    JUDGED.map((n) => row('scale', `${n} @ ${size + 17}`, 8, { scale_size: size, scale_scenario: n, p50_ms: 2, cpu_ms_per_op: { postgres: 0.5 }, ...f(n) }));
  const flat = [...base, ...point(10_000, () => ({})), ...point(1_000_000, () => ({ p50_ms: 2.3 }))];
  const scalePlans = [
    { size: 10_000, plans: [{ name: 'page', execution_ms: 0.3 }] },
    { size: 1_000_000, plans: [{ name: 'page', execution_ms: 0.4 }], shared_buffers: '128MB' },
  ];
  const g = byId(judgeGoals({ rows: flat, scale1m: true, scalePlans }));
  assert.equal(g['5'].verdict, 'PASS');
  assert.equal(g['5'].note, "PostgreSQL's shared_buffers: 128MB");
  assert.equal(g['5'].ratio, 1.15);
  assert.equal(g['5'].details.length, 6);
  assert.deepEqual(g['5'].plans, [{ name: 'page', execution_ms: [0.3, 0.4] }]);
  assert.match(goalsText(Object.values(g)), /plan: page: execution 0.3 → 0.4 ms/);

  const steep = [
    ...base,
    ...point(10_000, () => ({})),
    ...point(1_000_000, (n) => (n.startsWith('POST /tokens/search') ? { cpu_ms_per_op: { postgres: 5 } } : {})),
  ];
  const s = byId(judgeGoals({ rows: steep, scale1m: true }));
  assert.equal(s['5'].verdict, 'FAIL');
  assert.equal(s['5'].ratio, 10);
  assert.match(s['5'].figure, /POST \/tokens\/search \(v1\) pg CPU\/req 10 ×/);

  const noLarge = byId(judgeGoals({ rows: [...base, ...point(10_000, () => ({}))] }));
  assert.equal(noLarge['5'].why, 'set BENCH_SCALE_1M=1');
  assert.match(goalsText(Object.values(noLarge)), /not measured \(set BENCH_SCALE_1M=1\)/);
});

test('scale: with several rounds at a point, each figure is the median of its rounds', () => {
  // three rounds per point; one disturbed window (round 2 at 1,000,000: p50 and PostgreSQL's CPU 3 ×) is outvoted
  const rounds = (size, disturbed) =>
    [1, 2, 3].flatMap((round) =>
      JUDGED.map((n) =>
        row('scale', `${n} @ ${size} #${round}`, 8, {
          scale_size: size,
          scale_scenario: n,
          scale_round: round,
          p50_ms: disturbed && round === 2 ? 6 : 2 + round / 100,
          cpu_ms_per_op: { postgres: disturbed && round === 2 ? 1.5 : 0.5 },
        }),
      ),
    );
  const g = byId(judgeGoals({ rows: [...base, ...rounds(10_000, false), ...rounds(1_000_000, true)], scale1m: true }));
  assert.equal(g['5'].verdict, 'PASS');
  assert.equal(g['5'].details[0].rounds, 3);
  assert.deepEqual(g['5'].details[0].p50_ms, [2.02, 2.03]);
  assert.deepEqual(g['5'].details[0].pg_cpu_ms, [0.5, 0.5]);
});

test('scale: the small point measured again after the large one is pooled with its first measurement', () => {
  // the machine slowed down between the points: 1.0 ms before, 1.6 ms at 1,000,000, 2.0 ms after; alone, the first
  // small point would read the drift as 1.6 × growth
  const at = (size, again, rounds) =>
    rounds.flatMap((pg, i) =>
      JUDGED.map((n) =>
        row('scale', `${n} @ ${size}${again ? ' (again)' : ''} #${i + 1}`, 8, {
          scale_size: size,
          scale_scenario: n,
          scale_round: i + 1,
          ...(again ? { scale_again: true } : {}),
          p50_ms: 10 * pg,
          cpu_ms_per_op: { postgres: pg },
        }),
      ),
    );
  const rows = [...base, ...at(10_000, false, [1, 1, 1]), ...at(1_000_000, false, [1.6, 1.6, 1.6]), ...at(10_000, true, [2, 2, 2])];
  const g = byId(judgeGoals({ rows, scale1m: true }));
  assert.equal(g['5'].details[0].rounds, 6);
  assert.deepEqual(g['5'].details[0].pg_cpu_ms, [1.5, 1.6]);
  assert.equal(g['5'].verdict, 'PASS');
  assert.match(g['5'].note, /the 10,000-token point measured before and after the larger ones, its rounds pooled/);
});

test('older results: a scale row names its point in the scenario', () => {
  assert.deepEqual(scalePoint({ scenario: 'POST /tokens/search (v1) @ 10000', tokens: 10000 }), { scenario: 'POST /tokens/search (v1)', size: 10000 });
});

test('goal 6 follows the comparison', () => {
  const clean = byId(judgeGoals({ rows: base, comparison: { file: 'bench/results/x-quick.json', compared: 20, regressions: [] } }));
  assert.equal(clean['6'].verdict, 'PASS');
  const nothing = byId(judgeGoals({ rows: base, comparison: { file: 'x', compared: 0, regressions: [] } }));
  assert.equal(nothing['6'].verdict, 'not measured');
  const fell = byId(judgeGoals({ rows: base, comparison: { file: 'x', compared: 20, regressions: [{ label: 'GET /tokens/{id}, 8 clients (× select)' }] } }));
  assert.equal(fell['6'].verdict, 'FAIL');
  assert.match(fell['6'].figure, /1 of 20 ratios fell > 10 % against x/);
});

test('the printed table has one line per goal with its verdict; the Markdown table too', () => {
  const goals = judgeGoals({ rows: base });
  const text = goalsText(goals);
  for (const g of goals)
    assert.ok(
      text.split('\n').some((l) => l.startsWith(g.id.padEnd(4)) && l.includes(g.verdict)),
      g.id,
    );
  const md = goalsMarkdown(goals);
  assert.equal(md.split('\n').filter((l) => /^\| \d/.test(l)).length, goals.length);
});

test('--quick (8 clients) gains the goal rows at 1 and 32 clients; a full run has them already', () => {
  const quick = clientPasses([8]);
  assert.deepEqual(
    quick.map((p) => [p.clients, Boolean(p.goalOnly)]),
    [
      [1, true],
      [8, false],
      [32, true],
    ],
  );
  assert.deepEqual(quick[2].baselines, ['insert', 'select', 'skeleton-create', 'skeleton-read']);
  assert.ok(quick[0].baselines.includes('skeleton-read'));
  assert.deepEqual(quick[2].scenarios, ['POST /tokens (card)', 'GET /tokens/{id}']);
  assert.equal(clientPasses([1, 8, 32]).filter((p) => p.goalOnly).length, 0);
  assert.equal(clientPasses([8], false).length, 1);
});

test('a lone read hop by hop: each hop is the difference of two 1-client means, and nothing without the rows', () => {
  const rows = [
    row('baseline', 'bare Fastify handler', 1, { mean_ms: 0.2 }),
    row('request', 'GET /healthz (gateway)', 1, { mean_ms: 0.3 }),
    row('request', 'GET /ping (gateway, authenticated)', 1, { mean_ms: 0.45 }),
    row('request', 'GET /tokens/{id}', 1, { mean_ms: 1.5 }),
    row('baseline', INSERT, 1, { mean_ms: 0.4 }),
    row('request', 'GET /tokens/{id}', 32, { mean_ms: 9 }),
  ];
  const lines = loneReadHops(rows).join('\n');
  assert.match(lines, /\(\/healthz − floor\)\s+0\.100 ms/);
  assert.match(lines, /\(\/ping − \/healthz\)\s+0\.150 ms/);
  assert.match(lines, /PostgreSQL\s+1\.050 ms/);
  assert.match(lines, /audited write at least\s+0\.400 ms/);
  assert.match(lines, /a lone read in all\s+1\.500 ms/);
  assert.deepEqual(loneReadHops(rows.slice(1)), []);
  const floor = loneReadHops([...rows, row('baseline', SKELETON.read, 1, { mean_ms: 1.2 })]).join('\n');
  assert.match(floor, /nothing of Coffer\s+1\.200 ms/);
  assert.match(floor, /the bus hop and the store\s+1\.000 ms/);
  assert.match(floor, /Coffer's own work on top of it\s+0\.300 ms/);
});
