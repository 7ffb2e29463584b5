import type { Prisma, SqlPool } from '@coffer/db';
import { metricsRegistry } from '@coffer/observability';
import { LagMetrics } from './lag-metrics';

describe('the lag gauges', () => {
  it('report what PostgreSQL computes when /metrics is scraped, and keep the last value when it cannot answer', async () => {
    const answers = { event_outbox: 42.5, webhook_deliveries: 7 };
    let down = false;
    const sql = {
      query: async (statement: Prisma.Sql) => {
        if (down) throw new Error('connection refused');
        return [{ v: statement.text.includes('webhook_deliveries') ? answers.webhook_deliveries : answers.event_outbox }];
      },
    } as unknown as SqlPool;
    new LagMetrics(sql).onModuleInit();
    let text = await metricsRegistry.metrics();
    expect(text).toMatch(/^coffer_event_outbox_oldest_age_seconds 42\.5$/m);
    expect(text).toMatch(/^coffer_webhook_oldest_due_age_seconds 7$/m);
    down = true;
    text = await metricsRegistry.metrics();
    expect(text).toMatch(/^coffer_event_outbox_oldest_age_seconds 42\.5$/m);
  });
});
