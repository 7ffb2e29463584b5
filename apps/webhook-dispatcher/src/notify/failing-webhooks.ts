import { Injectable } from '@nestjs/common';
import { createLogger } from '@coffer/observability';
import { WebhookRepository } from '../webhooks/webhook.repository';
import { Mailer } from './mailer';

/**
 * A webhook whose delivery failed after every retry (hours of failure with the default schedule) is disabled, as
 * the mirrored service does, and its `notify_email` is told once; an update with `status: enabled` turns it on again.
 */
@Injectable()
export class FailingWebhooks {
  private readonly logger = createLogger('webhook-dispatcher');

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly mailer: Mailer,
  ) {}

  async disable(tenantId: string, webhookId: string, lastError: string): Promise<void> {
    const webhook = await this.webhooks.disable(tenantId, webhookId);
    if (!webhook) return; // already disabled (another delivery got here first) or deleted
    this.logger.warn({ tenantId, webhookId }, 'webhook disabled after sustained delivery failure');
    if (!webhook.notifyEmail) return;
    await this.mailer.send({
      to: webhook.notifyEmail,
      subject: `Coffer webhook "${webhook.name}" was disabled`,
      text: [
        `The webhook "${webhook.name}" (${webhook.id}) of tenant ${tenantId} was disabled: an event could not be delivered to`,
        `${webhook.url} after every retry. Last error: ${lastError}.`,
        '',
        'No further events are queued for it. Fix the receiver, then enable the webhook again with',
        `PUT /webhooks/${webhook.id} and "status": "enabled". Failed deliveries are listed at`,
        `GET /webhooks/${webhook.id}/deliveries?status=failed and can be re-sent.`,
      ].join('\n'),
    });
  }
}
