import { Body, Req, UseGuards } from '@nestjs/common';
import { OPS, AuthorizeSessionRequest } from '@coffer/contracts';
import { Route } from '../http/route.decorator';
import { HANDWRITTEN, RowRoutes, rowController } from '../http/row-routes';
import { callContext, type GatewayRequest } from '../http/gateway-request';
import { PrivateApplicationGuard } from './private-application.guard';

/** Authorizing a session takes a private application's key (checked here, before the body) and answers no body. */
class SessionAuthorization extends RowRoutes {
  @Route(OPS.session.sessions.authorize)
  @UseGuards(PrivateApplicationGuard)
  async authorize(@Req() req: GatewayRequest, @Body() body: AuthorizeSessionRequest): Promise<void> {
    await this.rpc.call(OPS.session.sessions.authorize, body, callContext(req));
  }
}

/** Who may create or authorize a session depends on the application type, checked by session-service. */
export const SessionsController = rowController('SessionsController', {
  tags: ['sessions'],
  handlers: SessionAuthorization,
  routes: { create: OPS.session.sessions.create, authorize: HANDWRITTEN },
});
