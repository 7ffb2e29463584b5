import { randomUUID } from 'node:crypto';
import { AuditLedger, PrismaService, refusalWindowsUpsert, type RefusalWindow } from '@coffer/db';
import { insertTenant, startIntegration, type IntegrationContext } from '@coffer/testing/integration';

jest.setTimeout(60_000);

/**
 * Sealing appends: a record's place in its chain is a row of audit_seals, its queue row is deleted, and the record
 * itself is never written again (rewriting each record to seal it cost PostgreSQL more than writing it). Every
 * statement that inserts audit records queues them, so nothing a service or a tool writes escapes its chain.
 */
describe('sealing the audit trail (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let ledger: AuditLedger;
  let tenant: string;
  const count = async (sql: string, params: unknown[] = []) => (await ctx.sql.query<{ n: number }>(sql, params)).rows[0]?.n;
  const versions = async (tenantId: string) =>
    (await ctx.sql.query<{ id: string; xmin: string }>('SELECT id, xmin::text FROM audit_events WHERE tenant_id = $1 ORDER BY id', [tenantId])).rows;
  const upsertWindow = (w: RefusalWindow) => {
    const statement = refusalWindowsUpsert([w]);
    return ctx.sql.query(statement.text, statement.values as unknown[]);
  };
  const windowCount = async (tenantId: string, reason: string) =>
    count(`SELECT count AS n FROM audit_events WHERE tenant_id = $1 AND operation = 'refuse' AND entity_id = $2`, [tenantId, reason]);

  beforeAll(async () => {
    ctx = await startIntegration({ providers: [] });
    ledger = new AuditLedger(ctx.get(PrismaService));
    tenant = await insertTenant(ctx.sql);
  });
  afterAll(() => ctx?.close());

  it('queues every record a statement inserts, whoever wrote it', async () => {
    await ctx.sql.query(
      `INSERT INTO audit_events (id, tenant_id, operation, entity_type, entity_id) SELECT gen_random_uuid(), $1::uuid, 'read', 'token', g::text FROM generate_series(1, 2000) g`,
      [tenant],
    );
    expect(await count('SELECT count(*)::int AS n FROM audit_unsealed u JOIN audit_events a ON a.id = u.event_id WHERE a.tenant_id = $1', [tenant])).toBe(2000);
  });

  it('seals them into a chain that verifies, without rewriting a single record, and empties the queue', async () => {
    const before = await versions(tenant);
    expect(await ledger.sealAll()).toBe(2000);
    expect(await versions(tenant)).toEqual(before);
    expect(await ledger.verify(tenant)).toMatchObject({ ok: true, records: 2000, headSeq: 2000, unsealed: 0 });
    expect(await count('SELECT count(*)::int AS n FROM audit_unsealed')).toBe(0);
    const seqs = await ctx.sql.query<{ seq: number }>('SELECT seq::int AS seq FROM audit_seals WHERE tenant_id = $1 ORDER BY seq', [tenant]);
    expect(seqs.rows.map((r) => r.seq)).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1));
  });

  it('a refusal window takes counts while it is counted, is sealed once they are in, and never changes after', async () => {
    const refusals = await insertTenant(ctx.sql);
    const now = Date.now();
    const old: RefusalWindow = { tenantId: refusals, reason: 'closed', source: '198.51.100.7', windowStart: new Date(now - 4 * 60_000), count: 2 };
    const open: RefusalWindow = { tenantId: refusals, reason: 'open', source: '198.51.100.7', windowStart: new Date(now - 60_000), count: 1 };
    await upsertWindow(old);
    await upsertWindow(open);
    await upsertWindow({ ...open, count: 4 });
    expect(await windowCount(refusals, 'open')).toBe(5);

    // the window opened four minutes ago is sealed; the one still counted waits, due about two minutes from now
    expect(await ledger.sealAll()).toBe(1);
    expect(await ledger.verify(refusals)).toMatchObject({ ok: true, records: 1 });
    const due = (await ledger.nextSealDueInMs()) as number;
    expect(due).toBeGreaterThan(60_000);
    expect(due).toBeLessThanOrEqual(120_000);

    // a count that arrives for the sealed window is dropped: the chain stays intact
    await upsertWindow({ ...old, count: 9 });
    expect(await windowCount(refusals, 'closed')).toBe(2);
    expect(await ledger.verify(refusals)).toMatchObject({ ok: true, records: 1 });
  });

  it('a queued record deleted before its seal does not stall the sealer', async () => {
    const other = await insertTenant(ctx.sql);
    const ids = [randomUUID(), randomUUID()];
    await ctx.sql.query(
      `INSERT INTO audit_events (id, tenant_id, operation, entity_type, entity_id) SELECT id, $2, 'read', 'token', 't' FROM unnest($1::uuid[]) id`,
      [ids, other],
    );
    await ctx.sql.query('DELETE FROM audit_events WHERE id = $1', [ids[0]]);
    expect(await ledger.sealAll()).toBe(2);
    expect(await count('SELECT count(*)::int AS n FROM audit_unsealed WHERE NOT refusal')).toBe(0);
    expect(await ledger.verify(other)).toMatchObject({ ok: true, records: 1, headSeq: 1 });
  });

  it('verify reports a record that is in no chain and in no queue (slipped in past the trigger)', async () => {
    const slipped = await insertTenant(ctx.sql);
    const id = randomUUID();
    await ctx.sql.query(
      `INSERT INTO audit_events (id, tenant_id, operation, entity_type, entity_id, created_at) VALUES ($1, $2, 'read', 'token', 't', now() - interval '11 minutes')`,
      [id, slipped],
    );
    await ctx.sql.query('DELETE FROM audit_unsealed WHERE event_id = $1', [id]);
    expect(await ledger.sealAll()).toBe(0);
    expect(await ledger.verify(slipped)).toMatchObject({ ok: true, records: 0, unsealed: 1 });
  });
});
