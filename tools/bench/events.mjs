// Events benchmark (docs/events.md, docs/benchmarks.md): on a throwaway system,
//   1. token create throughput at 32 clients, alternating windows with no webhook subscribed and with one webhook
//      subscribed to token.created whose local receiver answers 204 (each window's events relayed and delivered);
//   2. delivery lag at a fixed 500 creates/s: receiver arrival − event.timestamp, p50/p99/max over every event.
//
//   node tools/dev/runtime.mjs tools/bench/events.mjs [--seconds 10] [--clients 32] [--rate 500] [--no-build]
import http from 'node:http';
import { parseArgs } from 'node:util';
import { startTarget } from './lib/target.mjs';
import { httpClient } from './lib/http.mjs';
import { load, percentile } from './lib/load.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    clients: { type: 'string', default: '32' },
    rate: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '2' },
    'no-build': { type: 'boolean', default: false },
  },
});
const SECONDS = Number(values.seconds);
const CLIENTS = Number(values.clients);
const RATE = Number(values.rate);
const ROUNDS = Number(values.rounds);
const log = (m) => process.stderr.write(`[bench:events] ${m}\n`);

/** A receiver that stamps each event's arrival. */
function receiver() {
  const lags = [];
  let count = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const arrived = Date.now();
      try {
        lags.push(arrived - Date.parse(JSON.parse(body).event.timestamp));
      } catch {
        /* not an event */
      }
      count++;
      res.writeHead(204).end();
    });
  });
  return {
    lags,
    count: () => count,
    listen: () => new Promise((r) => server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${server.address().port}/events`))),
    close: () => new Promise((r) => server.close(() => r())),
  };
}

async function main() {
  // the receiver listens on 127.0.0.1: the throwaway system lets webhooks reach private addresses
  const target = await startTarget({ log, noBuild: values['no-build'], env: { ALLOW_PRIVATE_CALLBACKS: 'true' } });
  const client = httpClient(target.url, CLIENTS + 8);
  const rx = receiver();
  const url = await rx.listen();
  try {
    const app = await client.call('POST', '/applications', {
      key: target.managementKey,
      body: { name: 'bench events', type: 'private', permissions: ['token:create'] },
      expect: 201,
    });
    const create = () => client.call('POST', '/tokens', { key: app.key, body: { type: 'token', data: 'bench' }, expect: 201 });

    // 1. throughput, alternating: no subscription / a subscribed webhook
    const results = { off: [], on: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of ['off', 'on']) {
        let hook;
        if (mode === 'on')
          hook = await client.call('POST', '/webhooks', { key: target.managementKey, body: { name: 'bench', url, events: ['token.created'] }, expect: 201 });
        const r = await load({ clients: CLIENTS, seconds: SECONDS, warmup: 1, op: create });
        results[mode].push(r);
        log(`creates, ${mode === 'on' ? 'webhook subscribed' : 'no webhook'}: ${r.ops.toFixed(0)}/s p99 ${r.p99.toFixed(1)} ms (${r.errors} errors)`);
        if (hook) await client.call('DELETE', `/webhooks/${hook.id}`, { key: target.managementKey, expect: 204 });
        // let the relay and the deliveries catch up before the next window
        await new Promise((r) => setTimeout(r, 3000));
      }
    }

    // 2. delivery lag at a fixed rate
    const hook = await client.call('POST', '/webhooks', { key: target.managementKey, body: { name: 'lag', url, events: ['token.created'] }, expect: 201 });
    await new Promise((r) => setTimeout(r, 1000));
    rx.lags.length = 0;
    const total = RATE * SECONDS;
    const start = performance.now();
    let sent = 0;
    let failed = 0;
    const inFlight = new Set();
    while (sent < total) {
      const due = start + (sent * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const p = create().catch(() => failed++);
      inFlight.add(p);
      p.finally(() => inFlight.delete(p));
      sent++;
    }
    await Promise.all(inFlight);
    const achieved = sent / ((performance.now() - start) / 1000);
    const deadline = Date.now() + 60_000;
    while (rx.lags.length < sent - failed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const lags = Float64Array.from(rx.lags).sort();
    await client.call('DELETE', `/webhooks/${hook.id}`, { key: target.managementKey, expect: 204 });

    const mean = (xs) => xs.reduce((a, b) => a + b.ops, 0) / xs.length;
    const summary = {
      clients: CLIENTS,
      seconds: SECONDS,
      creates_per_s_no_webhook: Math.round(mean(results.off)),
      creates_per_s_webhook_subscribed: Math.round(mean(results.on)),
      ratio: Number((mean(results.on) / mean(results.off)).toFixed(3)),
      lag: {
        target_rate: RATE,
        achieved_rate: Math.round(achieved),
        events_sent: sent,
        create_errors: failed,
        events_received: lags.length,
        p50_ms: percentile(lags, 50),
        p99_ms: percentile(lags, 99),
        max_ms: lags.length ? lags[lags.length - 1] : NaN,
      },
    };
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  } finally {
    await rx.close();
    await client.close();
    await target.stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err?.stack ?? err}\n`);
    process.exit(1);
  },
);
