// node --test 'tools/bench/lib/*.test.mjs': the load loop counts, times and fails the way the report assumes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { load, percentile, summarise } from './load.mjs';

test('percentile is nearest-rank on an ascending array', () => {
  const xs = Array.from({ length: 100 }, (_, i) => i + 1);
  assert.equal(percentile(xs, 50), 50);
  assert.equal(percentile(xs, 99), 99);
  assert.equal(percentile(xs, 100), 100);
  assert.equal(percentile([7], 99), 7);
  assert.ok(Number.isNaN(percentile([], 50)));
});

test('summarise sorts numerically and divides by the elapsed seconds', () => {
  const s = summarise([10, 2, 30, 4], 1, 2, 'boom');
  assert.equal(s.ops, 2);
  assert.equal(s.p50, 4);
  assert.equal(s.max, 30);
  assert.equal(s.mean, 11.5);
  assert.equal(s.errors, 1);
  assert.equal(s.firstError, 'boom');
});

test('concurrency is exactly `clients` and the throughput follows the op latency', async () => {
  let inFlight = 0;
  let peak = 0;
  const r = await load({
    clients: 4,
    seconds: 0.5,
    warmup: 0.1,
    op: async () => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((res) => setTimeout(res, 10));
      inFlight--;
    },
  });
  assert.equal(peak, 4);
  // 4 loops of ~10 ms (timers are late, never early): at most 400/s, and not far below
  assert.ok(r.ops <= 400 && r.ops > 200, `ops ${r.ops}`);
  assert.ok(r.p50 >= 9.5, `p50 ${r.p50}`);
  assert.equal(r.errors, 0);
});

test('the warm-up is not measured; seq keeps counting across it', async () => {
  const seen = [];
  const r = await load({ clients: 1, seconds: 0.2, warmup: 0.2, op: async (_c, seq) => (seen.push(seq), new Promise((res) => setTimeout(res, 20))) });
  assert.ok(r.count < seen.length, 'warm-up calls are not counted');
  assert.deepEqual(
    seen,
    seen.map((_, i) => i),
  );
});

test('errors are counted, not timed, and the first message is kept', async () => {
  let n = 0;
  const r = await load({
    clients: 2,
    seconds: 0.2,
    op: async () => {
      if (n++ % 2) throw new Error('503 busy');
    },
  });
  assert.ok(r.errors > 0);
  assert.equal(r.firstError, '503 busy');
  assert.ok(r.count > 0);
});

test('stop() ends the measured window early', async () => {
  const until = performance.now() + 150;
  const t = performance.now();
  const r = await load({ clients: 2, seconds: 5, op: () => new Promise((res) => setTimeout(res, 5)), stop: () => performance.now() > until });
  assert.ok(performance.now() - t < 1000);
  assert.ok(r.count > 0);
});
