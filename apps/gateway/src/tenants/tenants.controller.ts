import { Body, Controller, Get, Put, Req } from '@nestjs/common';
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
}
