import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { SUBJECTS, type CreateSessionResponse } from '@coffer/contracts';
import { AuthenticatedOnly } from '@coffer/auth';
import { RpcClient } from '@coffer/messaging';
import { callContext, type GatewayRequest } from '../http/gateway-request';

/** Who may create or authorize a session depends on the application type, checked by session-service. */
@Controller('sessions')
export class SessionsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(201)
  @AuthenticatedOnly()
  create(@Req() req: GatewayRequest) {
    return this.rpc.call<CreateSessionResponse>(SUBJECTS.session.sessions.create, {}, callContext(req));
  }

  @Post('authorize')
  @HttpCode(200)
  @AuthenticatedOnly()
  async authorize(@Req() req: GatewayRequest, @Body() body: unknown): Promise<void> {
    await this.rpc.call(SUBJECTS.session.sessions.authorize, body ?? {}, callContext(req));
  }
}
