import { randomUUID } from 'node:crypto';
import { Prisma, PrismaService } from '@coffer/db';
import { insertTenant, startIntegration, type IntegrationContext } from '@coffer/testing/integration';
import { TokenRepository, type TokenRow } from './token.repository';
import { AuditRepository } from '../audit/audit.repository';

/** Token rows against real PostgreSQL: what the statements write, and what every read of another tenant cannot see. */
describe('TokenRepository (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let tokens: TokenRepository;
  let tenantA: string;
  let tenantB: string;
  /** the access predicate of a caller whose permissions cover every container */
  const OPEN = Prisma.sql`TRUE`;

  beforeAll(async () => {
    ctx = await startIntegration({ providers: [TokenRepository, AuditRepository] });
    tokens = ctx.get(TokenRepository);
    tenantA = await insertTenant(ctx.sql);
    tenantB = await insertTenant(ctx.sql);
  });
  afterAll(() => ctx?.close());

  /** A new token's row; the repository writes it under the tenant its methods are given (tenantA unless a test says). */
  function write(overrides: Partial<TokenRow> = {}): TokenRow {
    return {
      tenant_id: tenantA,
      id: randomUUID(),
      type: 'token',
      data_ciphertext: Buffer.from('not-really-ciphertext'),
      data_key_id: randomUUID(),
      mask: null,
      fingerprint: `fp-${randomUUID()}`,
      fingerprint_expression: '{{ data | stringify }}',
      container: '/',
      metadata: { Owner: 'Alice' },
      search_indexes: ['{{ data }}'],
      dedup_key: null,
      expires_at: null,
      created_by: randomUUID(),
      created_at: new Date(),
      modified_by: null,
      modified_at: null,
      ...overrides,
    };
  }

  async function digestsOf(tenantId: string, tokenId: string): Promise<string[]> {
    const r = await ctx.sql.query('SELECT digest FROM token_search_indexes WHERE tenant_id = $1 AND token_id = $2 ORDER BY digest', [tenantId, tokenId]);
    return r.rows.map((x: { digest: string }) => x.digest);
  }

  it('inserts a token with its search digests (deduplicated) and its audit event in one statement, and reads it back', async () => {
    const t = write();
    expect(await tokens.insert(tenantA, t, ['d1', 'd2', 'd1'], { traceId: 'trace-1' })).toBe('created-audited');
    const row = await tokens.find(tenantA, t.id);
    expect(row).toMatchObject({ tenant_id: tenantA, id: t.id, type: 'token', container: '/', metadata: { Owner: 'Alice' }, fingerprint: t.fingerprint });
    expect(Buffer.from(row?.data_ciphertext ?? [])).toEqual(t.data_ciphertext);
    expect(await digestsOf(tenantA, t.id)).toEqual(['d1', 'd2']);
    const audit = await ctx.sql.query('SELECT operation, entity_id, trace_id FROM audit_events WHERE tenant_id = $1 AND entity_id = $2', [tenantA, t.id]);
    expect(audit.rows).toEqual([{ operation: 'create', entity_id: t.id, trace_id: 'trace-1' }]);
    const stored = await ctx.sql.query('SELECT metadata_search FROM tokens WHERE tenant_id = $1 AND id = $2', [tenantA, t.id]);
    expect(stored.rows[0].metadata_search).toEqual({ owner: 'alice' });
  });

  it('keeps tenants apart: the same id lives in both, and no read of tenant B returns tenant A’s row', async () => {
    const t = write();
    await tokens.insert(tenantA, t, ['shared-digest']);
    expect(await tokens.find(tenantB, t.id)).toBeNull();
    expect(await tokens.findMany(tenantB, [t.id])).toEqual([]);
    expect(await tokens.findByFingerprint(tenantB, 'token', t.fingerprint)).toBeNull();
    expect((await tokens.page(tenantB, {}, 0, 100, OPEN)).rows.map((r) => r.id)).not.toContain(t.id);
    expect((await tokens.findEach([{ tenantId: tenantB, id: t.id }]))[0]).toBeNull();
    expect(await tokens.delete(tenantB, t.id)).toBe(false);
    expect(await tokens.update(tenantB, write({ id: t.id, tenant_id: tenantB }), [])).toBe('missing');
    // the same id in tenant B is a different token, not a conflict
    expect(await tokens.insert(tenantB, write({ id: t.id }), [])).toBe('created');
    expect((await tokens.find(tenantA, t.id))?.fingerprint).toBe(t.fingerprint);
    expect(await digestsOf(tenantB, t.id)).toEqual([]);
  });

  it('reports a live id as taken and a dedup key held by a live token as a duplicate', async () => {
    const first = write({ dedup_key: 'token:fp-dup', fingerprint: 'fp-dup' });
    expect(await tokens.insert(tenantA, first, [])).toBe('created');
    expect(await tokens.insert(tenantA, write({ id: first.id }), [])).toBe('id_taken');
    expect(await tokens.insert(tenantA, write({ dedup_key: 'token:fp-dup', fingerprint: 'fp-dup' }), [])).toBe('duplicate');
    expect((await tokens.findByDedupKey(tenantA, 'token:fp-dup'))?.id).toBe(first.id);
    // a fingerprint lookup prefers the token holding the dedup key
    await tokens.insert(tenantA, write({ fingerprint: 'fp-dup' }), []);
    expect((await tokens.findByFingerprint(tenantA, 'token', 'fp-dup'))?.id).toBe(first.id);
    expect(await tokens.findByDedupKey(tenantB, 'token:fp-dup')).toBeNull();
  });

  it('treats an expired token as gone: invisible to reads, its id and dedup key free again, removed by the sweep', async () => {
    const expired = write({ expires_at: new Date(Date.now() - 1000), dedup_key: 'token:fp-exp', fingerprint: 'fp-exp' });
    // written directly: the use case refuses a past expiry, but time passes for stored tokens
    expect(await tokens.insert(tenantA, expired, ['exp-digest'])).toBe('created');
    expect(await tokens.find(tenantA, expired.id)).toBeNull();
    expect(await tokens.findByFingerprint(tenantA, 'token', 'fp-exp')).toBeNull();
    const again = write({ id: expired.id, dedup_key: 'token:fp-exp', fingerprint: 'fp-exp' });
    expect(await tokens.insert(tenantA, again, ['new-digest'])).toBe('created');
    expect(await digestsOf(tenantA, expired.id)).toEqual(['new-digest']);

    const other = write({ expires_at: new Date(Date.now() - 1000), dedup_key: 'token:fp-exp2', fingerprint: 'fp-exp2' });
    await tokens.insert(tenantA, other, ['x']);
    const fresh = write({ dedup_key: 'token:fp-exp2', fingerprint: 'fp-exp2' });
    expect(await tokens.insert(tenantA, fresh, [])).toBe('created');
    expect((await tokens.findByDedupKey(tenantA, 'token:fp-exp2'))?.id).toBe(fresh.id);

    expect(await tokens.deleteExpired(100)).toBeGreaterThanOrEqual(1);
    const left = await ctx.sql.query('SELECT count(*)::int AS n FROM tokens WHERE tenant_id = $1 AND id = $2', [tenantA, other.id]);
    expect(left.rows[0].n).toBe(0);
    expect(await digestsOf(tenantA, other.id)).toEqual([]);
  });

  it('updates the mutable fields and replaces the search digests; a dedup key held by another token is a duplicate', async () => {
    const t = write({ search_indexes: ['a'] });
    await tokens.insert(tenantA, t, ['old-1', 'old-2']);
    const modifier = randomUUID();
    const updated = await tokens.update(tenantA, { ...t, metadata: { k: 'V' }, container: '/cards', modified_by: modifier }, ['new-1']);
    expect(updated).toMatchObject({ id: t.id, container: '/cards', metadata: { k: 'V' }, modified_by: modifier });
    expect((updated as { modified_at: Date }).modified_at).toBeInstanceOf(Date);
    expect(await digestsOf(tenantA, t.id)).toEqual(['new-1']);

    const holder = write({ dedup_key: 'token:held', fingerprint: 'held' });
    await tokens.insert(tenantA, holder, []);
    expect(await tokens.update(tenantA, { ...t, dedup_key: 'token:held' }, [])).toBe('duplicate');
    // the failed update changed nothing
    expect(await digestsOf(tenantA, t.id)).toEqual(['new-1']);
    expect((await tokens.find(tenantA, t.id))?.container).toBe('/cards');
  });

  it('an update is one statement with its audit record and event; a duplicate inside a unit of work fails only itself', async () => {
    const t = write();
    await tokens.insert(tenantA, t, ['kept', 'dropped']);
    const by = { actorApplicationId: randomUUID(), traceId: 'trace-upd' };
    const event = { id: randomUUID(), type: 'token.updated', tenant_id: tenantA, timestamp: new Date().toISOString(), trace_id: null, data: {} };
    const at = new Date('2026-12-01T05:00:00.123Z');
    const updated = await tokens.update(tenantA, { ...t, metadata: { v: '2' }, modified_at: at }, ['kept', 'added'], event, by);
    expect(updated).toMatchObject({ id: t.id, metadata: { v: '2' }, modified_at: at });
    expect(await digestsOf(tenantA, t.id)).toEqual(['added', 'kept']);
    const audit = await ctx.sql.query(
      `SELECT actor_application_id, trace_id FROM audit_events WHERE tenant_id = $1 AND entity_id = $2 AND operation = 'update'`,
      [tenantA, t.id],
    );
    expect(audit.rows).toEqual([{ actor_application_id: by.actorApplicationId, trace_id: 'trace-upd' }]);
    expect((await ctx.sql.query('SELECT count(*)::int AS n FROM event_outbox WHERE id = $1', [event.id])).rows[0].n).toBe(1);

    // a token that is gone: nothing written, no record, no event
    const none = { ...event, id: randomUUID() };
    expect(await tokens.update(tenantA, { ...t, id: 'no-such-token' }, ['x'], none, by)).toBe('missing');
    expect((await ctx.sql.query('SELECT count(*)::int AS n FROM event_outbox WHERE id = $1', [none.id])).rows[0].n).toBe(0);

    const holder = write({ dedup_key: 'token:held-in-unit', fingerprint: 'held-in-unit' });
    await tokens.insert(tenantA, holder, []);
    const other = write();
    await ctx.get(PrismaService).transactional(async () => {
      await tokens.insert(tenantA, other, []);
      expect(await tokens.update(tenantA, { ...t, dedup_key: 'token:held-in-unit' }, [], { ...event, id: randomUUID() }, by)).toBe('duplicate');
      // the unit goes on: its other writes commit
      expect(await tokens.update(tenantA, { ...other, metadata: { in: 'unit' } }, [], undefined, by)).toMatchObject({ metadata: { in: 'unit' } });
    });
    expect((await tokens.find(tenantA, other.id))?.metadata).toEqual({ in: 'unit' });
    expect((await tokens.find(tenantA, t.id))?.dedup_key).toBeNull();
  });

  it('a delete writes its audit record and event only when it deleted a token', async () => {
    const t = write();
    await tokens.insert(tenantA, t, ['d']);
    const by = { actorApplicationId: randomUUID(), traceId: 'trace-del' };
    const event = () => ({ id: randomUUID(), type: 'token.deleted', tenant_id: tenantA, timestamp: new Date().toISOString(), trace_id: null, data: {} });
    expect(await tokens.delete(tenantA, t.id, event(), by)).toBe(true);
    expect(await tokens.delete(tenantA, t.id, event(), by)).toBe(false);
    const audit = await ctx.sql.query(`SELECT count(*)::int AS n FROM audit_events WHERE tenant_id = $1 AND entity_id = $2 AND operation = 'delete'`, [
      tenantA,
      t.id,
    ]);
    expect(audit.rows[0].n).toBe(1);
    const events = await ctx.sql.query(`SELECT count(*)::int AS n FROM event_outbox WHERE tenant_id = $1 AND type = 'token.deleted'`, [tenantA]);
    expect(events.rows[0].n).toBe(1);
    expect(await digestsOf(tenantA, t.id)).toEqual([]);
  });

  it('deletes a token with its search digests', async () => {
    const t = write();
    await tokens.insert(tenantA, t, ['gone']);
    expect(await tokens.delete(tenantA, t.id)).toBe(true);
    expect(await tokens.find(tenantA, t.id)).toBeNull();
    expect(await digestsOf(tenantA, t.id)).toEqual([]);
    expect(await tokens.delete(tenantA, t.id)).toBe(false);
  });

  it('lists a tenant’s tokens newest first with filters (type, metadata case-insensitively) and keyset pages', async () => {
    const tenant = await insertTenant(ctx.sql);
    const base = Date.now() - 60_000;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const t = write({ created_at: new Date(base + i * 1000), type: i % 2 ? 'card' : 'token', metadata: { Colour: i < 2 ? 'Red' : 'Blue' } });
      ids.push(t.id);
      await tokens.insert(tenant, t, []);
    }
    const all = await tokens.page(tenant, {}, 0, 2, OPEN);
    expect(all.total).toBe(5);
    expect(all.rows.map((r) => r.id)).toEqual([ids[4], ids[3]]);
    expect((await tokens.page(tenant, { types: ['card'] }, 0, 10, OPEN)).rows.map((r) => r.id)).toEqual([ids[3], ids[1]]);
    expect((await tokens.page(tenant, { metadata: { colour: 'red' } }, 0, 10, OPEN)).rows.map((r) => r.id)).toEqual([ids[1], ids[0]]);

    const first = await tokens.keyset(tenant, {}, null, 2, OPEN);
    expect(first.map((r) => r.id)).toEqual([ids[4], ids[3], ids[2]]); // one extra: more exist
    const second = await tokens.keyset(tenant, {}, { at: first[1].position_at, id: first[1].id }, 2, OPEN);
    expect(second.map((r) => r.id)).toEqual([ids[2], ids[1], ids[0]]);
  });

  it('an offset page comes with its total, within a deadline or not, past the last page and at size 0 too', async () => {
    const tenant = await insertTenant(ctx.sql);
    const base = Date.now() - 60_000;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const t = write({ created_at: new Date(base + i * 1000) });
      ids.push(t.id);
      await tokens.insert(tenant, t, []);
    }
    const deadline = performance.now() + 5_000;
    for (const within of [undefined, deadline]) {
      const middle = await tokens.page(tenant, {}, 1, 3, OPEN, within);
      expect({ total: middle.total, ids: middle.rows.map((r) => r.id) }).toEqual({ total: 5, ids: [ids[3], ids[2], ids[1]] });
      // a row of the page is a token row and nothing else (no total beside its columns)
      expect(Object.keys(middle.rows[0]).sort()).toEqual(Object.keys(write()).sort());
      expect(Buffer.from(middle.rows[0].data_ciphertext)).toEqual(Buffer.from('not-really-ciphertext'));
      expect(await tokens.page(tenant, {}, 5, 3, OPEN, within)).toEqual({ rows: [], total: 5 });
      expect(await tokens.page(tenant, {}, 0, 0, OPEN, within)).toEqual({ rows: [], total: 5 });
      expect(await tokens.page(tenant, { types: ['none-such'] }, 0, 3, OPEN, within)).toEqual({ rows: [], total: 0 });
    }
  });
});
