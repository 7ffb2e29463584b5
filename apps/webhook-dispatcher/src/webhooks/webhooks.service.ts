import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  CreateWebhookRequest,
  FieldErrors,
  MAX_WEBHOOKS_PER_TENANT,
  ProblemError,
  UpdateWebhookRequest,
  isUuid,
  notFound,
  noFilter,
  offsetList,
  validateContract,
  type Page,
  type CreatedWebhookView,
  type WebhookDeliveryView,
  type WebhookView,
} from '@coffer/contracts';
import { changedFields, deferUntilCommitted } from '@coffer/db';
import { EgressPolicy, redactedUrl } from '@coffer/egress';
import { RecordedWrites, caller } from '@coffer/operations';
import { webhookDispatcherConfig } from '../config';
import { DeliveryRepository } from '../deliveries/delivery.repository';
import { DispatcherService } from '../deliveries/dispatcher.service';
import { EndpointSecrets } from './endpoint-secrets';
import { checkReceiverUrl } from './receiver-url';
import { WebhookRepository, type WebhookFields } from './webhook.repository';
import { toWebhookView } from './webhook.view';

/**
 * The webhooks API (event subscriptions; docs/events.md) and its delivery extensions. Each use case acts for the
 * operation's caller (`caller()`, read where it starts) and sees only its tenant's webhooks.
 */
@Injectable()
export class WebhooksService {
  private readonly policy = EgressPolicy.callbacks(webhookDispatcherConfig().allowPrivateCallbacks);

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly writes: RecordedWrites,
    private readonly dispatcher: DispatcherService,
    private readonly secrets: EndpointSecrets,
  ) {}

  /** The webhook, and its own signing secret: in this reply only (it is stored sealed and never shown again). */
  async create(req: CreateWebhookRequest): Promise<CreatedWebhookView> {
    const principal = caller();
    const fields = await this.fields(req);
    const created = await this.writes.commit(
      async () => {
        const made = await this.webhooks.createWithin(
          MAX_WEBHOOKS_PER_TENANT,
          principal.tenantId,
          { ...fields, id: randomUUID(), createdBy: principal.applicationId },
          (row) => this.secrets.create(principal.tenantId, row.id),
        );
        if (!made) throw new ProblemError(422, `A tenant holds at most ${MAX_WEBHOOKS_PER_TENANT} webhooks: delete one first`);
        return { view: toWebhookView(made.row), secret: made.also };
      },
      ({ view }) => ({
        audit: {
          operation: 'create',
          entityType: 'webhook',
          entityId: view.id,
          changes: { ...webhookChanges(null, view), signing_secret: { redacted: true } },
        },
      }),
    );
    return { ...created.view, signing_secret: created.secret };
  }

  list(query: Record<string, unknown>): Promise<Page<WebhookView>> {
    const { tenantId } = caller();
    return offsetList(query, noFilter, (offset, size) => this.webhooks.page(tenantId, offset, size), toWebhookView);
  }

  async get(id: string): Promise<WebhookView> {
    return toWebhookView(await this.find(caller().tenantId, id));
  }

  async update(id: string, body: unknown): Promise<WebhookView> {
    const principal = caller();
    const before = toWebhookView(await this.find(principal.tenantId, id));
    const req = validateContract(UpdateWebhookRequest, body);
    const fields = await this.fields(req);
    return this.writes.commit(
      async () => {
        const row = await this.webhooks.update(principal.tenantId, id, {
          ...fields,
          ...(req.status ? { status: req.status } : {}),
          modifiedBy: principal.applicationId,
        });
        if (!row) throw notFound('webhook');
        return toWebhookView(row);
      },
      (view) => {
        const changes = webhookChanges(before, view);
        return { audit: { operation: 'update', entityType: 'webhook', entityId: id, ...(changes ? { changes } : {}) } };
      },
    );
  }

  async delete(id: string): Promise<void> {
    const { tenantId } = caller();
    await this.writes.commit(
      async () => {
        if (!isUuid(id) || !(await this.webhooks.delete(tenantId, id))) throw notFound('webhook');
      },
      () => ({ audit: { operation: 'delete', entityType: 'webhook', entityId: id } }),
    );
  }

  async deliveriesOf(id: string, query: Record<string, unknown>): Promise<Page<WebhookDeliveryView>> {
    const { tenantId } = caller();
    await this.find(tenantId, id);
    return offsetList(
      query,
      deliveryStatusFilter,
      (offset, size, status) => this.deliveries.pageOf(tenantId, id, status, offset, size),
      (delivery) => delivery,
    );
  }

  /** A delivery (failed, or already delivered) is queued again with a fresh attempt count; a pending one is a 409. */
  async resend(webhookId: string, deliveryId: string): Promise<WebhookDeliveryView> {
    const { tenantId } = caller();
    await this.find(tenantId, webhookId);
    if (!isUuid(deliveryId)) throw notFound('delivery');
    return this.writes.commit(
      async () => {
        const outcome = await this.deliveries.requeue(tenantId, webhookId, deliveryId);
        if (outcome === 'missing') throw notFound('delivery');
        if (outcome === 'pending') throw new ProblemError(409, 'The delivery is still pending: it will be attempted again on its own');
        // due now: this process's claims take it at once, once it committed
        const wake = () => this.dispatcher.wake();
        if (!deferUntilCommitted(wake)) wake();
        return outcome;
      },
      () => ({ audit: { operation: 'resend', entityType: 'webhook_delivery', entityId: deliveryId } }),
    );
  }

  /** The caller's tenant's webhook (404 for another tenant's). */
  private async find(tenantId: string, id: string) {
    const row = isUuid(id) ? await this.webhooks.find(tenantId, id) : null;
    if (!row) throw notFound('webhook');
    return row;
  }

  private async fields(req: CreateWebhookRequest): Promise<WebhookFields> {
    return { name: req.name, url: await checkReceiverUrl(this.policy, req.url), notifyEmail: req.notify_email ?? null, events: [...new Set(req.events)] };
  }
}

/**
 * What an audit record says changed in a webhook. A receiver URL may carry a credential (user info, a token in the
 * query): only its origin and path are recorded.
 */
function webhookChanges(before: WebhookView | null, after: WebhookView) {
  const shown = (v: WebhookView | null) => v && { ...v, url: redactedUrl(v.url) };
  return changedFields(shown(before), shown(after), ['name', 'url', 'events', 'status', 'notify_email']);
}

function deliveryStatusFilter(query: Record<string, unknown>, errors: FieldErrors): string | undefined {
  const status = query['status'];
  if (status !== undefined && !['pending', 'delivered', 'failed'].includes(String(status))) errors.add('status', 'must be pending, delivered or failed');
  return status === undefined ? undefined : String(status);
}
