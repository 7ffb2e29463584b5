import { randomUUID } from 'node:crypto';
import { insertTenant, startIntegration, type IntegrationContext } from '@coffer/testing/integration';
import { DeliveryRepository, type ClaimedDelivery, type OutboxHold, type RelayedEvent } from './delivery.repository';
import { eventDeliveryId } from './delivery-id';

/**
 * webhook_deliveries and webhook_attempts against PostgreSQL: an event's deliveries as the relay finds them, queued
 * for the claims or handed off (first attempts recorded whole, with the event's outbox row), attempts settled together
 * in one statement.
 */
describe('DeliveryRepository (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let repo: DeliveryRepository;
  let tenant: string;
  let hookA: string;
  let hookB: string;

  const webhook = async (events: string[], status = 'enabled') => {
    const id = randomUUID();
    await ctx.sql.query(`INSERT INTO webhooks (id, tenant_id, name, url, events, status, created_by) VALUES ($1, $2, 'h', $3, $4, $5, $2)`, [
      id,
      tenant,
      `https://hooks.example.com/${id}`,
      events,
      status,
    ]);
    return id;
  };
  const outbox = async (type: string) => {
    const id = randomUUID();
    const event = JSON.stringify({ id, type, tenant_id: tenant, data: { n: 1 } });
    await ctx.sql.query('INSERT INTO event_outbox (id, tenant_id, type, event) VALUES ($1, $2, $3, $4::jsonb)', [id, tenant, type, event]);
    const { rows } = await ctx.sql.query('SELECT seq, id, tenant_id, type, event::text AS event FROM event_outbox WHERE id = $1', [id]);
    return rows[0] as RelayedEvent & { seq: string };
  };
  const row = async (id: string) =>
    (
      await ctx.sql.query(
        'SELECT status, attempts, locked_until IS NOT NULL AS leased, next_attempt_at <= now() AS due, last_error, last_status_code, last_duration_ms, delivered_at IS NOT NULL AS delivered, next_attempt_at > now() AS later FROM webhook_deliveries WHERE id = $1',
        [id],
      )
    ).rows[0];

  beforeAll(async () => {
    ctx = await startIntegration({ providers: [DeliveryRepository] });
    repo = ctx.get(DeliveryRepository);
    tenant = await insertTenant(ctx.sql);
    hookA = await webhook(['token.created', 'token.deleted']);
    hookB = await webhook(['token.created']);
    await webhook(['token.created'], 'disabled');
  });
  afterAll(() => ctx?.close());
  beforeEach(async () => {
    await ctx.sql.query('DELETE FROM webhook_attempts; DELETE FROM webhook_deliveries; DELETE FROM event_outbox');
  });

  /** What the relay hands off: each event's deliveries as first attempts, holding the event's outbox row. */
  const handedOff = async (events: RelayedEvent[]) => {
    const released: string[] = [];
    const out: ClaimedDelivery[] = [];
    for (const { event, deliveries } of await repo.deliveriesOf(events)) {
      const hold: OutboxHold = { seq: String(event.seq), remaining: deliveries.length, release: () => released.push(String(event.seq)) };
      for (const d of deliveries) out.push({ ...d, attempts: 1, created_at: new Date(), handedOff: { hold, event_id: d.event_id, event_type: d.event_type } });
    }
    return { deliveries: out, released };
  };
  const inOutbox = async () => (await ctx.sql.query('SELECT id FROM event_outbox ORDER BY seq')).rows.map((r) => r.id as string);

  it("finds an event's deliveries: one per enabled webhook subscribed to its type, with ids derived from the event and the webhook", async () => {
    const created = await outbox('token.created');
    const deleted = await outbox('token.deleted');
    const found = await repo.deliveriesOf([created, deleted]);
    expect(found.map((f) => f.event.id)).toEqual([created.id, deleted.id]);
    expect(new Set(found[0].deliveries.map((d) => d.webhook_id))).toEqual(new Set([hookA, hookB]));
    expect(found[1].deliveries.map((d) => d.webhook_id)).toEqual([hookA]);
    for (const { event, deliveries } of found)
      for (const d of deliveries) {
        expect(d).toEqual({
          id: eventDeliveryId(event.id, d.webhook_id),
          tenant_id: tenant,
          url: `https://hooks.example.com/${d.webhook_id}`,
          body: event.event,
          webhook_id: d.webhook_id,
          event_id: event.id,
          event_type: event.type,
        });
        expect(d.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      }
    // the same event and webhook always give the same id (a relay that reads the event again after a crash)
    expect((await repo.deliveriesOf([created]))[0].deliveries.map((d) => d.id)).toEqual(found[0].deliveries.map((d) => d.id));
    expect(eventDeliveryId(created.id, hookA)).not.toBe(eventDeliveryId(created.id, hookB));
  });

  it('queues deliveries for the claims: due now, unattempted; one already recorded keeps its row', async () => {
    const created = await outbox('token.created');
    const [{ deliveries }] = await repo.deliveriesOf([created]);
    await repo.queueAndRemove(deliveries, []);
    await repo.queueAndRemove(deliveries, []);
    const claimed = await repo.claim(10, 10);
    expect(claimed.map((d) => d.id).sort()).toEqual(deliveries.map((d) => d.id).sort());
    expect(claimed.every((d) => d.attempts === 1 && d.body === created.event && d.url?.startsWith('https://hooks.example.com/'))).toBe(true);
  });

  it("settles a relay batch in one statement: the deliveries queued and the events' outbox rows deleted, or neither", async () => {
    const created = await outbox('token.created');
    const unheard = await outbox('token.updated');
    const [{ deliveries }] = await repo.deliveriesOf([created]);
    const left = async () => (await ctx.sql.query('SELECT id FROM event_outbox ORDER BY seq')).rows.map((r) => r.id);
    // a delivery the statement cannot store (no URL) fails it whole: nothing queued, nothing deleted
    const broken = { ...deliveries[0], id: randomUUID(), url: null as unknown as string };
    await expect(repo.queueAndRemove([...deliveries, broken], [created.seq, unheard.seq])).rejects.toThrow();
    expect(await left()).toEqual([created.id, unheard.id]);
    expect((await ctx.sql.query('SELECT count(*)::int AS n FROM webhook_deliveries')).rows[0].n).toBe(0);
    await repo.queueAndRemove(deliveries, [created.seq, unheard.seq]);
    expect(await left()).toEqual([]);
    expect((await repo.claim(10, 10)).map((d) => d.id).sort()).toEqual(deliveries.map((d) => d.id).sort());
    // only events to delete: no delivery queued
    const another = await outbox('token.deleted');
    await repo.queueAndRemove([], [another.seq]);
    expect(await left()).toEqual([]);
  });

  it('records handed-off first attempts whole, and deletes the event from the outbox with the last of its deliveries', async () => {
    const created = await outbox('token.created');
    const deleted = await outbox('token.deleted');
    const { deliveries, released } = await handedOff([created, deleted]);
    const [a, b, c] = deliveries;
    expect([a, b, c].map((d) => d.handedOff?.event_id)).toEqual([created.id, created.id, deleted.id]);
    // nothing is written before an attempt ends: no claim can take them
    expect(await repo.claim(10, 10)).toEqual([]);
    await repo.settle(a, { statusCode: 204, durationMs: 12.4 }, { status: 'delivered' });
    expect(await row(a.id)).toMatchObject({ status: 'delivered', attempts: 1, leased: false, last_status_code: 204, last_duration_ms: 12, delivered: true });
    // created has a delivery still under way: it stays in the outbox (a crash now would relay it again)
    expect(await inOutbox()).toEqual([created.id, deleted.id]);
    expect(released).toEqual([]);
    await Promise.all([
      repo.settle(
        b,
        { statusCode: 503, durationMs: 7, error: 'receiver answered 503' },
        { status: 'pending', retryInMs: 5000, error: 'receiver answered 503' },
      ),
      repo.settle(c, { durationMs: 3, error: 'connect ECONNREFUSED' }, { status: 'failed', error: 'connect ECONNREFUSED' }),
    ]);
    expect(await inOutbox()).toEqual([]);
    expect(released.sort()).toEqual([created.seq, deleted.seq].sort());
    expect(await row(b.id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      leased: false,
      last_error: 'receiver answered 503',
      last_status_code: 503,
      later: true,
    });
    expect(await row(c.id)).toMatchObject({ status: 'failed', attempts: 1, last_error: 'connect ECONNREFUSED', last_status_code: null, last_duration_ms: 3 });
    const attempts = await ctx.sql.query('SELECT delivery_id, attempt, status_code, error FROM webhook_attempts ORDER BY duration_ms DESC');
    expect(attempts.rows).toEqual([
      { delivery_id: b.id, attempt: 1, status_code: 503, error: 'receiver answered 503' },
      { delivery_id: c.id, attempt: 1, status_code: null, error: 'connect ECONNREFUSED' },
    ]);
    // the retried one is the claims' now, its second attempt counted
    await ctx.sql.query('UPDATE webhook_deliveries SET next_attempt_at = now() WHERE id = $1', [b.id]);
    const [again] = await repo.claim(10, 10);
    expect([again.id, again.attempts, again.body, again.handedOff]).toEqual([b.id, 2, created.event, undefined]);
    await repo.settle(again, { statusCode: 200, durationMs: 2 }, { status: 'delivered' });
    expect(await row(b.id)).toMatchObject({ status: 'delivered', attempts: 2, last_status_code: 200, last_error: null, delivered: true });
  });

  it('after a crash the event is handed off again with the same ids: a delivery recorded before keeps its first record', async () => {
    const created = await outbox('token.created');
    const before = await handedOff([created]);
    await repo.settle(before.deliveries[0], { statusCode: 204, durationMs: 5 }, { status: 'delivered' });
    // the process died before the second delivery was recorded; its successor reads the event again
    const after = await handedOff([created]);
    expect(after.deliveries.map((d) => d.id)).toEqual(before.deliveries.map((d) => d.id));
    await Promise.all(
      after.deliveries.map((d) =>
        repo.settle(
          d,
          { statusCode: 500, durationMs: 9, error: 'receiver answered 500' },
          { status: 'pending', retryInMs: 1000, error: 'receiver answered 500' },
        ),
      ),
    );
    expect(await row(before.deliveries[0].id)).toMatchObject({ status: 'delivered', last_status_code: 204 });
    expect(await row(before.deliveries[1].id)).toMatchObject({ status: 'pending', last_status_code: 500 });
    // an attempt row only for the delivery this record inserted
    expect((await ctx.sql.query('SELECT delivery_id FROM webhook_attempts')).rows).toEqual([{ delivery_id: before.deliveries[1].id }]);
    expect(await inOutbox()).toEqual([]);
    expect(after.released).toEqual([created.seq]);
  });

  it('records handed-off deliveries given back unattempted as the claims’ work: due now, attempt 0, no attempt row', async () => {
    const created = await outbox('token.created');
    const { deliveries, released } = await handedOff([created]);
    await repo.recordUnattempted(deliveries);
    for (const d of deliveries) expect(await row(d.id)).toMatchObject({ status: 'pending', attempts: 0, leased: false, due: true, last_error: null });
    expect(released).toEqual([created.seq]);
    expect(await inOutbox()).toEqual([]);
    expect((await ctx.sql.query('SELECT count(*)::int AS n FROM webhook_attempts')).rows[0].n).toBe(0);
    expect((await repo.claim(10, 10)).map((d) => d.attempts)).toEqual([1, 1]);
  });

  it('a failed record gives the events back to the relay, and leaves them in the outbox', async () => {
    const created = await outbox('token.created');
    const { deliveries, released } = await handedOff([created]);
    // a value PostgreSQL refuses (a NUL byte in text) makes the whole statement fail
    const broken = { ...deliveries[0], url: 'https://x\u0000y' };
    await expect(repo.settle(broken, { statusCode: 204, durationMs: 1 }, { status: 'delivered' })).rejects.toThrow();
    expect(released).toEqual([created.seq]);
    expect(await inOutbox()).toEqual([created.id]);
    expect((await ctx.sql.query('SELECT count(*)::int AS n FROM webhook_deliveries')).rows[0].n).toBe(0);
  });

  /** `n` deliveries of `tenantId` due now, queued for the claims, oldest first; their ids. */
  const due = async (tenantId: string, n: number) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const id = randomUUID();
      await ctx.sql.query(
        `INSERT INTO webhook_deliveries (id, tenant_id, url, body, created_at, next_attempt_at) VALUES ($1, $2, 'https://r.example.com/', '{}', now(), now() - make_interval(secs => $3::int))`,
        [id, tenantId, 1000 - i],
      );
      ids.push(id);
    }
    return ids;
  };

  it('claims round robin over tenants, at most the given number of each, none of the busy ones', async () => {
    const other = await insertTenant(ctx.sql);
    const third = await insertTenant(ctx.sql);
    const backlog = await due(tenant, 20);
    const few = await due(other, 1);
    const busy = await due(third, 3);
    // the backlog is older than the others' deliveries, yet takes only its share of the round
    const claimed = await repo.claim(4, 2, [third]);
    expect(claimed.map((d) => d.id).sort()).toEqual([backlog[0], backlog[1], few[0]].sort());
    const rest = await repo.claim(100, 100);
    expect(rest.map((d) => d.id).sort()).toEqual([...backlog.slice(2), ...busy].sort());
  });

  it("leaves a suspended tenant's deliveries queued, untouched, and claims them once it is resumed", async () => {
    const suspended = await insertTenant(ctx.sql);
    const waiting = await due(suspended, 2);
    const other = await due(tenant, 1);
    await ctx.sql.query('UPDATE tenants SET suspended_at = now() WHERE id = $1', [suspended]);
    expect((await repo.claim(10, 10)).map((d) => d.id)).toEqual(other);
    for (const id of waiting) expect(await row(id)).toMatchObject({ status: 'pending', attempts: 0, leased: false, due: true });
    // the relay sees it too, and queues the tenant's new events' deliveries instead of handing them off
    const hook = randomUUID();
    await ctx.sql.query(`INSERT INTO webhooks (id, tenant_id, name, url, events, created_by) VALUES ($1, $2, 'h', 'https://s.example.com/', $3, $2)`, [
      hook,
      suspended,
      ['token.created'],
    ]);
    const event = { seq: '1', id: randomUUID(), tenant_id: suspended, type: 'token.created', event: '{}' };
    expect((await repo.deliveriesOf([event]))[0]).toMatchObject({ suspended: true, deliveries: [{ webhook_id: hook }] });
    expect((await repo.deliveriesOf([{ ...event, tenant_id: tenant }]))[0].suspended).toBe(false);
    await ctx.sql.query('UPDATE tenants SET suspended_at = NULL WHERE id = $1', [suspended]);
    expect((await repo.claim(10, 10)).map((d) => d.id).sort()).toEqual([...waiting].sort());
  });

  it('gives a claimed delivery back unattempted (a receiver left alone): the claim’s count undone, due later, its last attempt kept', async () => {
    const [id] = await due(tenant, 1);
    const [first] = await repo.claim(10, 10);
    await repo.settle(
      first,
      { statusCode: 503, durationMs: 4, error: 'receiver answered 503' },
      { status: 'pending', retryInMs: 0, error: 'receiver answered 503' },
    );
    const [second] = await repo.claim(10, 10);
    expect(second.attempts).toBe(2);
    await repo.recordUnattempted([second], 30_000, 'not attempted');
    expect(await row(id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      leased: false,
      later: true,
      last_error: 'not attempted',
      last_status_code: 503,
      last_duration_ms: 4,
    });
    expect((await ctx.sql.query('SELECT attempt FROM webhook_attempts WHERE delivery_id = $1', [id])).rows).toEqual([{ attempt: 1 }]);
  });

  it('settles many attempts at once, beyond one write’s batch', async () => {
    const events = await Promise.all(Array.from({ length: 150 }, () => outbox('token.created')));
    const { deliveries, released } = await handedOff(events);
    expect(deliveries).toHaveLength(300);
    await Promise.all(deliveries.map((d) => repo.settle(d, { statusCode: 200, durationMs: 1 }, { status: 'delivered' })));
    const counts = await ctx.sql.query(
      `SELECT (SELECT count(*)::int FROM webhook_deliveries WHERE status = 'delivered') AS delivered, (SELECT count(*)::int FROM webhook_attempts) AS attempts, (SELECT count(*)::int FROM event_outbox) AS outbox`,
    );
    expect(counts.rows[0]).toEqual({ delivered: 300, attempts: 0, outbox: 0 });
    expect(released).toHaveLength(150);
  });
});
