import http from 'node:http';
import { atWindowStart, consoleUrl, control, createTenant, gatewayUrl, type ReplicaPorts, type TestTenant } from '@coffer/testing';

/**
 * Rate limits hold across gateway replicas (docs/operations.md, "Rate limits"): a limit of N per window admits N in
 * total, whichever replica each request reaches (HAProxy's round robin), then both refuse with 429 and Retry-After.
 * The suite's limits: RATE_LIMIT_PRIVATE at its default 2000/10s, CONSOLE_SIGN_IN_LIMIT 30/10s.
 */
describe('rate limits shared by two gateway replicas', () => {
  let tenant: TestTenant;
  let replica: ReplicaPorts;

  beforeAll(async () => {
    tenant = await createTenant('shared-limits');
    replica = (await control('replica', 'gateway')) as ReplicaPorts;
  }, 120_000);
  afterAll(async () => {
    await control('stop-replicas', 'gateway');
  }, 60_000);

  /** One call to a base URL from a given local address (the limit of console sign-ins is per client address). */
  function call(base: string, method: string, path: string, opts: { key?: string; body?: unknown; localAddress?: string } = {}) {
    const headers: Record<string, string> = {};
    if (opts.key) headers['SVC-API-KEY'] = opts.key;
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    if (body) headers['content-type'] = 'application/json';
    return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }>((resolve, reject) => {
      const req = http.request(`${base}${path}`, { method, headers, ...(opts.localAddress ? { localAddress: opts.localAddress } : {}) }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  const expectRefused = (res: { status: number; headers: http.IncomingHttpHeaders; body: any }) => {
    expect(res.status).toBe(429);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 429 });
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(10);
  };

  it('a private application (2000 per 10 s) is admitted 2000 times in total across both replicas, then refused by both', async () => {
    const bases = [gatewayUrl(), `http://127.0.0.1:${replica.port}`];
    expect(bases[0]).not.toBe(bases[1]);
    // counted like any request: authenticated, then refused by its permission (403) without reaching a service
    const { key } = await tenant.app('private', { permissions: ['token:read'] });
    const start = await atWindowStart(10_000);
    const statuses: number[][] = [[], []];
    let next = 0;
    // 2400 requests alternating between the replicas, 16 at a time
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let i = next++; i < 2400; i = next++) {
          const r = i % 2;
          statuses[r].push((await call(bases[r], 'GET', '/tenants/self', { key })).status);
        }
      }),
    );
    const took = Date.now() - start;
    expect(took).toBeLessThan(9_000);
    const admitted = statuses.map((s) => s.filter((x) => x === 403).length);
    expect(statuses.flat().every((s) => s === 403 || s === 429)).toBe(true);
    expect(admitted[0] + admitted[1]).toBe(2000);
    expect(admitted[0]).toBeGreaterThan(500);
    expect(admitted[1]).toBeGreaterThan(500);
    for (const base of bases) expectRefused(await call(base, 'GET', '/tenants/self', { key }));
    // another application of the tenant is not affected
    expect((await call(bases[1], 'GET', '/tenants/self', { key: tenant.managementKey })).status).toBe(200);
  }, 60_000);

  it('fails open when session-service does not answer: the gateway keeps serving, counts alone until the window ends, and says so in a metric', async () => {
    const metricsPorts = JSON.parse(process.env['COFFER_E2E_METRICS_PORTS'] as string) as Record<string, number>;
    const fallbacks = async () => {
      const text = await (await fetch(`http://127.0.0.1:${metricsPorts['gateway']}/metrics`)).text();
      return Number(/^coffer_rate_limit_fallbacks_total\{limiter="api"\} (\d+)/m.exec(text)?.[1] ?? NaN);
    };
    const before = await fallbacks();
    expect(before).toBeGreaterThanOrEqual(0);
    // a public application (50 a minute): its first lease is 6 permits; the key is cached from then on (AUTH_CACHE_TTL_MS)
    const { key } = await tenant.app('public', { permissions: ['token:create'] });
    expect((await call(gatewayUrl(), 'GET', '/tenants/self', { key })).status).toBe(403);
    await control('pause', 'session-service');
    try {
      const started = Date.now();
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push((await call(gatewayUrl(), 'GET', '/tenants/self', { key })).status);
      // the permits held, then one lease that times out (200 ms), then this replica's own count
      expect(statuses).toEqual(Array(10).fill(403));
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      await control('resume', 'session-service');
    }
    expect(await fallbacks()).toBe(before + 1);
  }, 60_000);

  it('console sign-ins (30 per 10 s per address) are admitted 30 times in total across both replicas, then refused by both', async () => {
    const consoles = [consoleUrl(), `http://127.0.0.1:${replica.consolePort}`];
    const address = '127.0.0.38';
    await atWindowStart(10_000);
    const statuses: number[] = [];
    // a different guessed key each time: the address is what runs out
    for (let i = 0; i < 36; i++) {
      statuses.push((await call(consoles[i % 2], 'POST', '/console/session', { body: { api_key: `key_guess_shared_${i}` }, localAddress: address })).status);
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(30);
    expect(statuses.slice(30)).toEqual(Array(6).fill(429));
    for (const base of consoles)
      expectRefused(await call(base, 'POST', '/console/session', { body: { api_key: tenant.managementKey }, localAddress: address }));
    // another address signs in at once (the right key has not been guessed with)
    expect((await call(consoles[1], 'POST', '/console/session', { body: { api_key: tenant.managementKey }, localAddress: '127.0.0.39' })).status).toBe(201);
  }, 60_000);
});
