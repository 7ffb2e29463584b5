import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { webhookBodyAad, type WebhookDeliveryView } from '@coffer/contracts';
import { TenantKeyring } from '@coffer/crypto/keyring';
import { PrismaService } from '@coffer/db';

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
const LEASE_SECONDS = 60;

/**
 * webhook_deliveries and webhook_attempts (owned by webhook-dispatcher; reactor-service only inserts new
 * deliveries, in the transaction that stores a job's result). A claim takes the row with FOR UPDATE SKIP LOCKED,
 * counts the attempt and leases it; a process that dies mid-delivery loses its lease and the delivery is retried
 * with the same webhook-id (at least once).
 */
@Injectable()
export class DeliveryRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly keyring: TenantKeyring,
  ) {}

  async claim(limit: number): Promise<ClaimedDelivery[]> {
    // an event delivery goes to its webhook's current URL (an update since the event applies); one whose webhook was
    // deleted is claimed with no URL and marked failed by the dispatcher
    const rows = await this.prisma.$queryRaw<StoredDelivery[]>`
      UPDATE webhook_deliveries d SET attempts = d.attempts + 1, locked_until = now() + make_interval(secs => ${LEASE_SECONDS})
      FROM (
        SELECT id FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until < now())
        ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
      ) due
      WHERE d.id = due.id
      RETURNING d.id, d.tenant_id,
        CASE WHEN d.webhook_id IS NULL THEN d.url ELSE (SELECT w.url FROM webhooks w WHERE w.tenant_id = d.tenant_id AND w.id = d.webhook_id) END AS url,
        d.body, d.body_ciphertext, d.body_key_id, d.attempts, d.created_at, d.webhook_id`;
    return Promise.all(rows.map((row) => this.opened(row)));
  }

  private async opened({ body_ciphertext, body_key_id, ...row }: StoredDelivery): Promise<ClaimedDelivery> {
    if (!body_ciphertext || !body_key_id) return { ...row, body: row.body ?? 'null' };
    const body = await this.keyring.decryptJson<string>(row.tenant_id, body_key_id, body_ciphertext, webhookBodyAad(row.id));
    return { ...row, body };
  }

  /**
   * An attempt's row and the delivery's new state in one statement: one round trip per attempt, where an ORM insert
   * then an update took two (the dispatcher's share of the database is most of its cost under a stream of events).
   */
  async settle(d: ClaimedDelivery, a: { statusCode?: number; durationMs: number; error?: string }, outcome: DeliveryOutcome): Promise<void> {
    const lastError = outcome.status === 'delivered' ? null : outcome.error.slice(0, 500);
    const retryInSeconds = outcome.status === 'pending' ? outcome.retryInMs / 1000 : 0;
    await this.prisma.$executeRaw`
      WITH attempt AS (
        INSERT INTO webhook_attempts (id, delivery_id, tenant_id, attempt, status_code, duration_ms, error)
        VALUES (${randomUUID()}::uuid, ${d.id}::uuid, ${d.tenant_id}::uuid, ${d.attempts}::int, ${a.statusCode ?? null}::int,
          ${Math.round(a.durationMs)}::int, ${a.error?.slice(0, 500) ?? null}::text)
      )
      UPDATE webhook_deliveries SET status = ${outcome.status}::text, locked_until = NULL, last_error = ${lastError}::text,
        delivered_at = CASE WHEN ${outcome.status}::text = 'delivered' THEN now() ELSE delivered_at END,
        next_attempt_at = CASE WHEN ${outcome.status}::text = 'pending' THEN now() + make_interval(secs => ${retryInSeconds}::float8) ELSE next_attempt_at END
      WHERE id = ${d.id}::uuid AND tenant_id = ${d.tenant_id}::uuid`;
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
      data: { status: 'pending', attempts: 0, nextAttemptAt: new Date(), lockedUntil: null, lastError: null, deliveredAt: null },
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
  if (d.deliveredAt) view.delivered_at = d.deliveredAt.toISOString();
  return view;
}
