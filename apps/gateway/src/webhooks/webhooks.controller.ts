import { Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { EVENT_TYPES, OPS } from '@coffer/contracts';
import { RequirePermission } from '@coffer/auth';
import { HANDWRITTEN, RowRoutes, rowController } from '../http/row-routes';

/** Answered by the gateway: the list is part of the contracts (no row, so plain decorators). */
class WebhookEventTypes extends RowRoutes {
  @Get('webhooks/event-types')
  @RequirePermission('webhook:read')
  @ApiOperation({ summary: 'The event types', description: 'webhook:read. The values `events` accepts.' })
  @ApiOkResponse({ type: [String] })
  eventTypes(): string[] {
    return [...EVENT_TYPES];
  }
}

/** The webhooks API (event subscriptions, docs/events.md), served by webhook-dispatcher. */
export const WebhooksController = rowController('WebhooksController', {
  tags: ['webhooks'],
  handlers: WebhookEventTypes,
  routes: {
    create: OPS.webhook.webhooks.create,
    list: OPS.webhook.webhooks.list,
    eventTypes: HANDWRITTEN,
    get: OPS.webhook.webhooks.get,
    update: OPS.webhook.webhooks.update,
    delete: OPS.webhook.webhooks.delete,
    deliveries: OPS.webhook.webhooks.deliveries,
    resend: OPS.webhook.webhooks.resend,
  },
});
