import { AuditLog, PrismaService } from '@coffer/db';
import { insertTenant, startIntegration, type IntegrationContext } from '@coffer/testing/integration';
import { AuditRepository, tokenActs } from './audit.repository';

/** audit_events against PostgreSQL: AuditLog's group-committed writes and writes that follow their transaction, and the pages. */
describe('audit records (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let audit: AuditRepository;
  let log: AuditLog;
  let tenantA: string;
  let tenantB: string;

  beforeAll(async () => {
    ctx = await startIntegration({ providers: [AuditRepository] });
    audit = ctx.get(AuditRepository);
    log = ctx.get(AuditLog);
    tenantA = await insertTenant(ctx.sql);
    tenantB = await insertTenant(ctx.sql);
  });
  afterAll(() => ctx?.close());

  it('writes events recorded together (one batch) and resolves each caller once its own are stored', async () => {
    await Promise.all([
      log.append({ tenantId: tenantA, operation: 'read', entityType: 'token', entityId: 'tok-1', traceId: 'tr' }),
      log.append(
        { tenantId: tenantA, operation: 'update', entityType: 'token', entityId: 'tok-1' },
        { tenantId: tenantA, operation: 'invoke', entityType: 'reactor', entityId: 'r-1' },
      ),
      log.append({ tenantId: tenantB, operation: 'delete', entityType: 'token', entityId: 'tok-1' }),
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
      await log.append({ tenantId: tenantA, operation: 'update', entityType: 'token', entityId: 'in-tx' });
      expect(await count('in-tx')).toBe(0);
    });
    expect(await count('in-tx')).toBe(1);
    await expect(
      prisma.transactional(async () => {
        await log.append({ tenantId: tenantA, operation: 'update', entityType: 'token', entityId: 'rolled-back' });
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    expect(await count('rolled-back')).toBe(0);
  });

  it("attributes token acts to the caller's application, as the statements that audit reads and creates do", async () => {
    const applicationId = '00000000-0000-4000-8000-0000000000a1';
    const session = { tenantId: tenantB, applicationId, sessionId: 'sess-1' } as Parameters<typeof tokenActs>[0];
    await log.append(...tokenActs(session, 'tr-2', 'use', 'token', 'tok-2', 'tok-3'));
    const rows = await ctx.sql.query(
      "SELECT actor_application_id, actor_type, actor_id, entity_id, trace_id FROM audit_events WHERE operation = 'use' ORDER BY entity_id",
    );
    expect(rows.rows).toEqual([
      { actor_application_id: applicationId, actor_type: null, actor_id: null, entity_id: 'tok-2', trace_id: 'tr-2' },
      { actor_application_id: applicationId, actor_type: null, actor_id: null, entity_id: 'tok-3', trace_id: 'tr-2' },
    ]);
    // the log's filter by actor finds them (rows of one statement share created_at: their order is the ids')
    const page = await audit.page(tenantB, { actorId: applicationId }, 0, 10);
    expect(page.rows.map((r) => r.entityId).sort()).toEqual(['tok-2', 'tok-3']);
  });
});
