import { Body, Controller, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { OPS, ListTokensV2Query, SearchTokensV2Request, TokenCursorPage } from '@coffer/contracts';
import { RpcClient } from '@coffer/messaging';
import { Route } from '../http/route.decorator';
import { callContext, type GatewayRequest } from '../http/gateway-request';

/**
 * The v2 token lists of the mirrored API (what `@basis-theory/node-sdk` calls for `tokens.listV2` and `searchV2`):
 * cursor pages only, `{data, pagination: {page_size, next?}}`. Pass `next` back as `start` for the following page.
 */
@ApiTags('tokens')
@Controller()
export class TokensV2Controller {
  constructor(private readonly rpc: RpcClient) {}

  /** Filters: `type`, `container` (trailing `*` = prefix), `fingerprint`, `metadata` (a JSON object); `size`, `start`. */
  @Route(OPS.token.tokens.listV2)
  list(@Req() req: GatewayRequest, @Query() query: ListTokensV2Query) {
    return this.rpc.call<TokenCursorPage>(OPS.token.tokens.listV2, { query }, callContext(req));
  }

  /** Body `{query?, size?, start?}`: the search language of POST /tokens/search; no query = every searchable token. */
  @Route(OPS.token.tokens.searchV2)
  search(@Req() req: GatewayRequest, @Body() body: SearchTokensV2Request) {
    return this.rpc.call<TokenCursorPage>(OPS.token.tokens.searchV2, body, callContext(req));
  }
}
