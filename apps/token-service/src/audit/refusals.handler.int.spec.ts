import { RefusalsMessage, validateContract } from '@coffer/contracts';
import { metricsRegistry } from '@coffer/observability';
import type { Command } from '@coffer/operations';
import { insertTenant, startIntegration, type IntegrationContext } from '@coffer/testing/integration';
import { RefusalsHandler } from './refusals.handler';

const GLOBAL = '00000000-0000-0000-0000-000000000000';

async function dropped(): Promise<number> {
  const metric = (await metricsRegistry.getMetricsAsJSON()).find((m) => m.name === 'coffer_audit_refusals_dropped_total');
  return (metric?.values ?? []).reduce((n, v) => n + Number(v.value), 0);
}

/**
 * token.audit.refusals as the dispatcher runs it (the operation's contract, RefusalsMessage, then the handler) on PostgreSQL: one
 * window that cannot be stored is dropped and counted, never the batch (issue 34: one such window made the gateway
 * re-send its batch for ever, and no refusal was recorded after it).
 */
describe('RefusalsHandler (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let handler: RefusalsHandler;
  let tenant: string;

  beforeAll(async () => {
    ctx = await startIntegration({ providers: [RefusalsHandler] });
    handler = ctx.get(RefusalsHandler);
    tenant = await insertTenant(ctx.sql);
  });
  afterAll(() => ctx?.close());

  const run = (body: unknown) => handler.onRefusals({ body: validateContract(RefusalsMessage, body), traceId: 'audit-refusals' } as Command<RefusalsMessage>);

  it('stores the good windows of a batch and drops, and counts, each window that cannot be stored', async () => {
    const windowStart = '2026-11-28T01:02:00.000Z';
    const before = await dropped();
    const out = await run({
      windows: [
        { reason: 'missing_key', source: '198.51.100.1', windowStart, count: 2 },
        { reason: 'missing_key', source: `=cmd|' /C calc'!A0,${'9'.repeat(8_000)}`, windowStart, count: 1 },
        { reason: 'missing_key', source: '198.51.100.2', windowStart, count: 1, traceId: 'x'.repeat(129) },
        { reason: 'forbidden', source: '198.51.100.3', windowStart, count: 1, tenantId: 'not-a-uuid' },
        { reason: 'guessing', source: '198.51.100.4', windowStart, count: 1 },
        { reason: 'missing_key', source: 'bad\u0000source', windowStart, count: 1 },
        'not a window',
        { reason: 'forbidden', source: '198.51.100.5', windowStart, count: 3, tenantId: tenant, traceId: `t${'a'.repeat(127)}` },
      ],
    });
    expect(out).toEqual({ windows: 2 });
    expect(await dropped()).toBe(before + 6);
    const { rows } = await ctx.sql.query(
      `SELECT tenant_id::text, entity_id, source, actor_id, count, trace_id FROM audit_events WHERE operation = 'refuse' ORDER BY source`,
    );
    expect(rows).toEqual([
      { tenant_id: GLOBAL, entity_id: 'missing_key', source: '198.51.100.1', actor_id: '198.51.100.1', count: 2, trace_id: null },
      { tenant_id: tenant, entity_id: 'forbidden', source: '198.51.100.5', actor_id: '198.51.100.5', count: 3, trace_id: `t${'a'.repeat(127)}` },
    ]);
  });

  it('a batch with no window that can be stored is answered, not refused (the gateway must not send it again)', async () => {
    await expect(run({ windows: [{ reason: 'missing_key', source: 'x'.repeat(101), windowStart: 'yesterday', count: 0 }] })).resolves.toEqual({
      windows: 0,
    });
  });
});
