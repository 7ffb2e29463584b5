import { Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { SUBJECTS, type ApplicationKeyView } from '@coffer/contracts';
import { RequirePermission } from '@coffer/auth';
import { RpcClient } from '@coffer/messaging';
import { callContext, type GatewayRequest } from '../http/gateway-request';

/** Several API keys per application: the secret is in the create reply only; delete revokes at once. */
@Controller('applications')
export class ApplicationKeysController {
  constructor(private readonly rpc: RpcClient) {}

  @Post(':id/keys')
  @HttpCode(201)
  @RequirePermission('application:update')
  create(@Req() req: GatewayRequest, @Param('id') applicationId: string) {
    return this.rpc.call<ApplicationKeyView>(SUBJECTS.session.applications.keys.create, { applicationId }, callContext(req));
  }

  @Get(':id/keys')
  @RequirePermission('application:read')
  list(@Req() req: GatewayRequest, @Param('id') applicationId: string) {
    return this.rpc.call<ApplicationKeyView[]>(SUBJECTS.session.applications.keys.list, { applicationId }, callContext(req));
  }

  @Get(':id/keys/:keyId')
  @RequirePermission('application:read')
  get(@Req() req: GatewayRequest, @Param('id') applicationId: string, @Param('keyId') keyId: string) {
    return this.rpc.call<ApplicationKeyView>(SUBJECTS.session.applications.keys.get, { applicationId, keyId }, callContext(req));
  }

  @Delete(':id/keys/:keyId')
  @HttpCode(204)
  @RequirePermission('application:update')
  async delete(@Req() req: GatewayRequest, @Param('id') applicationId: string, @Param('keyId') keyId: string): Promise<void> {
    await this.rpc.call(SUBJECTS.session.applications.keys.delete, { applicationId, keyId }, callContext(req));
  }
}
