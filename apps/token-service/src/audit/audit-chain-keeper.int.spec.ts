import { randomUUID } from 'node:crypto';
import { AuditLog, CHANNELS } from '@coffer/db';
import { insertTenant, startIntegration, type IntegrationContext } from '@coffer/testing/integration';
import { AuditChainKeeper } from './audit-chain-keeper';

// the safety sweep an hour away: whatever the sealer does within seconds here, a wake-up made it do
process.env['AUDIT_SEAL_SWEEP_INTERVAL_MS'] = '3600000';
process.env['AUDIT_SEAL_INTERVAL_MS'] = '200';

/**
 * What wakes the audit sealer (issue 35: no polling), against PostgreSQL: records this service writes (AuditLog), and
 * the notification another service or the operator CLI sends once its records committed — each sealed within a
 * second or two, with the safety sweep an hour away.
 */
describe('AuditChainKeeper wake-ups (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let tenant: string;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const unsealed = async () =>
    (await ctx.sql.query('SELECT count(*)::int AS n FROM audit_unsealed u JOIN audit_events a ON a.id = u.event_id WHERE a.tenant_id = $1', [tenant])).rows[0]
      .n;
  async function sealedWithin(ms: number): Promise<void> {
    const started = Date.now();
    while (Date.now() - started < ms) {
      if ((await unsealed()) === 0) return;
      await sleep(50);
    }
    throw new Error(`not sealed within ${ms} ms`);
  }
  /** A record written as another service's AuditLog would, through the test's own pool (no signal from this process). */
  const foreignRecord = () =>
    ctx.sql.query(
      `INSERT INTO audit_events (id, tenant_id, actor_type, actor_id, operation, entity_type, entity_id) VALUES ($1, $2::uuid, 'operator', 'ops', 'update', 'tenant', $2::text)`,
      [randomUUID(), tenant],
    );

  beforeAll(async () => {
    ctx = await startIntegration({ providers: [AuditChainKeeper] });
    tenant = await insertTenant(ctx.sql);
    await sleep(500);
  });
  afterAll(() => ctx?.close());

  it('seals records this service wrote at once', async () => {
    await ctx.get(AuditLog).append({ tenantId: tenant, operation: 'create', entityType: 'application', entityId: randomUUID() });
    expect(await unsealed()).toBe(1);
    await sealedWithin(3_000);
  });

  it('leaves records nobody announced for the sweep, and seals them once notified', async () => {
    await foreignRecord();
    await sleep(800);
    expect(await unsealed()).toBe(1);
    await ctx.sql.query(`SELECT pg_notify($1, '')`, [CHANNELS.auditEvents]);
    await sealedWithin(3_000);
  });
});
