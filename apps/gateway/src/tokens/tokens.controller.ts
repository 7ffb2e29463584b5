import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ProblemError, SUBJECTS, type Page, type TokenView } from '@coffer/contracts';
import { RequirePermission } from '@coffer/auth';
import { RpcClient } from '@coffer/messaging';
import { callContext, type GatewayRequest } from '../http/gateway-request';

@Controller()
export class TokensController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('tokens')
  @HttpCode(201)
  @RequirePermission('token:create')
  create(@Req() req: GatewayRequest, @Body() body: unknown) {
    return this.rpc.call<TokenView>(SUBJECTS.token.tokens.create, body, callContext(req));
  }

  @Get('tokens')
  @RequirePermission('token:read')
  list(@Req() req: GatewayRequest, @Query() query: Record<string, string | string[]>) {
    return this.rpc.call<Page<TokenView>>(SUBJECTS.token.tokens.list, { query }, callContext(req));
  }

  @Get('tokens/:id')
  @RequirePermission('token:read')
  get(@Req() req: GatewayRequest, @Param('id') id: string) {
    return this.rpc.call<TokenView>(SUBJECTS.token.tokens.get, { id }, callContext(req));
  }

  @Patch('tokens/:id')
  @RequirePermission('token:update')
  update(
    @Req() req: GatewayRequest,
    @Param('id') id: string,
    @Headers('content-type') contentType: string | undefined,
    @Body() body: unknown,
  ) {
    // Fastify accepts application/json on every route; PATCH takes merge-patch only (spec: 415 otherwise).
    if (!contentType || contentType.split(';')[0].trim().toLowerCase() !== 'application/merge-patch+json')
      throw new ProblemError(415, 'PATCH /tokens/{id} requires Content-Type: application/merge-patch+json');
    return this.rpc.call<TokenView>(SUBJECTS.token.tokens.update, { id, patch: body }, callContext(req));
  }

  @Delete('tokens/:id')
  @HttpCode(204)
  @RequirePermission('token:delete')
  async delete(@Req() req: GatewayRequest, @Param('id') id: string): Promise<void> {
    await this.rpc.call(SUBJECTS.token.tokens.delete, { id }, callContext(req));
  }

  @Get('logs')
  @RequirePermission('log:read')
  logs(@Req() req: GatewayRequest, @Query() query: Record<string, unknown>) {
    return this.rpc.call(SUBJECTS.token.logs.list, query, callContext(req));
  }

  @Post('tokens/search')
  @HttpCode(200)
  @RequirePermission('token:search')
  search(@Req() req: GatewayRequest, @Body() body: unknown) {
    return this.rpc.call<Page<TokenView>>(SUBJECTS.token.tokens.search, body, callContext(req));
  }

  @Post('tokenize')
  @HttpCode(200)
  @RequirePermission('token:create')
  tokenize(@Req() req: GatewayRequest, @Body() body: unknown) {
    return this.rpc.call(SUBJECTS.token.tokens.tokenize, { payload: body }, callContext(req));
  }

  @Post('detokenize')
  @HttpCode(200)
  @RequirePermission('token:use', 'token:read')
  detokenize(@Req() req: GatewayRequest, @Body() body: unknown) {
    return this.rpc.call(SUBJECTS.token.tokens.detokenize, { payload: body }, callContext(req));
  }
}
