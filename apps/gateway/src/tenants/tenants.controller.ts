import { Body, Controller, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { OPS, TenantKeysView, TenantView, UpdateTenantRequest } from '@coffer/contracts';
import { RpcClient } from '@coffer/messaging';
import { Route } from '../http/route.decorator';
import { callContext, type GatewayRequest } from '../http/gateway-request';

@ApiTags('tenants')
@Controller()
export class TenantsController {
  constructor(private readonly rpc: RpcClient) {}

  @Route(OPS.session.tenants.get)
  get(@Req() req: GatewayRequest) {
    return this.rpc.call<TenantView>(OPS.session.tenants.get, {}, callContext(req));
  }

  @Route(OPS.session.tenants.update)
  update(@Req() req: GatewayRequest, @Body() body: UpdateTenantRequest) {
    return this.rpc.call<TenantView>(OPS.session.tenants.update, body, callContext(req));
  }

  @Route(OPS.session.tenants.webhookSecret)
  webhookSecret(@Req() req: GatewayRequest) {
    return this.rpc.call<{ secret: string }>(OPS.session.tenants.webhookSecret, {}, callContext(req));
  }

  @Route(OPS.token.keys.status)
  keys(@Req() req: GatewayRequest) {
    return this.rpc.call<TenantKeysView>(OPS.token.keys.status, {}, callContext(req));
  }

  @Route(OPS.session.tenants.rotateWebhookSecret)
  rotateWebhookSecret(@Req() req: GatewayRequest) {
    return this.rpc.call<{ secret: string }>(OPS.session.tenants.rotateWebhookSecret, {}, callContext(req));
  }
}
