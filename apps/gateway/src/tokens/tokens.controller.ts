import { Body, Req, UseInterceptors } from '@nestjs/common';
import { OPS, DetokenizeRequest, TokenizeRequest } from '@coffer/contracts';
import { Route } from '../http/route.decorator';
import { HANDWRITTEN, RowRoutes, rowController } from '../http/row-routes';
import { callContext, type GatewayRequest } from '../http/gateway-request';
import { JsonBodyInterceptor } from '../http/json-body.interceptor';

/** Tokenize and detokenize take any JSON document as their body (JsonBodyInterceptor): their routes are written here. */
class TokenHandlers extends RowRoutes {
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

/** Tokens, token intents and the audit log, kept by token-service. */
export const TokensController = rowController('TokensController', {
  tags: ['tokens'],
  handlers: TokenHandlers,
  routes: {
    create: OPS.token.tokens.create,
    list: OPS.token.tokens.list,
    get: OPS.token.tokens.get,
    update: OPS.token.tokens.update,
    delete: OPS.token.tokens.delete,
    createIntent: OPS.token.intents.create,
    getIntent: OPS.token.intents.get,
    deleteIntent: OPS.token.intents.delete,
    logs: OPS.token.logs.list,
    search: OPS.token.tokens.search,
    tokenize: HANDWRITTEN,
    detokenize: HANDWRITTEN,
  },
});
