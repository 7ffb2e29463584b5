import { type WebhookStatus, type WebhookView, withStamps } from '@coffer/contracts';
import type { WebhookRow } from './webhook.repository';

export function toWebhookView(w: WebhookRow): WebhookView {
  const view: WebhookView = {
    id: w.id,
    tenant_id: w.tenantId,
    status: w.status as WebhookStatus,
    name: w.name,
    url: w.url,
    events: w.events,
    created_by: w.createdBy,
    created_at: w.createdAt.toISOString(),
  };
  if (w.notifyEmail) view.notify_email = w.notifyEmail;
  return withStamps(view, w);
}
