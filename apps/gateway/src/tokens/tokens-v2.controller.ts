import { Body, Controller, Get, HttpCode, Post, Query, Req } from '@nestjs/common';
import { SUBJECTS, type TokenView } from '@coffer/contracts';
import { RequirePermission } from '@coffer/auth';
import { RpcClient } from '@coffer/messaging';
import { callContext, type GatewayRequest } from '../http/gateway-request';

interface CursorPage {
  data: TokenView[];
  pagination: { page_size: number; next?: string };
}

/**
 * The v2 token lists of the mirrored API (what `@basis-theory/node-sdk` calls for `tokens.listV2` and `searchV2`):
 * cursor pages only, `{data, pagination: {page_size, next?}}`. Pass `next` back as `start` for the following page.
 */
@Controller('v2/tokens')
export class TokensV2Controller {
  constructor(private readonly rpc: RpcClient) {}

  /** Filters: `type`, `container` (trailing `*` = prefix), `fingerprint`, `metadata` (a JSON object); `size`, `start`. */
  @Get()
  @RequirePermission('token:read')
  list(@Req() req: GatewayRequest, @Query() query: Record<string, string | string[]>) {
    return this.rpc.call<CursorPage>(SUBJECTS.token.tokens.listV2, { query }, callContext(req));
  }

  /** Body `{query?, size?, start?}`: the search language of POST /tokens/search; no query = every searchable token. */
  @Post('search')
  @HttpCode(200)
  @RequirePermission('token:search')
  search(@Req() req: GatewayRequest, @Body() body: unknown) {
    return this.rpc.call<CursorPage>(SUBJECTS.token.tokens.searchV2, body ?? {}, callContext(req));
  }
}
