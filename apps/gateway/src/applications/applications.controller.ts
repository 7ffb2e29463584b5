import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { OPS, ApplicationView, CreateApplicationRequest, ListApplicationsQuery, UpdateApplicationRequest, type Page } from '@coffer/contracts';
import { RpcClient } from '@coffer/messaging';
import { Route } from '../http/route.decorator';
import { callContext, type GatewayRequest } from '../http/gateway-request';

@ApiTags('applications')
@Controller()
export class ApplicationsController {
  constructor(private readonly rpc: RpcClient) {}

  @Route(OPS.session.applications.create)
  create(@Req() req: GatewayRequest, @Body() body: CreateApplicationRequest) {
    return this.rpc.call<ApplicationView>(OPS.session.applications.create, body, callContext(req));
  }

  @Route(OPS.session.applications.list)
  list(@Req() req: GatewayRequest, @Query() query: ListApplicationsQuery) {
    return this.rpc.call<Page<ApplicationView>>(OPS.session.applications.list, query, callContext(req));
  }

  /** The calling application (any application key; a session key is refused by session-service). */
  @Route(OPS.session.applications.current)
  current(@Req() req: GatewayRequest) {
    return this.rpc.call<ApplicationView>(OPS.session.applications.current, {}, callContext(req));
  }

  @Route(OPS.session.applications.get)
  get(@Req() req: GatewayRequest, @Param('id') id: string) {
    return this.rpc.call<ApplicationView>(OPS.session.applications.get, { id }, callContext(req));
  }

  @Route(OPS.session.applications.update)
  update(@Req() req: GatewayRequest, @Param('id') id: string, @Body() body: UpdateApplicationRequest) {
    return this.rpc.call<ApplicationView>(OPS.session.applications.update, { id, body }, callContext(req));
  }

  @Route(OPS.session.applications.delete)
  async delete(@Req() req: GatewayRequest, @Param('id') id: string): Promise<void> {
    await this.rpc.call(OPS.session.applications.delete, { id }, callContext(req));
  }

  @Route(OPS.session.applications.regenerate)
  regenerate(@Req() req: GatewayRequest, @Param('id') id: string) {
    return this.rpc.call<ApplicationView>(OPS.session.applications.regenerate, { id }, callContext(req));
  }
}
