import { Controller, Param, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { OPS, ApplicationKeyView } from '@coffer/contracts';
import { RpcClient } from '@coffer/messaging';
import { Route } from '../http/route.decorator';
import { callContext, type GatewayRequest } from '../http/gateway-request';

/** Several API keys per application: the secret is in the create reply only; delete revokes at once. */
@ApiTags('applications')
@Controller()
export class ApplicationKeysController {
  constructor(private readonly rpc: RpcClient) {}

  @Route(OPS.session.applications.keys.create)
  create(@Req() req: GatewayRequest, @Param('id') applicationId: string) {
    return this.rpc.call<ApplicationKeyView>(OPS.session.applications.keys.create, { applicationId }, callContext(req));
  }

  @Route(OPS.session.applications.keys.list)
  list(@Req() req: GatewayRequest, @Param('id') applicationId: string) {
    return this.rpc.call<ApplicationKeyView[]>(OPS.session.applications.keys.list, { applicationId }, callContext(req));
  }

  @Route(OPS.session.applications.keys.get)
  get(@Req() req: GatewayRequest, @Param('id') applicationId: string, @Param('keyId') keyId: string) {
    return this.rpc.call<ApplicationKeyView>(OPS.session.applications.keys.get, { applicationId, keyId }, callContext(req));
  }

  @Route(OPS.session.applications.keys.delete)
  async delete(@Req() req: GatewayRequest, @Param('id') applicationId: string, @Param('keyId') keyId: string): Promise<void> {
    await this.rpc.call(OPS.session.applications.keys.delete, { applicationId, keyId }, callContext(req));
  }
}
