import { Injectable } from '@nestjs/common';
import { webhookBodyAad, type WebhookDeliveryView } from '@coffer/contracts';
import { TenantKeyring } from '@coffer/crypto/keyring';
import { CHANNELS, Prisma, PrismaService, SqlPool, deliveryQueuedAgain, tenantNotSuspended } from '@coffer/db';
import { eventDeliveryId } from './delivery-id';

export interface ClaimedDelivery {
  id: string;
  tenant_id: string;
  /** null: an event delivery whose webhook was deleted since */
  url: string | null;
  /** the JSON body to send, decrypted for this attempt only (stored sealed) */
  body: string;
  attempts: number;
  created_at: Date;
  /** an event delivery: its subscription (null: an asynchronous reactor result); `body` is then the event */
  webhook_id: string | null;
  /**
   * A first attempt the relay handed off: no row exists for it yet. Its outcome is recorded by an INSERT of the
   * whole row, and its event leaves the outbox once every delivery of it is recorded.
   */
  handedOff?: { hold: OutboxHold; event_id: string; event_type: string };
  /** W3C trace context of the request that wrote the event (a handed-off first attempt, tracing on) */
  traceparent?: string;
}

/**
 * An outbox row kept while the first attempts of its event's deliveries run (OutboxRelay): until they are recorded
 * the event itself is what would deliver them again after a crash.
 */
export interface OutboxHold {
  readonly seq: string;
  /** deliveries of the event not yet recorded */
  remaining: number;
  /**
   * The relay may read the row again: it was deleted with the record of the event's last delivery, or a record
   * failed and the event must deliver again (with the same ids).
   */
  release(): void;
}

/** An event's delivery to one webhook, as the relay finds it. */
export interface EventDelivery {
  id: string;
  tenant_id: string;
  url: string;
  /** the event object as JSON */
  body: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
}

interface StoredDelivery extends Omit<ClaimedDelivery, 'body'> {
  /** rows queued before bodies were sealed */
  body: string | null;
  body_ciphertext: Uint8Array | null;
  body_key_id: string | null;
}

/** What an attempt leaves: delivered, pending again (retried after `retryInMs`) or failed for good. */
export type DeliveryOutcome = { status: 'delivered' } | { status: 'pending'; retryInMs: number; error: string } | { status: 'failed'; error: string };

/** How long a claimed delivery is leased: longer than one attempt (WEBHOOK_ATTEMPT_TIMEOUT_MS, 30 s at most), so two replicas never overlap. */
export const LEASE_SECONDS = 60;
/** Attempts' outcomes written in one statement: at most this many, at most SETTLE_GATHER_MS after the first one. */
const SETTLE_BATCH = 256;
const SETTLE_GATHER_MS = 20;

/** One attempt: its HTTP status (none when the exchange failed), how long it took, what went wrong. */
export interface AttemptRecord {
  statusCode?: number;
  durationMs: number;
  error?: string;
}

interface Settling {
  d: ClaimedDelivery;
  /** null: a handed-off delivery given back unattempted */
  a: AttemptRecord | null;
  outcome: DeliveryOutcome;
  done: () => void;
  fail: (err: unknown) => void;
}

/** An event row the relay takes from the outbox (the `event` object as JSON). */
export interface RelayedEvent {
  seq: bigint | string;
  id: string;
  tenant_id: string;
  type: string;
  event: string;
  traceparent?: string | null;
}

/**
 * webhook_deliveries and webhook_attempts (owned by webhook-dispatcher; reactor-service only inserts new
 * deliveries, in the transaction that stores a job's result). A claim takes the row with FOR UPDATE SKIP LOCKED,
 * counts the attempt and leases it; a process that dies mid-delivery loses its lease and the delivery is retried
 * with the same webhook-id (at least once). The statements of the delivery path run on the plain pg pool
 * (SqlPool: a fraction of Prisma's CPU per statement), prepared.
 */
@Injectable()
export class DeliveryRepository {
  private settling: Settling[] = [];
  private settleTimer?: NodeJS.Timeout;
  private flushing?: Promise<void>;

  constructor(
    private readonly prisma: PrismaService,
    private readonly sql: SqlPool,
    private readonly keyring: TenantKeyring,
  ) {}

  /**
   * Due deliveries, leased to this process: at most `perTenant` of each tenant, taken round robin (each tenant's
   * oldest first, then the next of each), none of the tenants in `busy` (they have their share under way here
   * already) and none of a suspended tenant (its deliveries wait, untouched, until it is resumed). So a tenant with
   * a backlog of retries cannot fill a round and hold back the others' deliveries (docs/events.md, "Fair delivery").
   */
  async claim(limit: number, perTenant: number, busy: readonly string[] = []): Promise<ClaimedDelivery[]> {
    // an event delivery goes to its webhook's current URL (an update since the event applies); one whose webhook was
    // deleted is claimed with no URL and marked failed by the dispatcher. FOR UPDATE cannot sit beside the window
    // function: the ranked candidates are locked (and checked again) by the outer select.
    const rows = await this.sql.query<StoredDelivery>(
      Prisma.sql`
      UPDATE webhook_deliveries d SET attempts = d.attempts + 1, locked_until = now() + make_interval(secs => ${LEASE_SECONDS}::int)
      FROM (
        SELECT w.id FROM webhook_deliveries w
        WHERE w.id IN (
          SELECT ranked.id FROM (
            SELECT p.id, p.next_attempt_at, row_number() OVER (PARTITION BY p.tenant_id ORDER BY p.next_attempt_at) AS turn
            FROM webhook_deliveries p
            WHERE p.status = 'pending' AND p.next_attempt_at <= now() AND (p.locked_until IS NULL OR p.locked_until < now())
              AND p.tenant_id <> ALL (${busy}::uuid[]) AND ${tenantNotSuspended(Prisma.raw('p.tenant_id'))}
          ) ranked
          WHERE ranked.turn <= ${perTenant}::int
          ORDER BY ranked.turn, ranked.next_attempt_at LIMIT ${limit}::int
        )
        AND w.status = 'pending' AND (w.locked_until IS NULL OR w.locked_until < now())
        FOR UPDATE SKIP LOCKED
      ) due
      WHERE d.id = due.id
      RETURNING d.id, d.tenant_id,
        CASE WHEN d.webhook_id IS NULL THEN d.url ELSE (SELECT w.url FROM webhooks w WHERE w.tenant_id = d.tenant_id AND w.id = d.webhook_id) END AS url,
        d.body, d.body_ciphertext, d.body_key_id, d.attempts, d.created_at, d.webhook_id`,
      'webhook_deliveries_claim',
    );
    return Promise.all(rows.map((row) => this.opened(row)));
  }

  /**
   * Each event's deliveries: one per enabled webhook of its tenant subscribed to its type; `suspended` when its
   * tenant is (the relay then queues them for the claims, which leave them until the tenant is resumed).
   */
  async deliveriesOf(events: readonly RelayedEvent[]): Promise<Array<{ event: RelayedEvent; deliveries: EventDelivery[]; suspended: boolean }>> {
    const tenants = [...new Set(events.map((e) => e.tenant_id))];
    const hooks = await this.sql.query<{ id: string; tenant_id: string; url: string; events: string[]; suspended: boolean }>(
      Prisma.sql`SELECT id, tenant_id, url, events, NOT ${tenantNotSuspended(Prisma.raw('webhooks.tenant_id'))} AS suspended
        FROM webhooks WHERE status = 'enabled' AND tenant_id = ANY (${tenants}::uuid[])`,
    );
    return events.map((event) => ({
      event,
      suspended: hooks.some((w) => w.tenant_id === event.tenant_id && w.suspended),
      deliveries: hooks
        .filter((w) => w.tenant_id === event.tenant_id && w.events.includes(event.type))
        .map((w) => ({
          id: eventDeliveryId(event.id, w.id),
          tenant_id: w.tenant_id,
          url: w.url,
          body: event.event,
          webhook_id: w.id,
          event_id: event.id,
          event_type: event.type,
        })),
    }));
  }

  /**
   * The relay's settlement of a batch, in one statement: `deliveries` queued for the claims (due now, unattempted; one
   * the relay had recorded before a crash keeps its row) and the outbox rows `seqs` deleted, together or not at all.
   */
  async queueAndRemove(deliveries: readonly EventDelivery[], seqs: readonly string[]): Promise<void> {
    if (!deliveries.length && !seqs.length) return;
    await this.sql.query(Prisma.sql`
      WITH queued AS (
        INSERT INTO webhook_deliveries (id, tenant_id, url, body, webhook_id, event_id, event_type, created_at)
        SELECT v.*, now() FROM unnest(${deliveries.map((d) => d.id)}::uuid[], ${deliveries.map((d) => d.tenant_id)}::uuid[],
          ${deliveries.map((d) => d.url)}::text[], ${deliveries.map((d) => d.body)}::text[], ${deliveries.map((d) => d.webhook_id)}::uuid[],
          ${deliveries.map((d) => d.event_id)}::uuid[], ${deliveries.map((d) => d.event_type)}::text[])
          AS v(id, tenant_id, url, body, webhook_id, event_id, event_type)
        ON CONFLICT (id) DO NOTHING
      )
      DELETE FROM event_outbox WHERE seq = ANY (${seqs}::bigint[])`);
  }

  /**
   * Records deliveries this process will not attempt now as the claims' work, without using up an attempt: due
   * after `retryInMs` (0 when it is shutting down; a receiver's cool-down when its breaker is open), with `why` as
   * their last error (none: the last one stays). A handed-off one gets its row; a claimed one its lease released.
   */
  recordUnattempted(deliveries: readonly ClaimedDelivery[], retryInMs = 0, why = ''): Promise<void> {
    return Promise.all(deliveries.map((d) => this.settle(d, null, { status: 'pending', retryInMs, error: why }))).then(() => undefined);
  }

  private async opened({ body_ciphertext, body_key_id, ...row }: StoredDelivery): Promise<ClaimedDelivery> {
    if (!body_ciphertext || !body_key_id) return { ...row, body: row.body ?? 'null' };
    const body = await this.keyring.decryptJson<string>(row.tenant_id, body_key_id, body_ciphertext, webhookBodyAad(row.id));
    return { ...row, body };
  }

  /**
   * Records an attempt and the delivery's new state; resolves once both are stored. An attempt that did not deliver
   * gets its row in webhook_attempts; the one that delivers is recorded on the delivery only (its number `attempts`,
   * `last_status_code`, `last_duration_ms`, `delivered_at`: nothing lost, and most events' deliveries write no attempt
   * row and its three index entries). The attempts that end close
   * together are written together, in one statement (their attempt rows and their deliveries' states): one round
   * trip and one commit for a whole round, where a statement per attempt made the dispatcher's share of the
   * database most of its cost under a stream of events. Until it is stored the delivery stays leased: a process
   * that dies first attempts it again (at least once). A handed-off first attempt has no row to update: its row is
   * inserted whole, already settled, and its event's outbox row deleted in the same statement once the last of the
   * event's deliveries is recorded; until then the outbox row is what delivers it again after a crash.
   */
  settle(d: ClaimedDelivery, a: AttemptRecord | null, outcome: DeliveryOutcome): Promise<void> {
    return new Promise((done, fail) => {
      this.settling.push({ d, a, outcome, done, fail });
      if (this.flushing) return; // the running write takes it next
      if (this.settling.length >= SETTLE_BATCH) {
        clearTimeout(this.settleTimer);
        this.settleTimer = undefined;
        this.flushing = this.flush();
      } else {
        this.settleTimer ??= setTimeout(() => {
          this.settleTimer = undefined;
          this.flushing = this.flush();
        }, SETTLE_GATHER_MS);
      }
    });
  }

  private async flush(): Promise<void> {
    try {
      while (this.settling.length) {
        const batch = this.settling.splice(0, SETTLE_BATCH);
        const claimed = batch.filter((s) => !s.d.handedOff);
        const first = batch.filter((s) => s.d.handedOff);
        await Promise.all([this.written(claimed, () => this.writeSettled(claimed)), this.written(first, () => this.writeFirstAttempts(first))]);
      }
    } finally {
      this.flushing = undefined;
    }
  }

  private async written(batch: readonly Settling[], write: () => Promise<void>): Promise<void> {
    if (!batch.length) return;
    try {
      await write();
      for (const s of batch) s.done();
    } catch (err) {
      for (const s of batch) s.fail(err);
    }
  }

  private async writeSettled(batch: readonly Settling[]): Promise<void> {
    const v = settledValues(batch);
    await this.sql.query(
      Prisma.sql`
      WITH v AS (
        SELECT * FROM unnest(${v.ids}::uuid[], ${v.tenants}::uuid[], ${v.attempts}::int[], ${v.statusCodes}::int[], ${v.durations}::int[],
          ${v.errors}::text[], ${v.statuses}::text[], ${v.lastErrors}::text[], ${v.retryInSeconds}::float8[])
          AS v(id, tenant_id, attempt, status_code, duration_ms, error, status, last_error, retry_s)
      ), attempt AS (
        INSERT INTO webhook_attempts (id, delivery_id, tenant_id, attempt, status_code, duration_ms, error)
        SELECT gen_random_uuid(), v.id, v.tenant_id, v.attempt, v.status_code, v.duration_ms, v.error FROM v WHERE v.status <> 'delivered' AND v.attempt > 0
      )
      -- attempt 0: claimed but not attempted (deferred, or given back at shutdown): the claim's count is undone and
      -- the last attempt's figures stay
      UPDATE webhook_deliveries d SET status = v.status, locked_until = NULL,
        attempts = CASE WHEN v.attempt = 0 THEN greatest(d.attempts - 1, 0) ELSE d.attempts END,
        last_error = CASE WHEN v.attempt = 0 THEN coalesce(v.last_error, d.last_error) ELSE v.last_error END,
        last_status_code = CASE WHEN v.attempt = 0 THEN d.last_status_code ELSE v.status_code END,
        last_duration_ms = CASE WHEN v.attempt = 0 THEN d.last_duration_ms ELSE v.duration_ms END,
        delivered_at = CASE WHEN v.status = 'delivered' THEN now() ELSE d.delivered_at END,
        next_attempt_at = CASE WHEN v.status = 'pending' THEN now() + make_interval(secs => v.retry_s) ELSE d.next_attempt_at END
      FROM v WHERE d.id = v.id AND d.tenant_id = v.tenant_id`,
      'webhook_deliveries_settle',
    );
  }

  /**
   * Handed-off first attempts: each delivery's row inserted as it now stands (one recorded before a crash keeps its
   * row), an attempt row for each attempt that did not deliver, and the outbox rows of the events whose deliveries
   * are all recorded now deleted — one statement, so a crash leaves either all of it or the event to relay again.
   */
  private async writeFirstAttempts(batch: readonly Settling[]): Promise<void> {
    const holds = batch.map((s) => s.d.handedOff?.hold as OutboxHold);
    const recorded = holds.filter((h) => --h.remaining === 0);
    const v = settledValues(batch);
    const first = batch.map((s) => s.d.handedOff as NonNullable<ClaimedDelivery['handedOff']>);
    try {
      await this.sql.query(
        Prisma.sql`
        WITH v AS (
          SELECT * FROM unnest(${v.ids}::uuid[], ${v.tenants}::uuid[], ${batch.map((s) => s.d.url)}::text[], ${holds.map((h) => h.seq)}::bigint[],
            ${batch.map((s) => s.d.webhook_id)}::uuid[], ${first.map((f) => f.event_id)}::uuid[], ${first.map((f) => f.event_type)}::text[],
            ${batch.map((s) => s.d.created_at)}::timestamptz[], ${v.attempts}::int[], ${v.statusCodes}::int[], ${v.durations}::int[],
            ${v.errors}::text[], ${v.statuses}::text[], ${v.lastErrors}::text[], ${v.retryInSeconds}::float8[])
            AS v(id, tenant_id, url, seq, webhook_id, event_id, event_type, created_at, attempt, status_code, duration_ms, error, status, last_error, retry_s)
        ), delivery AS (
          -- the body is the event as the outbox holds it (what was sent), not sent back over the wire; a row already
          -- gone from the outbox means every delivery of its event was recorded before (by a replica, before a crash)
          INSERT INTO webhook_deliveries (id, tenant_id, url, body, webhook_id, event_id, event_type, created_at, attempts, status,
            next_attempt_at, last_error, last_status_code, last_duration_ms, delivered_at)
          SELECT v.id, v.tenant_id, v.url, o.event::text, v.webhook_id, v.event_id, v.event_type, v.created_at, v.attempt, v.status,
            CASE WHEN v.status = 'pending' THEN now() + make_interval(secs => v.retry_s) ELSE now() END,
            v.last_error, v.status_code, v.duration_ms, CASE WHEN v.status = 'delivered' THEN now() END
          FROM v JOIN event_outbox o ON o.seq = v.seq
          ON CONFLICT (id) DO NOTHING
          RETURNING id
        ), attempt AS (
          INSERT INTO webhook_attempts (id, delivery_id, tenant_id, attempt, status_code, duration_ms, error)
          SELECT gen_random_uuid(), v.id, v.tenant_id, v.attempt, v.status_code, v.duration_ms, v.error
          FROM v JOIN delivery USING (id) WHERE v.status <> 'delivered' AND v.attempt > 0
        ), relayed AS (
          DELETE FROM event_outbox WHERE seq = ANY (${recorded.map((h) => h.seq)}::bigint[])
        )
        SELECT count(*)::int AS n FROM delivery`,
        'webhook_deliveries_record_first',
      );
    } catch (err) {
      for (const h of new Set(holds)) h.release();
      throw err;
    }
    for (const h of recorded) h.release();
  }

  async failed(d: ClaimedDelivery, error: string): Promise<void> {
    await this.prisma.webhookDelivery.updateMany({
      where: { id: d.id, tenantId: d.tenant_id },
      data: { status: 'failed', lockedUntil: null, lastError: error.slice(0, 500) },
    });
  }

  /** A webhook's deliveries, newest first (GET /webhooks/{id}/deliveries). */
  async pageOf(
    tenantId: string,
    webhookId: string,
    status: string | undefined,
    offset: number,
    size: number,
  ): Promise<{ rows: WebhookDeliveryView[]; total: number }> {
    const where = { tenantId, webhookId, ...(status ? { status } : {}) };
    const [rows, total] = await Promise.all([
      this.prisma.webhookDelivery.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: offset, take: size }),
      this.prisma.webhookDelivery.count({ where }),
    ]);
    return { rows: rows.map(toDeliveryView), total };
  }

  /** Queues a finished delivery again (attempts from zero, due now); `pending` when it has not finished. */
  async requeue(tenantId: string, webhookId: string, id: string): Promise<WebhookDeliveryView | 'missing' | 'pending'> {
    const rows = await this.prisma.webhookDelivery.updateManyAndReturn({
      where: { tenantId, webhookId, id, status: { in: ['failed', 'delivered'] } },
      data: deliveryQueuedAgain(),
    });
    if (rows.length) return toDeliveryView(rows[0]);
    const existing = await this.prisma.webhookDelivery.findFirst({ where: { tenantId, webhookId, id }, select: { status: true } });
    return existing ? 'pending' : 'missing';
  }

  /**
   * How long until the next pending delivery comes due (a retry, a deferral, a resumed tenant's), in ms by the
   * database's clock: 0 or less when one is due already; null when none waits. Leased deliveries are left out (their
   * attempt is under way; a lease left by a dead process is found by the safety sweep), as are a suspended tenant's
   * (the tenant's resumption wakes the claims). One probe of the partial index of pending deliveries.
   */
  async nextDueInMs(): Promise<number | null> {
    const [row] = await this.sql.query<{ ms: number }>(
      Prisma.sql`
      SELECT (extract(epoch FROM p.next_attempt_at - now()) * 1000)::float8 AS ms FROM webhook_deliveries p
      WHERE p.status = 'pending' AND (p.locked_until IS NULL OR p.locked_until < now()) AND ${tenantNotSuspended(Prisma.raw('p.tenant_id'))}
      ORDER BY p.next_attempt_at LIMIT 1`,
      'webhook_deliveries_next_due',
    );
    return row ? Number(row.ms) : null;
  }

  /** Tells the claims of every replica that deliveries were given back (this one is stopping): a notification. */
  async announceGivenBack(): Promise<void> {
    await this.sql.query(Prisma.sql`SELECT pg_notify(${CHANNELS.webhookDeliveries}, '')`);
  }

  /** The queue's depth (the literal status lets the planner use the partial index of pending deliveries). */
  async pendingCount(): Promise<number> {
    const [{ n }] = await this.sql.query<{ n: number }>(Prisma.sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'`);
    return n;
  }
}

/** A batch's columns, one array each (unattempted hand-offs: attempt 0, no status code, duration or error). */
function settledValues(batch: readonly Settling[]) {
  return {
    ids: batch.map((s) => s.d.id),
    tenants: batch.map((s) => s.d.tenant_id),
    attempts: batch.map((s) => (s.a ? s.d.attempts : 0)),
    statusCodes: batch.map((s) => s.a?.statusCode ?? null),
    durations: batch.map((s) => (s.a ? Math.round(s.a.durationMs) : null)),
    errors: batch.map((s) => s.a?.error?.slice(0, 500) ?? null),
    statuses: batch.map((s) => s.outcome.status),
    lastErrors: batch.map((s) => (s.outcome.status === 'delivered' || !s.outcome.error ? null : s.outcome.error.slice(0, 500))),
    retryInSeconds: batch.map((s) => (s.outcome.status === 'pending' ? s.outcome.retryInMs / 1000 : 0)),
  };
}

function toDeliveryView(d: {
  id: string;
  webhookId: string | null;
  eventId: string | null;
  eventType: string | null;
  status: string;
  attempts: number;
  lastError: string | null;
  lastStatusCode: number | null;
  lastDurationMs: number | null;
  createdAt: Date;
  deliveredAt: Date | null;
}): WebhookDeliveryView {
  const view: WebhookDeliveryView = {
    id: d.id,
    webhook_id: d.webhookId ?? '',
    event_id: d.eventId ?? '',
    event_type: d.eventType ?? '',
    status: d.status,
    attempts: d.attempts,
    created_at: d.createdAt.toISOString(),
  };
  if (d.lastError) view.last_error = d.lastError;
  if (d.lastStatusCode !== null) view.last_status_code = d.lastStatusCode;
  if (d.lastDurationMs !== null) view.last_duration_ms = d.lastDurationMs;
  if (d.deliveredAt) view.delivered_at = d.deliveredAt.toISOString();
  return view;
}
