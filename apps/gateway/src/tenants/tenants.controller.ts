import { Body, Controller, Get, HttpCode, Post, Put, Req } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OPS, TenantKeysView, TenantView, UpdateTenantRequest, WebhookSecretView } from '@coffer/contracts';
import { RequirePermission } from '@coffer/auth';
import { RpcClient } from '@coffer/messaging';
import { callContext, type GatewayRequest } from '../http/gateway-request';

@ApiTags('tenants')
@Controller('tenants/self')
export class TenantsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @RequirePermission('tenant:read')
  @ApiOperation({ summary: 'The tenant of the key', description: 'tenant:read.' })
  @ApiOkResponse({ type: TenantView })
  get(@Req() req: GatewayRequest) {
    return this.rpc.call<TenantView>(OPS.session.tenants.get, {}, callContext(req));
  }

  @Put()
  @RequirePermission('tenant:update')
  @ApiOperation({ summary: 'Update the tenant', description: 'tenant:update. Name and settings (deduplicate_tokens).' })
  @ApiBody({ type: UpdateTenantRequest })
  @ApiOkResponse({ type: TenantView })
  update(@Req() req: GatewayRequest, @Body() body: UpdateTenantRequest) {
    return this.rpc.call<TenantView>(OPS.session.tenants.update, body, callContext(req));
  }

  @Get('webhook-secret')
  @RequirePermission('tenant:read')
  @ApiOperation({
    summary: 'The webhook signing secret',
    description: 'tenant:read. The HMAC key of the Standard Webhooks signatures of asynchronous reactor results.',
  })
  @ApiOkResponse({ type: WebhookSecretView })
  webhookSecret(@Req() req: GatewayRequest) {
    return this.rpc.call<{ secret: string }>(OPS.session.tenants.webhookSecret, {}, callContext(req));
  }

  @Get('keys')
  @RequirePermission('tenant:read')
  @ApiOperation({
    summary: "The tenant's data key versions",
    description:
      'tenant:read. Every version of the data key (id, version, whether active, created, the key-encryption key provider ' +
      'it is wrapped under), oldest first, and while a re-encryption job (admin keys reencrypt) runs for the tenant, its ' +
      'progress per kind of sealed value. Never key material.',
  })
  @ApiOkResponse({ type: TenantKeysView })
  keys(@Req() req: GatewayRequest) {
    return this.rpc.call<TenantKeysView>(OPS.token.keys.status, {}, callContext(req));
  }

  @Post('webhook-secret/rotate')
  @HttpCode(200)
  @RequirePermission('tenant:update')
  @ApiOperation({
    summary: 'Rotate the webhook signing secret',
    description: 'tenant:update. For 24 hours webhooks carry two signatures, by the old and the new secret.',
  })
  @ApiOkResponse({ type: WebhookSecretView })
  rotateWebhookSecret(@Req() req: GatewayRequest) {
    return this.rpc.call<{ secret: string }>(OPS.session.tenants.rotateWebhookSecret, {}, callContext(req));
  }
}
