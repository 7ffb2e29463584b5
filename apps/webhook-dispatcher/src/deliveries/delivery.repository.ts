import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { webhookBodyAad } from '@coffer/contracts';
import { TenantKeyring } from '@coffer/crypto/keyring';
import { PrismaService } from '@coffer/db';

export interface ClaimedDelivery {
  id: string;
  tenant_id: string;
  url: string;
  /** the JSON body to send, decrypted for this attempt only (stored sealed) */
  body: string;
  attempts: number;
  created_at: Date;
}

interface StoredDelivery extends Omit<ClaimedDelivery, 'body'> {
  /** rows queued before bodies were sealed */
  body: string | null;
  body_ciphertext: Uint8Array | null;
  body_key_id: string | null;
}

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
    const rows = await this.prisma.$queryRaw<StoredDelivery[]>`
      UPDATE webhook_deliveries d SET attempts = d.attempts + 1, locked_until = now() + make_interval(secs => ${LEASE_SECONDS})
      WHERE d.id IN (
        SELECT id FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until < now())
        ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
      )
      RETURNING d.id, d.tenant_id, d.url, d.body, d.body_ciphertext, d.body_key_id, d.attempts, d.created_at`;
    return Promise.all(rows.map((row) => this.opened(row)));
  }

  private async opened({ body_ciphertext, body_key_id, ...row }: StoredDelivery): Promise<ClaimedDelivery> {
    if (!body_ciphertext || !body_key_id) return { ...row, body: row.body ?? 'null' };
    const body = await this.keyring.decryptJson<string>(row.tenant_id, body_key_id, body_ciphertext, webhookBodyAad(row.id));
    return { ...row, body };
  }

  async recordAttempt(d: ClaimedDelivery, a: { statusCode?: number; durationMs: number; error?: string }): Promise<void> {
    await this.prisma.webhookAttempt.create({
      data: {
        id: randomUUID(),
        deliveryId: d.id,
        tenantId: d.tenant_id,
        attempt: d.attempts,
        statusCode: a.statusCode ?? null,
        durationMs: Math.round(a.durationMs),
        error: a.error?.slice(0, 500) ?? null,
      },
    });
  }

  async delivered(d: ClaimedDelivery): Promise<void> {
    await this.prisma.webhookDelivery.updateMany({
      where: { id: d.id, tenantId: d.tenant_id },
      data: { status: 'delivered', deliveredAt: new Date(), lockedUntil: null, lastError: null },
    });
  }

  async retryLater(d: ClaimedDelivery, delayMs: number, error: string): Promise<void> {
    await this.prisma.webhookDelivery.updateMany({
      where: { id: d.id, tenantId: d.tenant_id },
      data: { nextAttemptAt: new Date(Date.now() + delayMs), lockedUntil: null, lastError: error.slice(0, 500) },
    });
  }

  async failed(d: ClaimedDelivery, error: string): Promise<void> {
    await this.prisma.webhookDelivery.updateMany({
      where: { id: d.id, tenantId: d.tenant_id },
      data: { status: 'failed', lockedUntil: null, lastError: error.slice(0, 500) },
    });
  }

  async pendingCount(): Promise<number> {
    return this.prisma.webhookDelivery.count({ where: { status: 'pending' } });
  }
}
