import { Body, Controller, Get, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OPS, ListTokensV2Query, SearchTokensV2Request, TokenCursorPage } from '@coffer/contracts';
import { RequirePermission } from '@coffer/auth';
import { RpcClient } from '@coffer/messaging';
import { callContext, type GatewayRequest } from '../http/gateway-request';

/**
 * The v2 token lists of the mirrored API (what `@basis-theory/node-sdk` calls for `tokens.listV2` and `searchV2`):
 * cursor pages only, `{data, pagination: {page_size, next?}}`. Pass `next` back as `start` for the following page.
 */
@ApiTags('tokens')
@Controller('v2/tokens')
export class TokensV2Controller {
  constructor(private readonly rpc: RpcClient) {}

  /** Filters: `type`, `container` (trailing `*` = prefix), `fingerprint`, `metadata` (a JSON object); `size`, `start`. */
  @Get()
  @RequirePermission('token:read')
  @ApiOperation({ summary: 'List tokens (cursor pages)', description: 'token:read. Newest first; the same access rules and transforms as GET /tokens.' })
  @ApiOkResponse({ type: TokenCursorPage })
  list(@Req() req: GatewayRequest, @Query() query: ListTokensV2Query) {
    return this.rpc.call<TokenCursorPage>(OPS.token.tokens.listV2, { query }, callContext(req));
  }

  /** Body `{query?, size?, start?}`: the search language of POST /tokens/search; no query = every searchable token. */
  @Post('search')
  @HttpCode(200)
  @RequirePermission('token:search')
  @ApiOperation({ summary: 'Search tokens (cursor pages)', description: 'token:search. The query language of POST /tokens/search.' })
  @ApiBody({ type: SearchTokensV2Request })
  @ApiOkResponse({ type: TokenCursorPage })
  search(@Req() req: GatewayRequest, @Body() body: SearchTokensV2Request) {
    return this.rpc.call<TokenCursorPage>(OPS.token.tokens.searchV2, body, callContext(req));
  }
}
