import { PrismaService } from '@coffer/db';
import { insertTenant, startIntegration, type IntegrationContext } from '@coffer/testing/integration';
import { AuditRepository } from './audit.repository';

/** audit_events against PostgreSQL: group-committed writes, per-tenant pages, and writes that follow their transaction. */
describe('AuditRepository (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let audit: AuditRepository;
  let tenantA: string;
  let tenantB: string;

  beforeAll(async () => {
    ctx = await startIntegration({ providers: [AuditRepository] });
    audit = ctx.get(AuditRepository);
    tenantA = await insertTenant(ctx.sql);
    tenantB = await insertTenant(ctx.sql);
  });
  afterAll(() => ctx?.close());

  it('writes events recorded together (one batch) and resolves each caller once its own are stored', async () => {
    await Promise.all([
      audit.record(tenantA, [{ operation: 'read', entityType: 'token', entityId: 'tok-1', traceId: 'tr' }]),
      audit.record(tenantA, [
        { operation: 'update', entityType: 'token', entityId: 'tok-1' },
        { operation: 'invoke', entityType: 'reactor', entityId: 'r-1' },
      ]),
      audit.record(tenantB, [{ operation: 'delete', entityType: 'token', entityId: 'tok-1' }]),
    ]);
    const rows = await ctx.sql.query('SELECT tenant_id, operation, entity_type, entity_id, trace_id FROM audit_events ORDER BY operation');
    expect(rows.rows).toEqual([
      { tenant_id: tenantB, operation: 'delete', entity_type: 'token', entity_id: 'tok-1', trace_id: null },
      { tenant_id: tenantA, operation: 'invoke', entity_type: 'reactor', entity_id: 'r-1', trace_id: null },
      { tenant_id: tenantA, operation: 'read', entity_type: 'token', entity_id: 'tok-1', trace_id: 'tr' },
      { tenant_id: tenantA, operation: 'update', entity_type: 'token', entity_id: 'tok-1', trace_id: null },
    ]);
  });

  it('pages one tenant’s events newest first, filtered by entity', async () => {
    const all = await audit.page(tenantA, {}, 0, 10);
    expect(all.total).toBe(3);
    expect(all.rows.every((r) => r.tenantId === tenantA)).toBe(true);
    const reactor = await audit.page(tenantA, { entityType: 'reactor' }, 0, 10);
    expect(reactor.rows.map((r) => r.entityId)).toEqual(['r-1']);
    expect((await audit.page(tenantB, { entityId: 'tok-1' }, 0, 10)).rows.map((r) => r.operation)).toEqual(['delete']);
    expect((await audit.page(tenantA, { from: new Date(Date.now() + 60_000) }, 0, 10)).total).toBe(0);
  });

  it('inside a transaction, writes the events when it commits and not at all when it rolls back', async () => {
    const prisma = ctx.get(PrismaService);
    const count = async (id: string) => (await ctx.sql.query('SELECT count(*)::int AS n FROM audit_events WHERE entity_id = $1', [id])).rows[0].n;
    await prisma.transactional(async () => {
      await audit.record(tenantA, [{ operation: 'update', entityType: 'token', entityId: 'in-tx' }]);
      expect(await count('in-tx')).toBe(0);
    });
    expect(await count('in-tx')).toBe(1);
    await expect(
      prisma.transactional(async () => {
        await audit.record(tenantA, [{ operation: 'update', entityType: 'token', entityId: 'rolled-back' }]);
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    expect(await count('rolled-back')).toBe(0);
  });
});
