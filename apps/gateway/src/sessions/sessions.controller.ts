import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OPS, AuthorizeSessionRequest, CreateSessionResponse } from '@coffer/contracts';
import { AuthenticatedOnly } from '@coffer/auth';
import { RpcClient } from '@coffer/messaging';
import { callContext, type GatewayRequest } from '../http/gateway-request';
import { ApiProblems } from '../docs/api-problems.decorator';
import { PrivateApplicationGuard } from './private-application.guard';

/** Who may create or authorize a session depends on the application type, checked by session-service. */
@ApiTags('sessions')
@Controller('sessions')
export class SessionsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(201)
  @AuthenticatedOnly()
  @ApiOperation({
    summary: 'Create a session',
    description:
      "A public application's key (any other key: 403). No body. The session key has no access until a private application authorizes it with the nonce.",
  })
  @ApiCreatedResponse({ type: CreateSessionResponse })
  create(@Req() req: GatewayRequest) {
    return this.rpc.call<CreateSessionResponse>(OPS.session.sessions.create, {}, callContext(req));
  }

  @Post('authorize')
  @HttpCode(200)
  @AuthenticatedOnly()
  @ApiOperation({
    summary: 'Authorize a session',
    description: "A private application's key. Grants the session permissions or rules the authorizer holds itself (more: 400); the nonce is single-use.",
  })
  @ApiBody({ type: AuthorizeSessionRequest })
  @ApiOkResponse({ description: 'authorized (empty body)' })
  @ApiProblems({ 404: 'Unknown or expired nonce', 409: 'The session is already authorized' })
  @UseGuards(PrivateApplicationGuard)
  async authorize(@Req() req: GatewayRequest, @Body() body: AuthorizeSessionRequest): Promise<void> {
    await this.rpc.call(OPS.session.sessions.authorize, body, callContext(req));
  }
}
