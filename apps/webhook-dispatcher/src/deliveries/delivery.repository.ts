import { Injectable } from '@nestjs/common';
import { webhookBodyAad, type WebhookDeliveryView } from '@coffer/contracts';
import { TenantKeyring } from '@coffer/crypto/keyring';
import { Prisma, PrismaService, SqlPool, deliveryQueuedAgain } from '@coffer/db';

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
}

interface StoredDelivery extends Omit<ClaimedDelivery, 'body'> {
  /** rows queued before bodies were sealed */
  body: string | null;
  body_ciphertext: Uint8Array | null;
  body_key_id: string | null;
}

/** What an attempt leaves: delivered, pending again (retried after `retryInMs`) or failed for good. */
export type DeliveryOutcome = { status: 'delivered' } | { status: 'pending'; retryInMs: number; error: string } | { status: 'failed'; error: string };

/** How long a claimed delivery is leased: longer than one attempt (10 s timeout), so two replicas never overlap. */
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
  a: AttemptRecord;
  outcome: DeliveryOutcome;
  done: () => void;
  fail: (err: unknown) => void;
}

/** An event row the relay takes from the outbox (the `event` object as JSON). */
export interface RelayedEvent {
  seq: bigint | string;
  id: string;
  event: string;
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

  async claim(limit: number): Promise<ClaimedDelivery[]> {
    // an event delivery goes to its webhook's current URL (an update since the event applies); one whose webhook was
    // deleted is claimed with no URL and marked failed by the dispatcher
    const rows = await this.sql.query<StoredDelivery>(
      Prisma.sql`
      UPDATE webhook_deliveries d SET attempts = d.attempts + 1, locked_until = now() + make_interval(secs => ${LEASE_SECONDS}::int)
      FROM (
        SELECT id FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until < now())
        ORDER BY next_attempt_at LIMIT ${limit}::int FOR UPDATE SKIP LOCKED
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
   * The relay's part, in its transaction: one delivery per enabled webhook subscribed to each event's type. `leased`:
   * the deliveries are claimed as they are queued (first attempt counted, leased as a claim leases), and returned
   * for this process to attempt at once, with no claim statement and no second row version for it; otherwise they
   * wait, due now, for the delivery loop's next claim.
   */
  async queueEvents(events: readonly RelayedEvent[], leased: boolean): Promise<ClaimedDelivery[]> {
    const seqs = events.map((e) => String(e.seq));
    if (!leased) {
      await this.prisma.$executeRaw`
        INSERT INTO webhook_deliveries (id, tenant_id, url, body, webhook_id, event_id, event_type, created_at)
        SELECT gen_random_uuid(), w.tenant_id, w.url, o.event::text, w.id, o.id, o.type, now()
        FROM event_outbox o JOIN webhooks w ON w.tenant_id = o.tenant_id AND w.status = 'enabled' AND o.type = ANY (w.events)
        WHERE o.seq = ANY (${seqs}::bigint[])
        ORDER BY o.seq`;
      return [];
    }
    const rows = await this.prisma.$queryRaw<Array<Omit<ClaimedDelivery, 'body'> & { event_id: string }>>`
      INSERT INTO webhook_deliveries (id, tenant_id, url, body, webhook_id, event_id, event_type, created_at, attempts, locked_until)
      SELECT gen_random_uuid(), w.tenant_id, w.url, o.event::text, w.id, o.id, o.type, now(), 1, now() + make_interval(secs => ${LEASE_SECONDS}::int)
      FROM event_outbox o JOIN webhooks w ON w.tenant_id = o.tenant_id AND w.status = 'enabled' AND o.type = ANY (w.events)
      WHERE o.seq = ANY (${seqs}::bigint[])
      ORDER BY o.seq
      RETURNING id, tenant_id, url, attempts, created_at, webhook_id, event_id`;
    // the body is the outbox row's event as the relay read it (the same jsonb, the same text)
    const bodies = new Map(events.map((e) => [e.id, e.event]));
    return rows.map(({ event_id, ...row }) => ({ ...row, body: bodies.get(event_id) ?? 'null' }));
  }

  /**
   * Gives back leased deliveries this process will not attempt (shutting down, or waited too long): due again now,
   * their attempt uncounted. Only while the lease is still this process's (the attempt count it claimed): a delivery
   * another replica claimed since keeps its lease.
   */
  async release(deliveries: ReadonlyArray<Pick<ClaimedDelivery, 'id' | 'attempts'>>): Promise<void> {
    if (!deliveries.length) return;
    await this.sql.query(Prisma.sql`
      UPDATE webhook_deliveries d SET attempts = greatest(d.attempts - 1, 0), locked_until = NULL
      FROM unnest(${deliveries.map((x) => x.id)}::uuid[], ${deliveries.map((x) => x.attempts)}::int[]) AS v(id, attempts)
      WHERE d.id = v.id AND d.attempts = v.attempts AND d.status = 'pending'`);
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
   * that dies first attempts it again (at least once).
   */
  settle(d: ClaimedDelivery, a: AttemptRecord, outcome: DeliveryOutcome): Promise<void> {
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
        try {
          await this.writeSettled(batch);
          for (const s of batch) s.done();
        } catch (err) {
          for (const s of batch) s.fail(err);
        }
      }
    } finally {
      this.flushing = undefined;
    }
  }

  private async writeSettled(batch: readonly Settling[]): Promise<void> {
    const ids = batch.map((s) => s.d.id);
    const tenants = batch.map((s) => s.d.tenant_id);
    const attempts = batch.map((s) => s.d.attempts);
    const statusCodes = batch.map((s) => s.a.statusCode ?? null);
    const durations = batch.map((s) => Math.round(s.a.durationMs));
    const errors = batch.map((s) => s.a.error?.slice(0, 500) ?? null);
    const statuses = batch.map((s) => s.outcome.status);
    const lastErrors = batch.map((s) => (s.outcome.status === 'delivered' ? null : s.outcome.error.slice(0, 500)));
    const retryInSeconds = batch.map((s) => (s.outcome.status === 'pending' ? s.outcome.retryInMs / 1000 : 0));
    await this.sql.query(
      Prisma.sql`
      WITH v AS (
        SELECT * FROM unnest(${ids}::uuid[], ${tenants}::uuid[], ${attempts}::int[], ${statusCodes}::int[], ${durations}::int[],
          ${errors}::text[], ${statuses}::text[], ${lastErrors}::text[], ${retryInSeconds}::float8[])
          AS v(id, tenant_id, attempt, status_code, duration_ms, error, status, last_error, retry_s)
      ), attempt AS (
        INSERT INTO webhook_attempts (id, delivery_id, tenant_id, attempt, status_code, duration_ms, error)
        SELECT gen_random_uuid(), v.id, v.tenant_id, v.attempt, v.status_code, v.duration_ms, v.error FROM v WHERE v.status <> 'delivered'
      )
      UPDATE webhook_deliveries d SET status = v.status, locked_until = NULL, last_error = v.last_error,
        last_status_code = v.status_code, last_duration_ms = v.duration_ms,
        delivered_at = CASE WHEN v.status = 'delivered' THEN now() ELSE d.delivered_at END,
        next_attempt_at = CASE WHEN v.status = 'pending' THEN now() + make_interval(secs => v.retry_s) ELSE d.next_attempt_at END
      FROM v WHERE d.id = v.id AND d.tenant_id = v.tenant_id`,
      'webhook_deliveries_settle',
    );
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

  async pendingCount(): Promise<number> {
    return this.prisma.webhookDelivery.count({ where: { status: 'pending' } });
  }
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
