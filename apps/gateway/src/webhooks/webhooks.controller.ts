import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import {
  CreateWebhookRequest,
  CreatedWebhookView,
  DELIVERY_STATUSES,
  EVENT_TYPES,
  OPS,
  UpdateWebhookRequest,
  WebhookDeliveryPage,
  WebhookDeliveryView,
  WebhookPage,
  WebhookView,
  type Page,
} from '@coffer/contracts';
import { RequirePermission } from '@coffer/auth';
import { RpcClient } from '@coffer/messaging';
import { callContext, type GatewayRequest } from '../http/gateway-request';

const WEBHOOK_ID = { name: 'id', format: 'uuid', description: 'the webhook id' };

/** The webhooks API (event subscriptions, docs/events.md), served by webhook-dispatcher. */
@ApiTags('webhooks')
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(201)
  @RequirePermission('webhook:create')
  @ApiOperation({
    summary: 'Create a webhook',
    description:
      'webhook:create. At most five per tenant (a sixth is a 422). The URL obeys the callback egress policy. The reply holds the webhook’s own signing secret (`signing_secret`), shown only here.',
  })
  @ApiBody({ type: CreateWebhookRequest })
  @ApiCreatedResponse({ type: CreatedWebhookView })
  create(@Req() req: GatewayRequest, @Body() body: CreateWebhookRequest) {
    return this.rpc.call<CreatedWebhookView>(OPS.webhook.webhooks.create, body, callContext(req));
  }

  @Get()
  @RequirePermission('webhook:read')
  @ApiOperation({ summary: 'List webhooks', description: 'webhook:read. Newest first.' })
  @ApiOkResponse({ type: WebhookPage })
  list(@Req() req: GatewayRequest, @Query() query: Record<string, string | string[]>) {
    return this.rpc.call<Page<WebhookView>>(OPS.webhook.webhooks.list, { query }, callContext(req));
  }

  /** Answered by the gateway: the list is part of the contracts. */
  @Get('event-types')
  @RequirePermission('webhook:read')
  @ApiOperation({ summary: 'The event types', description: 'webhook:read. The values `events` accepts.' })
  @ApiOkResponse({ type: [String] })
  eventTypes(): string[] {
    return [...EVENT_TYPES];
  }

  @Get(':id')
  @RequirePermission('webhook:read')
  @ApiOperation({ summary: 'Get a webhook', description: 'webhook:read.' })
  @ApiParam(WEBHOOK_ID)
  @ApiOkResponse({ type: WebhookView })
  get(@Req() req: GatewayRequest, @Param('id') id: string) {
    return this.rpc.call<WebhookView>(OPS.webhook.webhooks.get, { id }, callContext(req));
  }

  @Put(':id')
  @RequirePermission('webhook:update')
  @ApiOperation({
    summary: 'Update a webhook',
    description: 'webhook:update. Name, URL, notify_email and events are replaced; `status: enabled` re-enables a disabled webhook.',
  })
  @ApiParam(WEBHOOK_ID)
  @ApiBody({ type: UpdateWebhookRequest })
  @ApiOkResponse({ type: WebhookView })
  update(@Req() req: GatewayRequest, @Param('id') id: string, @Body() body: UpdateWebhookRequest) {
    return this.rpc.call<WebhookView>(OPS.webhook.webhooks.update, { id, body }, callContext(req));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('webhook:delete')
  @ApiOperation({ summary: 'Delete a webhook', description: 'webhook:delete. Its pending deliveries are dropped.' })
  @ApiParam(WEBHOOK_ID)
  @ApiNoContentResponse({ description: 'deleted' })
  async delete(@Req() req: GatewayRequest, @Param('id') id: string): Promise<void> {
    await this.rpc.call(OPS.webhook.webhooks.delete, { id }, callContext(req));
  }

  @Get(':id/deliveries')
  @RequirePermission('webhook:read')
  @ApiOperation({ summary: "A webhook's deliveries (Coffer extension)", description: 'webhook:read. Newest first; `status` filters.' })
  @ApiParam(WEBHOOK_ID)
  @ApiQuery({ name: 'status', required: false, enum: DELIVERY_STATUSES })
  @ApiOkResponse({ type: WebhookDeliveryPage })
  deliveries(@Req() req: GatewayRequest, @Param('id') webhookId: string, @Query() query: Record<string, string | string[]>) {
    return this.rpc.call<Page<WebhookDeliveryView>>(OPS.webhook.webhooks.deliveries, { webhookId, query }, callContext(req));
  }

  @Post(':id/deliveries/:deliveryId/resend')
  @HttpCode(202)
  @RequirePermission('webhook:update')
  @ApiOperation({
    summary: 'Send a delivery again (Coffer extension)',
    description: 'webhook:update. A failed (or delivered) delivery is queued again with a fresh retry schedule; a pending one is a 409.',
  })
  @ApiParam(WEBHOOK_ID)
  @ApiParam({ name: 'deliveryId', format: 'uuid', description: 'the delivery id (its webhook-id header)' })
  @ApiAcceptedResponse({ type: WebhookDeliveryView, description: 'queued again: the delivery, pending with no attempts yet' })
  resend(@Req() req: GatewayRequest, @Param('id') webhookId: string, @Param('deliveryId') deliveryId: string) {
    return this.rpc.call<WebhookDeliveryView>(OPS.webhook.webhooks.resend, { webhookId, deliveryId }, callContext(req));
  }
}
