/**
 * What the gateway's principal cache (apps/gateway/src/auth/principal-cache.ts) pays when session-service announces
 * that a session was authorized or expired (`events.auth.invalidated`), by how many principals it holds:
 *
 *   npx ts-node --transpile-only -r ./tools/bench/lib/ts-paths.cjs -P apps/gateway/tsconfig.app.json tools/bench/principal-cache.bench.ts
 *
 * Each operation caches a session's principal and then invalidates that session, as an authorization does. The baseline
 * is the same operation with 1,000 principals cached, measured in the same run: an invalidation that looks only at the
 * entries it names costs the same at every size (× baseline ≈ 1), one that scans the cache grows with it. The gateway
 * runs these on its event loop, between requests. Each size runs for BENCH_MS (default 1000) ms after a warm-up.
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { EventBus } from '../../libs/bus/src';
import type { Principal } from '../../libs/contracts/src';
import { PrincipalCache } from '../../apps/gateway/src/auth/principal-cache';

const BENCH_MS = Number(process.env['BENCH_MS'] ?? 1000);
const SIZES = [1_000, 10_000, 50_000];

const events = { subscribe: async () => undefined } as unknown as EventBus;
const tenants = Array.from({ length: 100 }, () => randomUUID());
const sessionPrincipal = (i: number): Principal => ({
  tenantId: tenants[i % tenants.length],
  applicationId: randomUUID(),
  applicationType: 'public',
  permissions: [],
  sessionId: randomUUID(),
});

/** µs per operation: cache a session's principal, then invalidate the session (both caches hold `size` principals) */
function microsPerAuthorization(size: number): number {
  const cache = new PrincipalCache(events);
  // an API key or an authorized session per entry: every one also lands in the 10-minute "recent" cache
  for (let i = 0; i < size; i++) cache.set(`key-${i}`, { principal: sessionPrincipal(i) });
  const pending = Array.from({ length: 1_000 }, (_, i) => sessionPrincipal(i));
  let n = 0;
  const op = () => {
    const p = pending[n++ % pending.length];
    cache.set(`session-${n % pending.length}`, { principal: p });
    cache.invalidate({ tenantId: p.tenantId, sessionId: p.sessionId });
  };
  const warmUntil = Date.now() + Math.min(300, BENCH_MS / 3);
  while (Date.now() < warmUntil) op();
  n = 0;
  const start = process.hrtime.bigint();
  const until = Date.now() + BENCH_MS;
  while (Date.now() < until) op();
  return Number(process.hrtime.bigint() - start) / n / 1000;
}

const rows = SIZES.map((size) => [size, microsPerAuthorization(size)] as const);
const baseline = rows[0][1];
console.log('principals cached (each cache)'.padEnd(40) + 'µs per authorization'.padStart(22) + '  × baseline (1,000)');
for (const [size, micros] of rows)
  console.log(size.toLocaleString('en-US').padEnd(40) + micros.toFixed(1).padStart(22) + `  ${(micros / baseline).toFixed(2)}×`);
