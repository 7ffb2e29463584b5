import { Body, Controller, Get, Param, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CreateWebhookRequest,
  CreatedWebhookView,
  EVENT_TYPES,
  OPS,
  UpdateWebhookRequest,
  WebhookDeliveryView,
  WebhookView,
  type Page,
} from '@coffer/contracts';
import { RequirePermission } from '@coffer/auth';
import { RpcClient } from '@coffer/messaging';
import { Route } from '../http/route.decorator';
import { callContext, type GatewayRequest } from '../http/gateway-request';

/** The webhooks API (event subscriptions, docs/events.md), served by webhook-dispatcher. */
@ApiTags('webhooks')
@Controller()
export class WebhooksController {
  constructor(private readonly rpc: RpcClient) {}

  @Route(OPS.webhook.webhooks.create)
  create(@Req() req: GatewayRequest, @Body() body: CreateWebhookRequest) {
    return this.rpc.call<CreatedWebhookView>(OPS.webhook.webhooks.create, body, callContext(req));
  }

  @Route(OPS.webhook.webhooks.list)
  list(@Req() req: GatewayRequest, @Query() query: Record<string, string | string[]>) {
    return this.rpc.call<Page<WebhookView>>(OPS.webhook.webhooks.list, { query }, callContext(req));
  }

  /** Answered by the gateway: the list is part of the contracts (no row, so plain decorators). */
  @Get('webhooks/event-types')
  @RequirePermission('webhook:read')
  @ApiOperation({ summary: 'The event types', description: 'webhook:read. The values `events` accepts.' })
  @ApiOkResponse({ type: [String] })
  eventTypes(): string[] {
    return [...EVENT_TYPES];
  }

  @Route(OPS.webhook.webhooks.get)
  get(@Req() req: GatewayRequest, @Param('id') id: string) {
    return this.rpc.call<WebhookView>(OPS.webhook.webhooks.get, { id }, callContext(req));
  }

  @Route(OPS.webhook.webhooks.update)
  update(@Req() req: GatewayRequest, @Param('id') id: string, @Body() body: UpdateWebhookRequest) {
    return this.rpc.call<WebhookView>(OPS.webhook.webhooks.update, { id, body }, callContext(req));
  }

  @Route(OPS.webhook.webhooks.delete)
  async delete(@Req() req: GatewayRequest, @Param('id') id: string): Promise<void> {
    await this.rpc.call(OPS.webhook.webhooks.delete, { id }, callContext(req));
  }

  @Route(OPS.webhook.webhooks.deliveries)
  deliveries(@Req() req: GatewayRequest, @Param('id') webhookId: string, @Query() query: Record<string, string | string[]>) {
    return this.rpc.call<Page<WebhookDeliveryView>>(OPS.webhook.webhooks.deliveries, { webhookId, query }, callContext(req));
  }

  @Route(OPS.webhook.webhooks.resend)
  resend(@Req() req: GatewayRequest, @Param('id') webhookId: string, @Param('deliveryId') deliveryId: string) {
    return this.rpc.call<WebhookDeliveryView>(OPS.webhook.webhooks.resend, { webhookId, deliveryId }, callContext(req));
  }
}
