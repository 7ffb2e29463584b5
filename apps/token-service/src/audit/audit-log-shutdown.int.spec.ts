import { AuditLog } from '@coffer/db';
import { insertTenant, startIntegration, type IntegrationContext } from '@coffer/testing/integration';

/**
 * A shutdown that begins while audit records are still queued for their group commit: they reach the database
 * before the connection pool closes (the records were accepted; their callers are waiting for them).
 */
describe('AuditLog at shutdown (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let tenant: string;

  beforeAll(async () => {
    ctx = await startIntegration({ providers: [] });
    tenant = await insertTenant(ctx.sql);
  });
  afterAll(async () => {
    // the module is closed by the test itself; what remains is the asserting pool and the database
    await ctx?.sql.end();
    await ctx?.db.drop();
  });

  it('writes the records queued when the module starts closing, then closes the pool', async () => {
    const log = ctx.get(AuditLog);
    const queued = log.append(
      { tenantId: tenant, operation: 'read', entityType: 'token', entityId: 'queued-1' },
      { tenantId: tenant, operation: 'read', entityType: 'token', entityId: 'queued-2' },
    );
    const closing = ctx.module.close();
    await expect(queued).resolves.toBeUndefined();
    await closing;
    const { rows } = await ctx.sql.query(`SELECT entity_id FROM audit_events WHERE tenant_id = $1 ORDER BY entity_id`, [tenant]);
    expect(rows).toEqual([{ entity_id: 'queued-1' }, { entity_id: 'queued-2' }]);
  });
});
