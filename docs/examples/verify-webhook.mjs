// Receive and verify Coffer webhooks (Standard Webhooks signatures). Node.js 18 or later, no dependencies.
//
//   WEBHOOK_SECRET=whsec_... PORT=3000 node docs/examples/verify-webhook.mjs
//
// WEBHOOK_SECRET is the webhook's own `signing_secret` (returned once by POST /webhooks) for event deliveries, or the
// tenant's secret (GET /tenants/self/webhook-secret) for asynchronous reactor results and older webhooks.
// Use it as a starting point for your receiver, or import `verifyWebhook` from it. The end-to-end suite runs this
// exact file against real deliveries (apps/api-e2e/src/reactors/async.e2e.spec.ts), so it stays correct.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

/**
 * True when `body` (the raw request body, exactly as received) carries a valid signature from `secret` and a
 * timestamp within `toleranceSeconds` of now. `headers` uses lower-case names, as Node's `req.headers` does.
 */
export function verifyWebhook(secret, headers, body, { toleranceSeconds = 300, now = Date.now() } = {}) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) return false;
  // refuse old (replayed) and far-future deliveries
  if (Math.abs(now / 1000 - Number(timestamp)) > toleranceSeconds) return false;

  // the HMAC key is the base64-decoded part of the secret after "whsec_"
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();

  // during a secret rotation there are two signatures, space-separated: accept either
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    const given = Buffer.from(signature ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** A receiver: answers 204 to a verified delivery (Coffer stops retrying), 401 otherwise (Coffer retries). */
export function startReceiver({ secret, port = 3000, host = '127.0.0.1', onDelivery = () => {} }) {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (req.method !== 'POST' || !verifyWebhook(secret, req.headers, body)) {
        console.log(`rejected ${req.headers['webhook-id'] ?? '(no webhook-id)'}`);
        res.writeHead(401).end();
        return;
      }
      // webhook-id is the request id of the invocation, the same on every retry: use it to drop duplicates
      console.log(`verified ${req.headers['webhook-id']}`);
      onDelivery(req.headers['webhook-id'], JSON.parse(body));
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(port, host, () => {
      console.log(`listening on http://${host}:${server.address().port}/`);
      resolve(server);
    }),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) {
    console.error('Set WEBHOOK_SECRET (GET /tenants/self/webhook-secret with a management key).');
    process.exit(1);
  }
  await startReceiver({ secret, port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' });
}
