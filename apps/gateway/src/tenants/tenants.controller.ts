import { Body, Controller, Get, HttpCode, Post, Put, Req } from '@nestjs/common';
import { SUBJECTS, type TenantView } from '@coffer/contracts';
import { RequirePermission } from '@coffer/auth';
import { RpcClient } from '@coffer/messaging';
import { callContext, type GatewayRequest } from '../http/gateway-request';

@Controller('tenants/self')
export class TenantsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @RequirePermission('tenant:read')
  get(@Req() req: GatewayRequest) {
    return this.rpc.call<TenantView>(SUBJECTS.session.tenants.get, {}, callContext(req));
  }

  @Put()
  @RequirePermission('tenant:update')
  update(@Req() req: GatewayRequest, @Body() body: unknown) {
    return this.rpc.call<TenantView>(SUBJECTS.session.tenants.update, body ?? {}, callContext(req));
  }

  @Get('webhook-secret')
  @RequirePermission('tenant:read')
  webhookSecret(@Req() req: GatewayRequest) {
    return this.rpc.call<{ secret: string }>(SUBJECTS.session.tenants.webhookSecret, {}, callContext(req));
  }

  @Post('webhook-secret/rotate')
  @HttpCode(200)
  @RequirePermission('tenant:update')
  rotateWebhookSecret(@Req() req: GatewayRequest) {
    return this.rpc.call<{ secret: string }>(SUBJECTS.session.tenants.rotateWebhookSecret, {}, callContext(req));
  }
}
