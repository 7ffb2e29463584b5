import { api, createTenant, type TestTenant } from '@coffer/testing';

describe('rate limits and idempotency keys', () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await createTenant('limits');
  });

  it('a public application is limited to 50 requests a minute: 429 with Retry-After', async () => {
    const pub = (await tenant.app('public', { permissions: ['token:create'] })).key;
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) statuses.push((await api('GET', '/tokens', { key: pub })).status);
    expect(statuses.every((s) => s === 403)).toBe(true);
    const limited = await api('GET', '/tokens', { key: pub });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ status: 429 });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // other applications are not affected
    expect((await api('GET', '/tenants/self', { key: tenant.managementKey })).status).toBe(200);
  });

  it('SVC-IDEMPOTENCY-KEY replays the first successful response', async () => {
    const key = (await tenant.app('private', { permissions: ['token:create', 'token:read'] })).key;
    const headers = { 'SVC-IDEMPOTENCY-KEY': `idem-${Date.now()}` };
    const first = await api('POST', '/tokens', { key, headers, body: { type: 'token', data: 'once' } });
    expect(first.status).toBe(201);
    const again = await api('POST', '/tokens', { key, headers, body: { type: 'token', data: 'once' } });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const list = await api('GET', `/tokens?id=${first.body.id}`, { key });
    expect(list.body.data).toHaveLength(1);
  });

  it('a failed first attempt is processed again', async () => {
    const key = (await tenant.app('private', { permissions: ['token:create'] })).key;
    const headers = { 'SVC-IDEMPOTENCY-KEY': `retry-${Date.now()}` };
    expect((await api('POST', '/tokens', { key, headers, body: { type: 'nope', data: 'x' } })).status).toBe(400);
    const ok = await api('POST', '/tokens', { key, headers, body: { type: 'token', data: 'x' } });
    expect(ok.status).toBe(201);
  });

  it('concurrent repeats: one is processed, the other gets the replay or a 409', async () => {
    const key = (await tenant.app('private', { permissions: ['token:create'] })).key;
    const headers = { 'SVC-IDEMPOTENCY-KEY': `race-${Date.now()}` };
    const [a, b] = await Promise.all([
      api('POST', '/tokens', { key, headers, body: { type: 'token', data: 'race' } }),
      api('POST', '/tokens', { key, headers, body: { type: 'token', data: 'race' } }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect([
      [201, 201],
      [201, 409],
    ]).toContainEqual(statuses);
    if (a.status === 201 && b.status === 201) expect(a.body.id).toBe(b.body.id);
  });
});
