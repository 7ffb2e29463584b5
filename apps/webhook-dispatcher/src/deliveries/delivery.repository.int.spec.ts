import { randomUUID } from 'node:crypto';
import { PrismaService } from '@coffer/db';
import { insertTenant, startIntegration, type IntegrationContext } from '@coffer/testing/integration';
import { DeliveryRepository, type ClaimedDelivery } from './delivery.repository';

/**
 * webhook_deliveries and webhook_attempts against PostgreSQL: the relay's queueing (leased to the relaying process or
 * left for the claims), attempts settled together in one statement, leases given back.
 */
describe('DeliveryRepository (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let repo: DeliveryRepository;
  let prisma: PrismaService;
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
    const { rows } = await ctx.sql.query('SELECT seq, id, event::text AS event FROM event_outbox WHERE id = $1', [id]);
    return rows[0] as { seq: string; id: string; event: string };
  };
  const row = async (id: string) =>
    (
      await ctx.sql.query(
        'SELECT status, attempts, locked_until IS NOT NULL AS leased, last_error, last_status_code, last_duration_ms, delivered_at IS NOT NULL AS delivered, next_attempt_at > now() AS later FROM webhook_deliveries WHERE id = $1',
        [id],
      )
    ).rows[0];

  beforeAll(async () => {
    ctx = await startIntegration({ providers: [DeliveryRepository] });
    repo = ctx.get(DeliveryRepository);
    prisma = ctx.get(PrismaService);
    tenant = await insertTenant(ctx.sql);
    hookA = await webhook(['token.created', 'token.deleted']);
    hookB = await webhook(['token.created']);
    await webhook(['token.created'], 'disabled');
  });
  afterAll(() => ctx?.close());
  beforeEach(async () => {
    await ctx.sql.query('DELETE FROM webhook_attempts; DELETE FROM webhook_deliveries; DELETE FROM event_outbox');
  });

  it('queues leased deliveries: one per enabled webhook subscribed to the type, the first attempt counted, returned with the event as body', async () => {
    const created = await outbox('token.created');
    const deleted = await outbox('token.deleted');
    const queued = await prisma.transactional(() => repo.queueEvents([created, deleted], true));
    expect(queued).toHaveLength(3);
    expect(new Set(queued.map((d) => `${d.webhook_id} ${d.body}`))).toEqual(
      new Set([`${hookA} ${created.event}`, `${hookB} ${created.event}`, `${hookA} ${deleted.event}`]),
    );
    for (const d of queued) {
      expect(d).toMatchObject({ tenant_id: tenant, attempts: 1 });
      expect(d.url).toBe(`https://hooks.example.com/${d.webhook_id}`);
      expect(await row(d.id)).toMatchObject({ status: 'pending', attempts: 1, leased: true });
    }
    // leased: no claim takes them while the lease runs
    expect(await repo.claim(10)).toEqual([]);
  });

  it('queues unleased deliveries for the claims when the dispatcher has no room', async () => {
    const created = await outbox('token.created');
    expect(await prisma.transactional(() => repo.queueEvents([created], false))).toEqual([]);
    const claimed = await repo.claim(10);
    expect(claimed.map((d) => d.webhook_id).sort()).toEqual([hookA, hookB].sort());
    expect(claimed.every((d) => d.attempts === 1 && d.body === created.event)).toBe(true);
  });

  it('settles attempts that end together in one write: their states, and an attempt row for each that did not deliver', async () => {
    const created = await outbox('token.created');
    const deleted = await outbox('token.deleted');
    const [a, b, c] = await prisma.transactional(() => repo.queueEvents([created, deleted], true));
    await Promise.all([
      repo.settle(a, { statusCode: 204, durationMs: 12.4 }, { status: 'delivered' }),
      repo.settle(
        b,
        { statusCode: 503, durationMs: 7, error: 'receiver answered 503' },
        { status: 'pending', retryInMs: 5000, error: 'receiver answered 503' },
      ),
      repo.settle(c, { durationMs: 3, error: 'connect ECONNREFUSED' }, { status: 'failed', error: 'connect ECONNREFUSED' }),
    ]);
    expect(await row(a.id)).toMatchObject({
      status: 'delivered',
      leased: false,
      last_error: null,
      last_status_code: 204,
      last_duration_ms: 12,
      delivered: true,
      later: false,
    });
    expect(await row(b.id)).toMatchObject({
      status: 'pending',
      leased: false,
      last_error: 'receiver answered 503',
      last_status_code: 503,
      delivered: false,
      later: true,
    });
    expect(await row(c.id)).toMatchObject({
      status: 'failed',
      leased: false,
      last_error: 'connect ECONNREFUSED',
      last_status_code: null,
      last_duration_ms: 3,
      delivered: false,
    });
    const attempts = await ctx.sql.query(
      'SELECT delivery_id, tenant_id, attempt, status_code, duration_ms, error FROM webhook_attempts ORDER BY duration_ms DESC',
    );
    // the attempt that delivered is on its delivery only; those that did not deliver have their rows
    expect(attempts.rows).toEqual([
      { delivery_id: b.id, tenant_id: tenant, attempt: 1, status_code: 503, duration_ms: 7, error: 'receiver answered 503' },
      { delivery_id: c.id, tenant_id: tenant, attempt: 1, status_code: null, duration_ms: 3, error: 'connect ECONNREFUSED' },
    ]);
    // the retried one comes back to a claim once due, its second attempt counted
    await ctx.sql.query('UPDATE webhook_deliveries SET next_attempt_at = now() WHERE id = $1', [b.id]);
    expect((await repo.claim(10)).map((d: ClaimedDelivery) => [d.id, d.attempts])).toEqual([[b.id, 2]]);
  });

  it('settles many attempts at once, beyond one write’s batch', async () => {
    const events = await Promise.all(Array.from({ length: 150 }, () => outbox('token.created')));
    const queued = await prisma.transactional(() => repo.queueEvents(events, true));
    expect(queued).toHaveLength(300);
    await Promise.all(queued.map((d) => repo.settle(d, { statusCode: 200, durationMs: 1 }, { status: 'delivered' })));
    const counts = await ctx.sql.query(
      `SELECT (SELECT count(*)::int FROM webhook_deliveries WHERE status = 'delivered') AS delivered, (SELECT count(*)::int FROM webhook_attempts) AS attempts`,
    );
    expect(counts.rows[0]).toEqual({ delivered: 300, attempts: 0 });
  });

  it('gives leases back: the attempt uncounted, claimable at once; a finished delivery or another claim’s lease is left alone', async () => {
    const created = await outbox('token.created');
    const deleted = await outbox('token.deleted');
    const [a, b, c] = await prisma.transactional(() => repo.queueEvents([created, deleted], true));
    await repo.settle(b, { statusCode: 204, durationMs: 1 }, { status: 'delivered' });
    // c's lease ran out and another replica claimed it (its second attempt)
    await ctx.sql.query(`UPDATE webhook_deliveries SET locked_until = now() - interval '1 second' WHERE id = $1`, [c.id]);
    const [again] = await repo.claim(10);
    expect([again.id, again.attempts]).toEqual([c.id, 2]);
    await repo.release([a, b, c]);
    expect(await row(a.id)).toMatchObject({ status: 'pending', attempts: 0, leased: false });
    expect(await row(b.id)).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(await row(c.id)).toMatchObject({ status: 'pending', attempts: 2, leased: true });
    expect((await repo.claim(10)).map((d) => [d.id, d.attempts])).toEqual([[a.id, 1]]);
  });
});
