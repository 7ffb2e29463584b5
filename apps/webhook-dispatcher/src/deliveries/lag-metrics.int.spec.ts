import { randomUUID } from 'node:crypto';
import { metricsRegistry } from '@coffer/observability';
import { insertTenant, startIntegration, type IntegrationContext } from '@coffer/testing/integration';
import { LagMetrics } from './lag-metrics';

/**
 * The lag gauges' statements on PostgreSQL: the outbox's oldest event, and the oldest delivery that is due — not one
 * a worker holds, not one whose retry time has not come, not one of a suspended tenant.
 */
describe('the lag gauges (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  beforeAll(async () => {
    ctx = await startIntegration({ providers: [LagMetrics] });
  });
  afterAll(() => ctx?.close());

  const gauge = async (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(await metricsRegistry.metrics())?.[1]);

  it('are 0 with nothing waiting', async () => {
    expect(await gauge('coffer_event_outbox_oldest_age_seconds')).toBe(0);
    expect(await gauge('coffer_webhook_oldest_due_age_seconds')).toBe(0);
  });

  it('report the age of the oldest event and of the oldest due delivery', async () => {
    const tenant = await insertTenant(ctx.sql);
    const suspended = await insertTenant(ctx.sql);
    await ctx.sql.query(`UPDATE tenants SET suspended_at = now() WHERE id = $1`, [suspended]);
    await ctx.sql.query(
      `INSERT INTO event_outbox (id, tenant_id, type, event, created_at) VALUES ($1, $2, 'token.created', '{}', now() - interval '90 seconds')`,
      [randomUUID(), tenant],
    );
    const delivery = (tenantId: string, dueSecondsAgo: number, lockedSeconds = 0) =>
      ctx.sql.query(
        `INSERT INTO webhook_deliveries (id, tenant_id, url, status, next_attempt_at, locked_until)
         VALUES ($1, $2, 'https://example.com/hook', 'pending', now() - make_interval(secs => $3), CASE WHEN $4::int > 0 THEN now() + make_interval(secs => $4) END)`,
        [randomUUID(), tenantId, dueSecondsAgo, lockedSeconds],
      );
    await delivery(tenant, 120); // due for two minutes: the one that counts
    await delivery(tenant, -600); // its retry is in ten minutes
    await delivery(tenant, 900, 60); // a worker holds it
    await delivery(suspended, 3600); // its tenant is suspended: the claims leave it alone

    expect(Math.round(await gauge('coffer_event_outbox_oldest_age_seconds'))).toBeGreaterThanOrEqual(90);
    expect(await gauge('coffer_event_outbox_oldest_age_seconds')).toBeLessThan(100);
    expect(Math.round(await gauge('coffer_webhook_oldest_due_age_seconds'))).toBeGreaterThanOrEqual(120);
    expect(await gauge('coffer_webhook_oldest_due_age_seconds')).toBeLessThan(130);
  });
});
