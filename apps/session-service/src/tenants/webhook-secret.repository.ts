import { Injectable } from '@nestjs/common';
import { PrismaService, type WebhookSecret } from '@coffer/db';

/**
 * webhook_secrets (owned by session-service): each tenant's signing secrets, stored sealed. Rows with a `webhook_id`
 * are a webhook's own (webhook-dispatcher's): never read or retired here.
 */
@Injectable()
export class WebhookSecretRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The newest secret that has not been retired. */
  findCurrent(tenantId: string): Promise<WebhookSecret | null> {
    return this.prisma.webhookSecret.findFirst({ where: { tenantId, webhookId: null, retiresAt: null }, orderBy: { createdAt: 'desc' } });
  }

  /** Secrets that sign at `now`: the current ones and those still inside their overlap, newest first. */
  findSigning(tenantId: string, now: Date): Promise<WebhookSecret[]> {
    return this.prisma.webhookSecret.findMany({
      where: { tenantId, webhookId: null, OR: [{ retiresAt: null }, { retiresAt: { gt: now } }] },
      orderBy: { createdAt: 'desc' },
    });
  }

  /** The current secrets stop signing at `retiresAt`. */
  async retireCurrent(tenantId: string, retiresAt: Date): Promise<void> {
    await this.prisma.webhookSecret.updateMany({ where: { tenantId, webhookId: null, retiresAt: null }, data: { retiresAt } });
  }

  /**
   * Stores a new current secret unless the tenant has one already (one current secret per tenant: a unique index);
   * false when another caller's came first.
   */
  async createCurrent(tenantId: string, id: string, ciphertext: Uint8Array): Promise<boolean> {
    const rows = await this.prisma.$queryRaw<Array<{ id: string }>>`
      INSERT INTO webhook_secrets (id, tenant_id, ciphertext) VALUES (${id}::uuid, ${tenantId}::uuid, ${new Uint8Array(ciphertext)})
      ON CONFLICT (tenant_id) WHERE retires_at IS NULL AND webhook_id IS NULL DO NOTHING
      RETURNING id`;
    return rows.length > 0;
  }
}
