// The key-encryption key's provider on the hot path: two throwaway systems, one with KEK_PROVIDER=env and one with
// KEK_PROVIDER=pkcs11 on a SoftHSM2 token, loaded in alternating windows (so machine noise hits both alike) with the
// same tokenize and read requests. With the keyring's cache the HSM sees only cold keys, so the ratio should be ~1.
// Also the cold-key cost: the first read of a token by a freshly started token-service (one HSM unwrap) vs env.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT, startEphemeralSystem } from '../dev/system.mjs';
import { createSoftHsmToken } from '../dev/softhsm.mjs';
import { httpClient } from './lib/http.mjs';
import { load } from './lib/load.mjs';

const RATE = { RATE_LIMIT_PRIVATE: '100000000/10s', RATE_LIMIT_PUBLIC: '100000000/10s', RATE_LIMIT_MANAGEMENT: '100000000/10s', LOG_LEVEL: 'warn' };

async function system(kind, token) {
  const env = kind === 'pkcs11' ? { ...RATE, ...token.env, KEY_ENCRYPTION_KEYS: '' } : RATE;
  const sys = await startEphemeralSystem({
    env,
    beforeServices: async (s) => {
      if (kind !== 'pkcs11') return;
      const r = spawnSync(process.execPath, [path.join(ROOT, 'dist/tools/admin/main.js'), 'keys', 'init'], {
        env: { ...process.env, ...s.env },
        encoding: 'utf8',
      });
      if (r.status !== 0) throw new Error(`keys init: ${r.stderr}`);
    },
  });
  const { management_key } = sys.createTenant(`bench-${kind}`);
  const http = httpClient(sys.url, 64);
  const app = await http.call('POST', '/applications', {
    key: management_key,
    body: { name: 'bench', type: 'private', permissions: ['token:create', 'token:read', 'token:use'] },
  });
  const ids = [];
  for (let i = 0; i < 50; i++)
    ids.push((await http.call('POST', '/tokens', { key: app.key, body: { type: 'token', data: `4242${String(i).padStart(12, '0')}` } })).id);
  return { kind, sys, http, key: app.key, ids, management_key };
}

const ops = (s) => ({
  'POST /tokens': () => s.http.call('POST', '/tokens', { key: s.key, body: { type: 'token', data: '4242424242424242' } }),
  'GET /tokens/{id}': (_c, seq) => s.http.call('GET', `/tokens/${s.ids[seq % s.ids.length]}`, { key: s.key }),
});

/** ms for the first read of a token by a token-service just restarted (its key cache empty), median of `n` */
async function coldRead(s, n = 5) {
  const times = [];
  for (let i = 0; i < n; i++) {
    await s.sys.stopService('token-service');
    await s.sys.startService('token-service');
    const t0 = performance.now();
    await s.http.call('GET', `/tokens/${s.ids[i]}`, { key: s.key });
    const cold = performance.now() - t0;
    const t1 = performance.now();
    await s.http.call('GET', `/tokens/${s.ids[i]}`, { key: s.key });
    times.push({ cold, warm: performance.now() - t1 });
  }
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { cold: median(times.map((t) => t.cold)), warm: median(times.map((t) => t.warm)) };
}

/** Runs the comparison; returns rows {scenario, clients, env_ops, pkcs11_ops, ratio, ...} and prints them. */
export async function kekBench({ seconds = 5, warmup = 1, clients = [8], rounds = 2, log = () => undefined } = {}) {
  const token = createSoftHsmToken({ label: 'coffer-bench', keyLabel: 'coffer-bench-kek' });
  const systems = [];
  try {
    log('starting an env system and a pkcs11 (SoftHSM2) system ...');
    systems.push(await system('env', token));
    systems.push(await system('pkcs11', token));
    const rows = [];
    for (const c of clients) {
      for (const scenario of Object.keys(ops(systems[0]))) {
        const totals = { env: { count: 0, seconds: 0, p99: [] }, pkcs11: { count: 0, seconds: 0, p99: [] } };
        for (let r = 0; r < rounds; r++) {
          for (const s of r % 2 ? [...systems].reverse() : systems) {
            const res = await load({ clients: c, seconds, warmup, op: ops(s)[scenario] });
            if (res.errors) throw new Error(`${s.kind} ${scenario}: ${res.errors} errors, first: ${res.firstError}`);
            totals[s.kind].count += res.count;
            totals[s.kind].seconds += seconds;
            totals[s.kind].p99.push(res.p99);
          }
        }
        const envOps = totals.env.count / totals.env.seconds;
        const hsmOps = totals.pkcs11.count / totals.pkcs11.seconds;
        const row = {
          scenario,
          clients: c,
          env_ops: +envOps.toFixed(1),
          pkcs11_ops: +hsmOps.toFixed(1),
          ratio: +(hsmOps / envOps).toFixed(3),
          env_p99_ms: +Math.max(...totals.env.p99).toFixed(2),
          pkcs11_p99_ms: +Math.max(...totals.pkcs11.p99).toFixed(2),
        };
        rows.push(row);
        console.log(
          `${scenario.padEnd(18)} ${String(c).padStart(3)} clients  env ${row.env_ops} req/s  pkcs11 ${row.pkcs11_ops} req/s  ratio ${row.ratio}  (p99 ${row.env_p99_ms} / ${row.pkcs11_p99_ms} ms)`,
        );
      }
    }
    log('cold-key cost: first read after a token-service restart ...');
    for (const s of systems) {
      const c = await coldRead(s);
      rows.push({ scenario: 'cold-key read', provider: s.kind, cold_ms: +c.cold.toFixed(2), warm_ms: +c.warm.toFixed(2) });
      console.log(`cold-key read      ${s.kind.padEnd(7)} first read ${c.cold.toFixed(2)} ms, next read ${c.warm.toFixed(2)} ms (median of 5 restarts)`);
    }
    return rows;
  } finally {
    for (const s of systems) {
      await s.http.close();
      await s.sys.stop();
    }
    token.remove();
  }
}
