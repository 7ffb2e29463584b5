// The webhook snippet of docs/webhooks.md against the Standard Webhooks test vector (the e2e suite also runs it
// against real deliveries: apps/api-e2e/src/reactors/async.e2e.spec.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the snippet is a documentation file, not a library
import { verifyWebhook } from '../../docs/examples/verify-webhook.mjs';

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const body = '{"test": 2432232314}';
const headers = {
  'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  'webhook-timestamp': '1614265330',
  'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const now = 1614265330 * 1000;

test('accepts the specification test vector, alone or next to another signature', () => {
  assert.equal(verifyWebhook(secret, headers, body, { now }), true);
  const rotated = { ...headers, 'webhook-signature': `v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA= ${headers['webhook-signature']}` };
  assert.equal(verifyWebhook(secret, rotated, body, { now }), true);
});

test('refuses a changed body, id or secret, a stale timestamp and missing headers', () => {
  assert.equal(verifyWebhook(secret, headers, body.replace('2432', '9999'), { now }), false);
  assert.equal(verifyWebhook(secret, { ...headers, 'webhook-id': 'msg_other' }, body, { now }), false);
  assert.equal(verifyWebhook('whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', headers, body, { now }), false);
  assert.equal(verifyWebhook(secret, headers, body, { now: now + 301_000 }), false);
  assert.equal(verifyWebhook(secret, { ...headers, 'webhook-signature': undefined }, body, { now }), false);
});
