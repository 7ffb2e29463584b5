#!/usr/bin/env node
// `npm run bench`: performance figures with baselines measured in the same run (machines are noisy: compare
// ratios). Starts a throwaway system like the end-to-end tests. BENCH_SECONDS (default 5) per scenario,
// BENCH_LIST_SIZES (default "10000,100000"; DESIGN §7 asks up to 1000000) for the list scaling scenario.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { Pool as HttpPool } from 'undici';
import { APPS, ROOT, build, ensureInstalled, startEphemeralSystem } from '../dev/system.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const LIST_SIZES = (process.env.BENCH_LIST_SIZES ?? '10000,100000').split(',').map(Number);
const results = [];

function pct(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
}

/** Runs `op` from `clients` concurrent loops for SECONDS; returns throughput and latency percentiles (ms). */
async function load(clients, op, seconds = SECONDS) {
  const latencies = [];
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let i = 0; performance.now() < deadline; i++) {
        const t = performance.now();
        try {
          await op(c, i);
          latencies.push(performance.now() - t);
        } catch {
          errors++;
        }
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { ops: latencies.length / seconds, p50: pct(latencies, 50), p99: pct(latencies, 99), errors };
}

function record(scenario, clients, r, baseline) {
  const row = { scenario, clients, ops_per_s: Math.round(r.ops), p50_ms: +r.p50.toFixed(2), p99_ms: +r.p99.toFixed(2), errors: r.errors };
  if (baseline) row.ratio_to_baseline = +(r.ops / baseline.ops).toFixed(3);
  results.push(row);
  console.log(
    `${scenario.padEnd(34)} c=${String(clients).padStart(2)}  ${String(row.ops_per_s).padStart(7)} ops/s  p50 ${row.p50_ms.toFixed(2).padStart(7)} ms  p99 ${row.p99_ms.toFixed(2).padStart(7)} ms` +
      (baseline ? `  ratio ${row.ratio_to_baseline}` : '') + (r.errors ? `  errors ${r.errors}` : ''),
  );
}

async function main() {
  ensureInstalled();
  build([...APPS, 'admin']);

  console.log('\n== expression library (libs/expression) ==');
  spawnSync(path.join(ROOT, 'node_modules/.bin/ts-node'), ['--transpile-only', '-P', 'libs/expression/tsconfig.json', '-O', '{"module":"commonjs"}', 'tools/bench/expression.bench.ts'], { cwd: ROOT, stdio: 'inherit' });

  const sys = await startEphemeralSystem({ env: { LOG_LEVEL: 'warn', RATE_LIMIT_PRIVATE: '1000000/10s' } });
  try {
    const { management_key: mk, tenant_id: tenantId } = sys.createTenant('bench');
    const http = new HttpPool(sys.url, { connections: 64, pipelining: 1 });
    const call = async (method, p, key, body) => {
      const res = await http.request({ method, path: p, headers: { 'svc-api-key': key, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.body.text();
      if (res.statusCode >= 400) throw new Error(`${res.statusCode} ${text}`);
      return text ? JSON.parse(text) : undefined;
    };
    const app = await call('POST', '/applications', mk, { name: 'bench', type: 'private', permissions: ['token:create', 'token:read', 'token:use'] });
    const key = app.key;

    // Baseline: an equivalent row INSERTed straight into PostgreSQL with pg, same concurrency.
    const pool = new pg.Pool({ connectionString: sys.databaseUrl, max: 32 });
    await pool.query(`CREATE TABLE bench_baseline (tenant_id uuid, id text, type text, data_ciphertext bytea, mask jsonb, fingerprint text,
      container text, metadata jsonb, created_at timestamptz DEFAULT now(), PRIMARY KEY (tenant_id, id))`);
    const cipher = randomBytes(80);
    const baselineInsert = () =>
      pool.query('INSERT INTO bench_baseline (tenant_id, id, type, data_ciphertext, mask, fingerprint, container, metadata) VALUES ($1,$2,$3,$4,$5,$6,$7,$8)', [
        tenantId, randomUUID(), 'card_number', cipher, '"{{ data | reveal_last: 4 }}"', randomBytes(32).toString('hex'), '/pci/high/', '{"customer":"c-1"}',
      ]);

    console.log('\n== create token vs PostgreSQL INSERT baseline (DESIGN §7: ≥ 0.35 at 32 clients, goal 0.50) ==');
    const created = [];
    for (const clients of [1, 8, 32]) {
      const base = await load(clients, baselineInsert);
      record('baseline: pg INSERT', clients, base);
      const r = await load(clients, async () => {
        const t = await call('POST', '/tokens', key, { type: 'card_number', data: '4242424242424242', metadata: { customer: `c-${created.length % 50}` } });
        if (created.length < 2000) created.push(t.id);
      });
      record('POST /tokens (card_number)', clients, r, base);
    }

    console.log('\n== read (DESIGN §7: p99 < 20 ms at 32 clients) ==');
    for (const clients of [1, 8, 32]) {
      record('GET /tokens/{id}', clients, await load(clients, (_c, i) => call('GET', `/tokens/${created[i % created.length]}`, key)));
    }

    console.log('\n== reactor invocation overhead (issue 6: trivial formula p50 − token read p50 < 5 ms) ==');
    const card = await call('POST', '/tokens', key, { type: 'card', data: { number: '4242424242424242', expiration_month: 1, expiration_year: 2031 } });
    const mkReactor = async (name, code, params = []) => {
      const f = await call('POST', '/reactor-formulas', mk, { name, type: 'private', code, request_parameters: params });
      return (await call('POST', '/reactors', mk, { name, configuration: {}, formula: { id: f.id } })).id;
    };
    const trivial = await mkReactor('trivial', 'module.exports = async function () { return { raw: { ok: true } }; };');
    const detok = await mkReactor('detokenize', 'module.exports = async function (req) { return { raw: { last4: req.args.card.number.slice(-4) } }; };', [
      { name: 'card.number', type: 'string' },
    ]);
    for (const clients of [1, 16]) {
      const read = await load(clients, () => call('GET', `/tokens/${card.id}`, key));
      record('GET /tokens/{id} (same run)', clients, read);
      const t = await load(clients, () => call('POST', `/reactors/${trivial}/react`, key, {}));
      record('react: trivial formula', clients, t, read);
      const d = await load(clients, () => call('POST', `/reactors/${detok}/react`, key, { args: { card: `{{ ${card.id} }}` } }));
      record('react: detokenize one card', clients, d, read);
      console.log(`invocation overhead c=${clients}: p50 ${(t.p50 - read.p50).toFixed(2)} ms above a token read`);
    }

    console.log('\n== list with a metadata filter and cursor paging as the tenant grows (DESIGN §7: within 2×) ==');
    const tag = 'bench-tag';
    for (let i = 0; i < 100; i++) await call('POST', '/tokens', key, { type: 'token', data: `t${i}`, metadata: { tag } });
    let current = (await pool.query('SELECT count(*)::int AS n FROM tokens WHERE tenant_id = $1', [tenantId])).rows[0].n;
    const listLatency = {};
    for (const size of LIST_SIZES) {
      if (size > current) {
        // filler rows of the same tenant, unrelated metadata: only the indexes must keep the filter fast
        await pool.query(
          `INSERT INTO tokens (tenant_id, id, type, data_ciphertext, data_key_id, fingerprint, fingerprint_expression, container, metadata, metadata_search, search_indexes, created_at)
           SELECT $1::uuid, 'fill-' || g, 'token', '\\x00'::bytea, gen_random_uuid(), md5(g::text), '{{ data | stringify }}', '/general/high/',
                  jsonb_build_object('customer', 'f' || (g % 1000)), jsonb_build_object('customer', 'f' || (g % 1000)), '{}', now() - (g || ' seconds')::interval
           FROM generate_series($2::int, $3::int) g`,
          [tenantId, current, size - 1],
        );
        await pool.query('ANALYZE tokens');
        current = size;
      }
      const filtered = await load(4, () => call('GET', `/tokens?metadata.tag=${tag}&size=20`, key), Math.min(SECONDS, 3));
      record(`list metadata filter @ ${size}`, 4, filtered);
      const cursor = await load(4, async () => {
        let start = '';
        for (let page = 0; page < 3; page++) {
          const r = await call('GET', `/tokens?metadata.tag=${tag}&size=20&start=${encodeURIComponent(start)}`, key);
          if (!r.pagination.next) break;
          start = r.pagination.next;
        }
      }, Math.min(SECONDS, 3));
      record(`cursor paging (3 pages) @ ${size}`, 4, cursor);
      listLatency[size] = { filtered: filtered.p50, cursor: cursor.p50 };
    }
    const [small, large] = [LIST_SIZES[0], LIST_SIZES[LIST_SIZES.length - 1]];
    console.log(`list p50 growth ${small} → ${large}: filter ×${(listLatency[large].filtered / listLatency[small].filtered).toFixed(2)}, cursor ×${(listLatency[large].cursor / listLatency[small].cursor).toFixed(2)}`);
    await pool.end();
    await http.close();
  } finally {
    await sys.stop();
  }
  console.log(`BENCH_JSON ${JSON.stringify(results)}`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(`bench failed: ${err.stack ?? err}`);
    process.exit(1);
  },
);
