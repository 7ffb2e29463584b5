import { Body, Controller, Req, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { OPS, AuthorizeSessionRequest, CreateSessionResponse } from '@coffer/contracts';
import { RpcClient } from '@coffer/messaging';
import { Route } from '../http/route.decorator';
import { callContext, type GatewayRequest } from '../http/gateway-request';
import { PrivateApplicationGuard } from './private-application.guard';

/** Who may create or authorize a session depends on the application type, checked by session-service. */
@ApiTags('sessions')
@Controller()
export class SessionsController {
  constructor(private readonly rpc: RpcClient) {}

  @Route(OPS.session.sessions.create)
  create(@Req() req: GatewayRequest) {
    return this.rpc.call<CreateSessionResponse>(OPS.session.sessions.create, {}, callContext(req));
  }

  @Route(OPS.session.sessions.authorize)
  @UseGuards(PrivateApplicationGuard)
  async authorize(@Req() req: GatewayRequest, @Body() body: AuthorizeSessionRequest): Promise<void> {
    await this.rpc.call(OPS.session.sessions.authorize, body, callContext(req));
  }
}
