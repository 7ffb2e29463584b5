// Proxy benchmark (docs/proxy.md, "Performance"): the cost of sending a request through Coffer's proxy instead of
// straight to the destination. A local HTTPS destination in its own process (lib/https-destination.mjs, a
// certificate of a throwaway CA that proxy-service trusts through NODE_EXTRA_CA_CERTS) answers every request with a
// small JSON body; the same POST goes to it
//   direct      from the load generator (HTTPS, keep-alive), the baseline of the same run;
//   proxied     through POST /proxy with BT-PROXY-URL, a body without expressions (the proxy's own overhead);
//   detokenized the same with one `{{ token | json: '$.number' }}` expression (one detokenize call to token-service);
//   pre-configured  through a pre-configured proxy's BT-PROXY-KEY (one lookup of the key in reactor-service).
// Windows alternate direct / proxied (ABBA) so machine noise hits both alike. Reported: p50 overhead at 1 client
// (proxied p50 − direct p50, target ≤ 2 ms) and the throughput ratio at 32 clients (target ≥ 0.5).
//
//   node tools/dev/runtime.mjs tools/bench/proxy.mjs [--seconds 5] [--rounds 2] [--no-build]
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { APPS, build, startEphemeralSystem } from '../dev/system.mjs';
import { createTestCa } from '../dev/test-ca.mjs';
import { httpClient } from './lib/http.mjs';
import { load } from './lib/load.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '2' },
    'no-build': { type: 'boolean', default: false },
  },
});
const SECONDS = Number(values.seconds);
const WARMUP = Number(values.warmup);
const ROUNDS = Number(values.rounds);
const log = (m) => process.stderr.write(`[bench:proxy] ${m}\n`);
const BODY = JSON.stringify({ amount: 100, currency: 'usd', description: 'bench' });

async function destination(ca) {
  const child = fork(path.join(import.meta.dirname, 'lib/https-destination.mjs'), [ca.cert, ca.key], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m.port));
    child.once('exit', () => reject(new Error('the destination exited')));
  });
  return { url: `https://localhost:${port}`, close: () => child.kill() };
}

/** One POST, failing on any status but 200 (a fast error must not pass for a fast answer). */
async function post(pool, p, headers, body) {
  const res = await pool.request({ method: 'POST', path: p, headers: { 'content-type': 'application/json', ...headers }, body });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`POST ${p}: ${res.statusCode} ${text.slice(0, 160)}`);
}

async function main() {
  if (!values['no-build']) build([...APPS, 'admin']);
  const tlsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-bench-ca-'));
  const ca = createTestCa(tlsDir);
  const dest = await destination(ca);
  const sys = await startEphemeralSystem({
    env: {
      RATE_LIMIT_PRIVATE: '100000000/10s',
      RATE_LIMIT_PUBLIC: '100000000/10s',
      RATE_LIMIT_MANAGEMENT: '100000000/10s',
      LOG_LEVEL: 'warn',
      EGRESS_ALLOW_HOSTS: 'localhost',
      NODE_EXTRA_CA_CERTS: ca.caCert,
    },
  });
  try {
    const { management_key } = sys.createTenant('bench-proxy');
    const http = httpClient(sys.url, 64);
    const app = await http.call('POST', '/applications', {
      key: management_key,
      body: { name: 'bench', type: 'private', permissions: ['token:create', 'token:use', 'proxy:invoke'] },
    });
    const card = await http.call('POST', '/tokens', {
      key: app.key,
      body: { type: 'card', data: { number: '4242424242424242', expiration_month: 12, expiration_year: 2030 } },
    });
    const proxyKey = (await http.call('POST', '/proxies', { key: management_key, body: { name: 'bench', destination_url: `${dest.url}/v1` } })).key;
    const gateway = new Pool(sys.url, { connections: 64, pipelining: 1, keepAliveTimeout: 60_000 });
    const direct = new Pool(dest.url, { connections: 64, pipelining: 1, keepAliveTimeout: 60_000, connect: { ca: fs.readFileSync(ca.caCert) } });
    const detokenizing = JSON.stringify({ number: `{{ ${card.id} | json: '$.number' }}`, amount: 100 });
    const ops = {
      direct: () => post(direct, '/v1/charges', {}, BODY),
      proxied: () => post(gateway, '/proxy/charges', { 'svc-api-key': app.key, 'bt-proxy-url': `${dest.url}/v1` }, BODY),
      detokenized: () => post(gateway, '/proxy/charges', { 'svc-api-key': app.key, 'bt-proxy-url': `${dest.url}/v1` }, detokenizing),
      'pre-configured': () => post(gateway, '/proxy/charges', { 'svc-api-key': app.key, 'bt-proxy-key': proxyKey }, BODY),
    };
    const rows = [];
    for (const clients of [1, 32]) {
      const totals = Object.fromEntries(Object.keys(ops).map((k) => [k, { count: 0, seconds: 0, p50: [], p99: [] }]));
      for (let r = 0; r < ROUNDS; r++) {
        const order = r % 2 ? Object.keys(ops).reverse() : Object.keys(ops);
        for (const name of order) {
          const res = await load({ clients, seconds: SECONDS, warmup: WARMUP, op: ops[name] });
          if (res.errors) throw new Error(`${name}: ${res.errors} errors, first: ${res.firstError}`);
          totals[name].count += res.count;
          totals[name].seconds += SECONDS;
          totals[name].p50.push(res.p50);
          totals[name].p99.push(res.p99);
          log(`${clients} client(s) ${name}: ${res.ops.toFixed(0)}/s p50 ${res.p50.toFixed(2)} ms p99 ${res.p99.toFixed(2)} ms`);
        }
      }
      const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const base = totals.direct;
      for (const name of Object.keys(ops)) {
        const t = totals[name];
        rows.push({
          clients,
          scenario: name,
          ops_per_s: Math.round(t.count / t.seconds),
          p50_ms: Number(mean(t.p50).toFixed(2)),
          p99_ms: Number(mean(t.p99).toFixed(2)),
          p50_overhead_ms: Number((mean(t.p50) - mean(base.p50)).toFixed(2)),
          throughput_ratio: Number((t.count / base.count).toFixed(3)),
        });
      }
    }
    console.log(JSON.stringify(rows, null, 2));
    const one = rows.find((r) => r.clients === 1 && r.scenario === 'proxied');
    const many = rows.find((r) => r.clients === 32 && r.scenario === 'proxied');
    console.log(
      `proxy overhead at 1 client: p50 +${one.p50_overhead_ms} ms (target <= 2 ms); throughput at 32 clients: ${many.throughput_ratio} x direct (target >= 0.5)`,
    );
    await Promise.all([gateway.close(), direct.close(), http.close()]);
  } finally {
    await sys.stop();
    dest.close();
    fs.rmSync(tlsDir, { recursive: true, force: true });
  }
}

await main();
