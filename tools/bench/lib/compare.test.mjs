import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareResults, comparisonMarkdown, comparisonText, machineDrift, pickCommittedResult, ratiosOf } from './compare.mjs';

const row = (scenario, clients, ratio, baseline = 'select') => ({ group: 'request', scenario, clients, ratio, baseline });
const previous = {
  rows: [
    row('GET /tokens/{id}', 8, 0.2),
    row('POST /tokens (card)', 8, 0.5, 'insert'),
    row('GET /healthz (gateway)', 8, 1.0, 'floor'),
    { group: 'baseline', scenario: 'pg SELECT', clients: 8 },
  ],
  goals: [
    { id: '3a', goal: 'idle RSS', ratio: 0.8, ratio_of: 'target', better: 'lower' },
    { id: '1', goal: 'creates', ratio: 0.3, ratio_of: 'INSERT', better: 'higher' },
    { id: '6', goal: 'no regression', ratio: null },
  ],
};

test('only ratios are compared: rows with a baseline and goals with a numeric ratio', () => {
  const r = ratiosOf(previous);
  assert.equal(r.size, 5);
  assert.equal(r.get('goal|3a').better, 'lower');
});

test('a ratio that fell more than 10 % is reported, one that fell 10 % or less is not', () => {
  const current = {
    rows: [
      row('GET /tokens/{id}', 8, 0.179),
      row('POST /tokens (card)', 8, 0.451, 'insert'),
      row('GET /healthz (gateway)', 8, 1.5, 'floor'),
      row('GET /tokens/{id}', 32, 0.1),
    ],
    goals: [
      { id: '3a', goal: 'idle RSS', ratio: 0.8, ratio_of: 'target', better: 'lower' },
      { id: '1', goal: 'creates', ratio: 0.3, ratio_of: 'INSERT', better: 'higher' },
    ],
  };
  const cmp = compareResults(previous, current);
  assert.equal(cmp.compared, 5);
  assert.deepEqual(
    cmp.regressions.map((r) => [r.key, r.change_pct]),
    [['row|request|GET /tokens/{id}|8', -10.5]],
  );
  assert.equal(cmp.only_now, 1); // the 32-client row
  assert.equal(cmp.only_before, 0);
});

test('lower-is-better ratios regress when they rise past before ÷ 0.9', () => {
  const current = { rows: [], goals: [{ id: '3a', goal: 'idle RSS', ratio: 0.9, ratio_of: 'target', better: 'lower' }] };
  assert.equal(compareResults(previous, current).regressions.length, 1);
  const within = { rows: [], goals: [{ id: '3a', goal: 'idle RSS', ratio: 0.888, ratio_of: 'target', better: 'lower' }] };
  assert.equal(compareResults(previous, within).regressions.length, 0);
  const better = { rows: [], goals: [{ id: '3a', goal: 'idle RSS', ratio: 0.5, ratio_of: 'target', better: 'lower' }] };
  assert.equal(compareResults(previous, better).regressions.length, 0);
});

test("a row's ratio is recomputed from the throughputs when its baseline's row is there (rows round it to 3 decimals)", () => {
  const result = (ops) => ({
    rows: [
      { group: 'baseline', scenario: 'pg INSERT (token-shaped row)', clients: 8, ops_per_s: 2000 },
      { group: 'request', scenario: 'POST /tokenize (10 values)', clients: 8, ops_per_s: ops, ratio: +(ops / 2000).toFixed(3), baseline: 'insert' },
    ],
  });
  // 40 → 36 req/s against the same INSERT: exactly 10 % down, not more (the rounded ratios 0.02 → 0.018 would say more)
  assert.equal(compareResults(result(40), result(36)).regressions.length, 0);
  assert.equal(compareResults(result(40), result(35)).regressions.length, 1);
});

test('the printout says so either way, naming the file', () => {
  const same = compareResults(previous, previous);
  assert.match(comparisonText(same, 'bench/results/a-quick.json'), /no ratio fell more than 10 % against bench\/results\/a-quick\.json/);
  assert.match(comparisonText(compareResults(previous, { rows: [] }), 'f.json'), /nothing compared: no ratio of this run is in f\.json/);
  const worse = compareResults(previous, { rows: [row('GET /tokens/{id}', 8, 0.1)] });
  const text = comparisonText(worse, 'f.json');
  assert.match(text, /!! 1 ratio fell more than 10 % against f\.json/);
  assert.match(text, /GET \/tokens\/\{id\}, 8 clients \(× select\): 0\.2 → 0\.1 \(-50 %\)/);
  assert.match(comparisonMarkdown(worse, 'f.json'), /\| GET \/tokens\/\{id\}, 8 clients \(× select\) \| 0\.2 \| 0\.1 \| -50 % \|/);
});

test('the newest committed result of the same kind: quick with quick, full with full, no kek files', () => {
  const paths = [
    'bench/results/2026-11-25T19-41-35.json',
    'bench/results/2026-11-25T19-41-35.md',
    'bench/results/2026-11-28T03-05-19-quick.json',
    'bench/results/2026-11-28T03-10-43-quick.json',
    'bench/results/2026-11-28T03-10-43-quick.svg',
    'bench/results/2026-11-25T19-27-10.json',
    'bench/results/kek-2026-11-29T01-28-09.json',
    // a run of some scenarios (BENCH_ONLY) or with tracing on is never the reference
    'bench/results/2026-11-29T08-27-58-only.json',
    'bench/results/2026-11-29T08-30-00-quick-only.json',
    'bench/results/2026-11-29T08-31-00-tracing.json',
    '',
  ];
  assert.equal(pickCommittedResult(paths, true), 'bench/results/2026-11-28T03-10-43-quick.json');
  assert.equal(pickCommittedResult(paths, false), 'bench/results/2026-11-25T19-41-35.json');
  assert.equal(pickCommittedResult(['bench/results/kek-2026-11-29T01-28-09.json'], false), null);
});

test("the machine's own baselines that moved more than 10 % either way are listed beside the regressions, slowest first", () => {
  const baseline = (scenario, clients, ops) => ({ group: 'baseline', scenario, clients, ops_per_s: ops });
  const before = {
    rows: [
      baseline('pg INSERT (token-shaped row)', 32, 9651),
      baseline('bare Fastify handler', 8, 42265),
      baseline('skeleton read (HTTP, NATS, SELECT+audit)', 1, 708),
      baseline('pg SELECT by primary key', 32, 20000),
      row('GET /tokens/{id}', 8, 0.2),
    ],
  };
  const now = {
    rows: [
      baseline('pg INSERT (token-shaped row)', 32, 4316),
      baseline('bare Fastify handler', 8, 46600),
      baseline('skeleton read (HTTP, NATS, SELECT+audit)', 1, 232),
      baseline('pg SELECT by primary key', 32, 18000), // exactly 10 % down: not more
      baseline('pg SELECT by primary key', 1, 7000), // not in the result before
      row('GET /tokens/{id}', 8, 0.1),
    ],
  };
  assert.deepEqual(
    machineDrift(before, now).map((m) => [m.scenario, m.clients, m.change_pct]),
    [
      ['skeleton read (HTTP, NATS, SELECT+audit)', 1, -67.2],
      ['pg INSERT (token-shaped row)', 32, -55.3],
      ['bare Fastify handler', 8, 10.3],
    ],
  );
  const cmp = compareResults(before, now);
  assert.equal(cmp.regressions.length, 1, 'the regression is still reported');
  const text = comparisonText(cmp, 'f.json');
  assert.match(text, /!! 1 ratio fell more than 10 % against f\.json/);
  assert.match(text, /the machine itself moved by more than 10 % against f\.json/);
  assert.match(text, /pg INSERT \(token-shaped row\), 32 clients: 9,651 → 4,316 req\/s \(-55\.3 %\)/);
  assert.match(comparisonMarkdown(cmp, 'f.json'), /\| bare Fastify handler, 8 clients \| 42,265 \| 46,600 \| \+10\.3 % \|/);
  // nothing moved: no such line
  assert.doesNotMatch(comparisonText(compareResults(before, before), 'f.json'), /machine itself/);
});
