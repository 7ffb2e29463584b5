import assert from 'node:assert/strict';
import { test } from 'node:test';
import { natsPerOp } from './nats-monitor.mjs';

test('messages per request between two /connz snapshots, per connection name', () => {
  const before = { published: 100, delivered: 100, byName: { 'gateway-rpc': 40, 'token-service': 60 } };
  const after = { published: 300, delivered: 310, byName: { 'gateway-rpc': 140, 'token-service': 160, 'session-service': 0, 'new-conn': 10 } };
  assert.deepEqual(natsPerOp(before, after, 100), { published: 2, delivered: 2.1, by: { 'gateway-rpc': 1, 'token-service': 1, 'new-conn': 0.1 } });
});

test('nothing without both snapshots or without requests', () => {
  assert.equal(natsPerOp(undefined, { published: 1, delivered: 1, byName: {} }, 10), undefined);
  assert.equal(natsPerOp({ published: 1, delivered: 1, byName: {} }, { published: 1, delivered: 1, byName: {} }, 0), undefined);
});
