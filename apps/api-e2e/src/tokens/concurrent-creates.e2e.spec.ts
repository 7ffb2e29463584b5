import { api, createTenant, type TestTenant } from '@coffer/testing';

/**
 * Creates that reach token-service together are group-committed (one statement, one commit; docs/scaling.md). Through
 * the API nothing of that may show: a burst of creates, some colliding with each other or with stored tokens, some
 * repeating one idempotency key, some deduplicated, gets the same answers as the same creates sent one at a time.
 */
describe('tokens: concurrent creates (group commit)', () => {
  let tenant: TestTenant;
  let key: string;
  beforeAll(async () => {
    tenant = await createTenant('burst');
    key = (await tenant.app('private', { permissions: ['token:create', 'token:read', 'token:use', 'token:search'] })).key;
  });

  const create = (body: Record<string, unknown>, headers: Record<string, string> = {}) => api('POST', '/tokens', { key, body, headers });

  it('a burst of creates: each its own token and audit record, a colliding id is one 201 and 409s, a repeated idempotency key is one token', async () => {
    const stored = await create({ id: 'burst-stored', type: 'token', data: 'before' });
    expect(stored.status).toBe(201);
    const run = `run-${Date.now()}`;
    const plain = Array.from({ length: 24 }, (_, i) =>
      create({ type: 'token', data: `burst-${i}`, metadata: { run, n: String(i) }, search_indexes: ['{{ data }}'] }),
    );
    const collide = Array.from({ length: 4 }, (_, i) => create({ id: 'burst-new', type: 'token', data: `collide-${i}`, metadata: { run } }));
    const taken = create({ id: 'burst-stored', type: 'token', data: 'after', metadata: { run } });
    const repeated = Array.from({ length: 3 }, () =>
      create({ type: 'token', data: 'once', metadata: { run, idempotent: 'yes' } }, { 'svc-idempotency-key': `burst-key-${run}` }),
    );
    const [plainRes, collideRes, takenRes, repeatedRes] = await Promise.all([Promise.all(plain), Promise.all(collide), taken, Promise.all(repeated)]);

    expect(plainRes.map((r) => r.status)).toEqual(plainRes.map(() => 201));
    expect(new Set(plainRes.map((r) => r.body.id)).size).toBe(24);
    expect(collideRes.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    expect(takenRes.status).toBe(409);
    expect(takenRes.headers.get('content-type')).toContain('application/problem+json');
    // one token for the key: the first created it, the others are its replay (or 409 while it was in flight)
    const ids = new Set(repeatedRes.filter((r) => r.status === 201).map((r) => r.body.id));
    expect(ids.size).toBe(1);
    expect(repeatedRes.every((r) => r.status === 201 || r.status === 409)).toBe(true);

    // every token reads back with its own data
    for (const [i, r] of plainRes.entries()) {
      const read = await api('GET', `/tokens/${r.body.id}`, { key });
      expect(read.status).toBe(200);
      expect(read.body.data).toBe(`burst-${i}`);
    }
    const winner = collideRes.findIndex((r) => r.status === 201);
    expect((await api('GET', '/tokens/burst-new', { key })).body.data).toBe(`collide-${winner}`);
    expect((await api('GET', '/tokens/burst-stored', { key })).body.data).toBe('before');

    // the run's tokens: 24 + the colliding id's winner + the idempotent one
    const listed = await api('GET', `/tokens?metadata.run=${run}&size=100`, { key });
    expect(listed.body.pagination.total_items).toBe(26);

    // one create record per written token, none for the refused ones
    const logs = await api('GET', `/logs?entity_type=token&operation=create&size=100`, { key: tenant.managementKey });
    expect(logs.status).toBe(200);
    const created = logs.body.data.map((e: { entity_id: string }) => e.entity_id);
    for (const r of plainRes) expect(created.filter((id: string) => id === r.body.id)).toHaveLength(1);
    expect(created.filter((id: string) => id === 'burst-new')).toHaveLength(1);
    expect(created.filter((id: string) => id === 'burst-stored')).toHaveLength(1);
  });

  it('with deduplication on, equal data created at once is one token', async () => {
    const res = await Promise.all(Array.from({ length: 6 }, () => create({ type: 'token', data: 'same-in-a-burst', deduplicate_token: true })));
    expect(res.map((r) => r.status)).toEqual(res.map(() => 201));
    expect(new Set(res.map((r) => r.body.id)).size).toBe(1);
  });
});
