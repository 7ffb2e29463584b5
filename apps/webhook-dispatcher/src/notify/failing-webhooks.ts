import { Injectable } from '@nestjs/common';
import { systemActor } from '@coffer/contracts';
import { RecordedWrites } from '@coffer/operations';
import { createLogger } from '@coffer/observability';
import { WebhookRepository } from '../webhooks/webhook.repository';
import { Mailer } from './mailer';

/**
 * Why a webhook is disabled: a delivery failed after every retry (hours of failure with the default schedule), or
 * its receiver answered `410 Gone` (Standard Webhooks: the endpoint asks for no more deliveries).
 */
export type DisableReason = 'exhausted' | 'gone';

const WHY: Record<DisableReason, (url: string, lastError: string) => string> = {
  exhausted: (url, lastError) => `an event could not be delivered to\n${url} after every retry. Last error: ${lastError}.`,
  gone: (url) => `its receiver\n${url} answered 410 Gone, which asks for no more deliveries. Its pending deliveries were marked failed.`,
};

/**
 * A failing or gone webhook is disabled, as the mirrored service does, audited as Coffer's own act, and its
 * `notify_email` is told once; an update with `status: enabled` turns it on again. A gone receiver's other pending
 * deliveries fail too (not attempted again): re-send them once it is back.
 */
@Injectable()
export class FailingWebhooks {
  private readonly logger = createLogger('webhook-dispatcher');

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly mailer: Mailer,
    private readonly writes: RecordedWrites,
  ) {}

  async disable(tenantId: string, webhookId: string, lastError: string, reason: DisableReason = 'exhausted'): Promise<void> {
    const webhook = await this.writes.commit(
      () => this.webhooks.disable(tenantId, webhookId, reason === 'gone' ? GONE_ERROR : undefined),
      (disabled) =>
        disabled
          ? {
              audit: {
                tenantId,
                actor: systemActor('webhook-dispatcher'),
                operation: 'update',
                entityType: 'webhook',
                entityId: webhookId,
                changes: { status: { old: 'enabled', new: 'disabled' } },
              },
            }
          : {},
    );
    if (!webhook) return; // already disabled (another delivery got here first) or deleted
    this.logger.warn(
      { tenantId, webhookId, reason },
      reason === 'gone' ? 'webhook disabled: its receiver answered 410 Gone' : 'webhook disabled after sustained delivery failure',
    );
    if (!webhook.notifyEmail) return;
    await this.mailer.send({
      to: webhook.notifyEmail,
      subject: `Coffer webhook "${webhook.name}" was disabled`,
      text: [
        `The webhook "${webhook.name}" (${webhook.id}) of tenant ${tenantId} was disabled: ${WHY[reason](webhook.url, lastError)}`,
        '',
        'No further events are queued for it. Fix the receiver, then enable the webhook again with',
        `PUT /webhooks/${webhook.id} and "status": "enabled". Failed deliveries are listed at`,
        `GET /webhooks/${webhook.id}/deliveries?status=failed and can be re-sent.`,
      ].join('\n'),
    });
  }
}

/** The last error of the pending deliveries a gone receiver's webhook leaves (listed with them). */
export const GONE_ERROR = 'not attempted: the receiver answered 410 Gone and the webhook was disabled';
