import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { TenantKeyring, newWebhookSecret, openWebhookSecret, sealWebhookSecret } from '@coffer/crypto/keyring';
import { PrismaService } from '@coffer/db';

/**
 * Each webhook's own Standard Webhooks signing secret (`whsec_<base64 of 32 bytes>`), for webhooks created since
 * endpoints have one. Stored in webhook_secrets beside the tenant's, with the webhook's id, sealed the same way
 * ([data key id, 16 bytes][ciphertext], associated data `webhook-secret:<row id>`), so `keys reencrypt` and the
 * tenant purge treat both alike. A webhook without one (created before) is signed with the tenant's secret.
 */
@Injectable()
export class EndpointSecrets {
  constructor(
    private readonly prisma: PrismaService,
    private readonly keyring: TenantKeyring,
  ) {}

  /** A new secret for a new webhook, stored in the caller's transaction (the webhook's insert); returned to show once. */
  async create(tenantId: string, webhookId: string): Promise<string> {
    const id = randomUUID();
    const secret = newWebhookSecret();
    const stored = await sealWebhookSecret(this.keyring, tenantId, id, secret);
    await this.prisma.webhookSecret.create({ data: { id, tenantId, webhookId, ciphertext: new Uint8Array(stored) } });
    return secret;
  }

  /** The webhook's secrets that sign now, newest first; none for a webhook created before endpoints had their own. */
  async signing(tenantId: string, webhookId: string): Promise<string[]> {
    const rows = await this.prisma.webhookSecret.findMany({
      where: { tenantId, webhookId, OR: [{ retiresAt: null }, { retiresAt: { gt: new Date() } }] },
      orderBy: { createdAt: 'desc' },
    });
    return Promise.all(rows.map((r) => openWebhookSecret(this.keyring, tenantId, r.id, r.ciphertext)));
  }

  /** Deletes the webhook's secrets (with the webhook, in its transaction). */
  async deleteOf(tenantId: string, webhookId: string): Promise<void> {
    await this.prisma.webhookSecret.deleteMany({ where: { tenantId, webhookId } });
  }
}
