import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PLAN_STATEMENTS, planSummary, plansMarkdown, plansText } from './plans.mjs';

const plan = [
  'Limit  (cost=0.42..61.03 rows=20 width=400) (actual time=0.050..0.210 rows=10 loops=1)',
  '  Buffers: shared hit=42 read=3',
  '  ->  Index Scan using tokens_tenant_id_created_at_id_idx on tokens  (cost=0.42..303.10 rows=100 width=400) (actual time=0.049..0.205 rows=10 loops=1)',
  '        Buffers: shared hit=40 read=3',
  'Planning:',
  '  Buffers: shared hit=5',
  'Planning Time: 0.180 ms',
  'Execution Time: 0.250 ms',
];

test("planSummary: timings and the top node's buffers", () => {
  assert.deepEqual(planSummary(plan), { planning_ms: 0.18, execution_ms: 0.25, shared_hit: 42, shared_read: 3, top_node: 'Limit' });
  assert.equal(planSummary(['Aggregate  (cost=1..2 rows=1 width=8)', '  Buffers: shared hit=7', 'Execution Time: 1.5 ms']).shared_read, 0);
});

test('the statements take the tenant first and the scenarios customer; each has its parameters', () => {
  for (const s of PLAN_STATEMENTS) {
    const params = s.params('t-1');
    assert.equal(params[0], 't-1');
    assert.equal(params[1], '{"customer":"c-7"}');
    const highest = Math.max(...[...s.sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
    assert.equal(highest, params.length, s.name);
  }
});

test('the printed plans and the Markdown name each statement and its figures', () => {
  const point = {
    size: 10000,
    tokens: 10017,
    plans: [
      { name: 'page', used_by: ['GET /tokens'], ...planSummary(plan), plan },
      { name: 'count', used_by: ['x'], error: 'boom' },
    ],
  };
  const text = plansText(point);
  assert.match(text, /@ 10017 tokens/);
  assert.match(text, /-- page: execution 0.25 ms, planning 0.18 ms, shared buffers hit 42 read 3/);
  assert.match(text, /-- count: EXPLAIN failed: boom/);
  const md = plansMarkdown([point]);
  assert.match(md, /### 10017 tokens/);
  assert.equal(md.split('\n').filter((l) => l === '```').length, 2);
});
