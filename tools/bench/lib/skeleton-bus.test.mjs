import assert from 'node:assert/strict';
import { test } from 'node:test';
import { atIterationEnd } from './skeleton-bus.mjs';

test('atIterationEnd: what one iteration queues runs at its end, in order, in one synchronous run', async () => {
  const publish = atIterationEnd();
  const seen = [];
  for (const n of [1, 2, 3])
    publish(() => {
      seen.push(`send ${n}`);
      // a continuation of a send (where nats.js flushes its buffer) comes only after every send of the run
      queueMicrotask(() => seen.push(`after ${n}`));
    });
  await Promise.resolve();
  assert.deepEqual(seen, [], 'nothing is sent before the iteration ends');
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(seen, ['send 1', 'send 2', 'send 3', 'after 1', 'after 2', 'after 3']);
  // the next iteration's sends are a run of their own
  publish(() => seen.push('send 4'));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(seen.at(-1), 'send 4');
});
