import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { TenantKeyring, newWebhookSecret, openWebhookSecret, sealWebhookSecret } from '@coffer/crypto/keyring';
import { ProblemError } from '@coffer/contracts';
import { RecordedWrites } from '@coffer/operations';
import { WebhookSecretRepository } from './webhook-secret.repository';

const OVERLAP_MS = 24 * 3600_000;

/**
 * The tenant's Standard Webhooks signing secret (`whsec_<base64 of 32 bytes>`), encrypted at rest. After a
 * rotation the previous secret keeps signing (a second signature) for 24 hours.
 */
@Injectable()
export class WebhookSecretsService {
  constructor(
    private readonly secrets: WebhookSecretRepository,
    private readonly keyring: TenantKeyring,
    private readonly writes: RecordedWrites,
  ) {}

  /** The current secret, created at the first ask (by whichever caller comes first: the others read it). */
  async current(tenantId: string): Promise<{ secret: string }> {
    for (;;) {
      const row = await this.secrets.findCurrent(tenantId);
      if (row) return { secret: await this.open(tenantId, row.id, row.ciphertext) };
      const created = await this.create(tenantId);
      if (created) return { secret: created };
    }
  }

  async rotate(tenantId: string): Promise<{ secret: string }> {
    // one transaction: a first read meanwhile waits for it, then finds the new secret rather than adding its own. A
    // rotation at the same moment commits its secret after this one's retire looked: the insert then finds it, and the
    // rotation runs again (retiring that one in turn), so concurrent rotations take turns instead of failing
    let secret: string | undefined;
    for (let attempt = 0; !secret; attempt++) {
      if (attempt === 5) throw new ProblemError(409, 'The webhook secret is being rotated by another request; try again');
      secret = await this.writes.commit(
        async () => {
          await this.secrets.retireCurrent(tenantId, new Date(Date.now() + OVERLAP_MS));
          return this.create(tenantId);
        },
        // a turn that met a concurrent rotation's new secret made none of its own: no record (the loop runs again)
        (made) => (made ? { audit: { operation: 'rotate', entityType: 'webhook_secret', entityId: tenantId, changes: { secret: { redacted: true } } } } : {}),
      );
    }
    return { secret };
  }

  /** Every secret that signs now: the current one first, then those still inside their overlap. */
  async signing(tenantId: string): Promise<string[]> {
    await this.current(tenantId);
    const rows = await this.secrets.findSigning(tenantId, new Date());
    return Promise.all(rows.map((r) => this.open(tenantId, r.id, r.ciphertext)));
  }

  /** A new current secret, or undefined when the tenant has one already (another caller's, just made). */
  private async create(tenantId: string): Promise<string | undefined> {
    const id = randomUUID();
    const secret = newWebhookSecret();
    const stored = await sealWebhookSecret(this.keyring, tenantId, id, secret);
    return (await this.secrets.createCurrent(tenantId, id, stored)) ? secret : undefined;
  }

  private open(tenantId: string, id: string, stored: Uint8Array): Promise<string> {
    return openWebhookSecret(this.keyring, tenantId, id, stored);
  }
}
