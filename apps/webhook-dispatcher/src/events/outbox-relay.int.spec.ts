import { randomUUID } from 'node:crypto';
import { CHANNELS, EventOutbox, PgListener, Prisma, PrismaService, SqlPool, outboxInsert } from '@coffer/db';
import { insertTenant, startIntegration, type IntegrationContext } from '@coffer/testing/integration';
import { DeliveryRepository } from '../deliveries/delivery.repository';
import { DispatcherService } from '../deliveries/dispatcher.service';
import { EventStream } from './event-stream';
import { OutboxRelay } from './outbox-relay';
import { RelayLeadership } from './relay-leadership';

// the safety sweep an hour away: whatever the relay does within seconds here, a wake-up made it do
process.env['EVENT_RELAY_INTERVAL_MS'] = '3600000';

/**
 * What wakes the outbox relay (issue 35: no polling), against PostgreSQL: the notification a writer sends once its
 * events committed — from a unit of work, and from a statement of its own (SqlPool) — reaches the relay through its
 * LISTEN connection, and it relays at once although its sweep is an hour away; a follower waiting for the relay lock
 * takes over the moment the leader lets go; resuming a tenant notifies the workers its queued work waits for.
 */
describe('OutboxRelay wake-ups (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let tenant: string;
  const published: string[] = [];
  const stream = { publish: async (events: Array<{ id: string }>) => void published.push(...events.map((e) => e.id)) };
  const dispatcher = { handOffBudget: () => ({ take: () => true }), handOff: () => undefined, wake: () => undefined, drain: async () => undefined };

  const event = (type = 'token.created') => ({ id: randomUUID(), type, tenant_id: tenant, data: { token: { id: 't' } } });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  async function within(ms: number, check: () => boolean | Promise<boolean>): Promise<number> {
    const started = Date.now();
    while (Date.now() - started < ms) {
      if (await check()) return Date.now() - started;
      await sleep(20);
    }
    throw new Error(`not within ${ms} ms`);
  }

  beforeAll(async () => {
    ctx = await startIntegration({ providers: [OutboxRelay, RelayLeadership, DeliveryRepository, DispatcherService, EventStream] }, [
      { provide: EventStream, useValue: stream },
      { provide: DispatcherService, useValue: dispatcher },
    ]);
    tenant = await insertTenant(ctx.sql);
    // the relay took the lock and swept once at start; from now on it sleeps until woken
    await within(5_000, () => ctx.get(RelayLeadership).held);
    await sleep(300);
  });
  afterAll(() => ctx?.close());

  it('relays an event committed in a unit of work at once: its commit notifies the relay', async () => {
    const e = event();
    await ctx.get(PrismaService).transactional(() => ctx.get(EventOutbox).record([e]));
    const ms = await within(3_000, () => published.includes(e.id));
    expect(ms).toBeLessThan(3_000);
    // relayed (nobody subscribed): the row is gone
    await within(3_000, async () => (await ctx.sql.query('SELECT 1 FROM event_outbox WHERE id = $1', [e.id])).rowCount === 0);
  });

  it('relays an event written by a statement of its own (the token create path) at once', async () => {
    const e = event();
    await ctx.get(SqlPool).query(Prisma.sql`WITH t AS (SELECT 1) ${outboxInsert([e], Prisma.raw('t'))}`);
    await within(3_000, () => published.includes(e.id));
  });

  it('does not relay before the commit, and never an event rolled back', async () => {
    const kept = event();
    const dropped = event();
    await ctx
      .get(PrismaService)
      .transactional(async () => {
        await ctx.get(EventOutbox).record([dropped]);
        await sleep(300);
        expect(published).not.toContain(dropped.id);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await ctx.get(PrismaService).transactional(() => ctx.get(EventOutbox).record([kept]));
    await within(3_000, () => published.includes(kept.id));
    expect(published).not.toContain(dropped.id);
  });

  it('notifies the workers when a suspended tenant is resumed (and not when it is suspended)', async () => {
    let heard = 0;
    await ctx.get(PgListener).on(CHANNELS.tenantResumed, () => heard++);
    // the handler is called once as it is added (nothing was heard while nobody listened): count from here
    await sleep(100);
    const before = heard;
    await ctx.sql.query('UPDATE tenants SET suspended_at = now() WHERE id = $1', [tenant]);
    await sleep(300);
    expect(heard).toBe(before);
    await ctx.sql.query('UPDATE tenants SET suspended_at = NULL WHERE id = $1', [tenant]);
    await within(3_000, () => heard === before + 1);
  });

  it('a follower waiting for the relay lock takes over as soon as the leader lets go', async () => {
    const follower = new RelayLeadership();
    let led = 0;
    follower.start(() => led++);
    try {
      await sleep(500);
      expect(led).toBe(0);
      expect(follower.held).toBe(false);
      await ctx.get(RelayLeadership).release();
      const ms = await within(3_000, () => led === 1);
      expect(ms).toBeLessThan(3_000);
      expect(follower.held).toBe(true);
    } finally {
      await follower.release();
    }
  });
});
