import { Body, Controller, Param, Query, Req, UseInterceptors } from '@nestjs/common';
import { ApiConsumes, ApiTags } from '@nestjs/swagger';
import {
  OPS,
  CreateTokenIntentRequest,
  CreateTokenRequest,
  DetokenizeRequest,
  ListLogsQuery,
  ListTokensQuery,
  SearchTokensRequest,
  TokenIntentView,
  TokenView,
  TokenizeRequest,
  UpdateTokenPatch,
  type Page,
} from '@coffer/contracts';
import { RpcClient } from '@coffer/messaging';
import { Route } from '../http/route.decorator';
import { callContext, type GatewayRequest } from '../http/gateway-request';
import { JsonBodyInterceptor } from '../http/json-body.interceptor';
import { AcceptsContentType } from '../http/content-type.guard';

@ApiTags('tokens')
@Controller()
export class TokensController {
  constructor(private readonly rpc: RpcClient) {}

  @Route(OPS.token.tokens.create)
  create(@Req() req: GatewayRequest, @Body() body: CreateTokenRequest) {
    return this.rpc.call<TokenView>(OPS.token.tokens.create, body, callContext(req));
  }

  @Route(OPS.token.tokens.list)
  list(@Req() req: GatewayRequest, @Query() query: ListTokensQuery) {
    return this.rpc.call<Page<TokenView>>(OPS.token.tokens.list, { query }, callContext(req));
  }

  @Route(OPS.token.tokens.get)
  get(@Req() req: GatewayRequest, @Param('id') id: string) {
    return this.rpc.call<TokenView>(OPS.token.tokens.get, { id }, callContext(req));
  }

  @Route(OPS.token.tokens.update)
  @ApiConsumes('application/merge-patch+json')
  @AcceptsContentType(['application/merge-patch+json'], 'PATCH /tokens/{id} requires Content-Type: application/merge-patch+json')
  update(@Req() req: GatewayRequest, @Param('id') id: string, @Body() body: UpdateTokenPatch) {
    return this.rpc.call<TokenView>(OPS.token.tokens.update, { id, patch: body }, callContext(req));
  }

  @Route(OPS.token.tokens.delete)
  async delete(@Req() req: GatewayRequest, @Param('id') id: string): Promise<void> {
    await this.rpc.call(OPS.token.tokens.delete, { id }, callContext(req));
  }

  @Route(OPS.token.intents.create)
  @ApiTags('token-intents')
  createIntent(@Req() req: GatewayRequest, @Body() body: CreateTokenIntentRequest) {
    return this.rpc.call<TokenIntentView>(OPS.token.intents.create, body, callContext(req));
  }

  @Route(OPS.token.intents.get)
  @ApiTags('token-intents')
  getIntent(@Req() req: GatewayRequest, @Param('id') id: string) {
    return this.rpc.call<TokenIntentView>(OPS.token.intents.get, { id }, callContext(req));
  }

  @Route(OPS.token.intents.delete)
  @ApiTags('token-intents')
  async deleteIntent(@Req() req: GatewayRequest, @Param('id') id: string): Promise<void> {
    await this.rpc.call(OPS.token.intents.delete, { id }, callContext(req));
  }

  @Route(OPS.token.logs.list)
  @ApiTags('logs')
  logs(@Req() req: GatewayRequest, @Query() query: ListLogsQuery) {
    return this.rpc.call(OPS.token.logs.list, query, callContext(req));
  }

  @Route(OPS.token.tokens.search)
  search(@Req() req: GatewayRequest, @Body() body: SearchTokensRequest) {
    return this.rpc.call<Page<TokenView>>(OPS.token.tokens.search, body, callContext(req));
  }

  @Route(OPS.token.tokens.tokenize)
  @UseInterceptors(JsonBodyInterceptor)
  tokenize(@Req() req: GatewayRequest, @Body() message: TokenizeRequest) {
    return this.rpc.call(OPS.token.tokens.tokenize, message, callContext(req));
  }

  @Route(OPS.token.tokens.detokenize)
  @UseInterceptors(JsonBodyInterceptor)
  detokenize(@Req() req: GatewayRequest, @Body() message: DetokenizeRequest) {
    return this.rpc.call(OPS.token.tokens.detokenize, message, callContext(req));
  }
}
