import { Body, Controller, Get, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { SUBJECTS, type TokenView } from '@coffer/contracts';
import { RequirePermission } from '@coffer/auth';
import { RpcClient } from '@coffer/messaging';
import { callContext, type GatewayRequest } from '../http/gateway-request';

const CURSOR_PAGE_SCHEMA = {
  type: 'object',
  properties: {
    data: { type: 'array', items: { type: 'object', description: 'a token, transformed per the caller\'s access rules' } },
    pagination: {
      type: 'object',
      properties: { page_size: { type: 'integer' }, next: { type: 'string', description: 'pass as start for the next page; absent on the last page' } },
    },
  },
} as const;

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
  @ApiOperation({ summary: 'List tokens (cursor pages)', description: 'token:read. Newest first; the same access rules and transforms as GET /tokens.' })
  @ApiQuery({ name: 'type', required: false, description: 'token type (repeatable)' })
  @ApiQuery({ name: 'container', required: false, description: 'exact container, or a prefix ending in *' })
  @ApiQuery({ name: 'fingerprint', required: false })
  @ApiQuery({ name: 'metadata', required: false, description: 'a JSON object of strings, e.g. {"customer":"c-42"}: case-insensitive exact match, ANDed' })
  @ApiQuery({ name: 'size', required: false, description: '0–100, default 20' })
  @ApiQuery({ name: 'start', required: false, description: 'pagination.next of the previous page' })
  @ApiResponse({ status: 200, schema: CURSOR_PAGE_SCHEMA })
  list(@Req() req: GatewayRequest, @Query() query: Record<string, string | string[]>) {
    return this.rpc.call<CursorPage>(SUBJECTS.token.tokens.listV2, { query }, callContext(req));
  }

  /** Body `{query?, size?, start?}`: the search language of POST /tokens/search; no query = every searchable token. */
  @Post('search')
  @HttpCode(200)
  @RequirePermission('token:search')
  @ApiOperation({ summary: 'Search tokens (cursor pages)', description: 'token:search. The query language of POST /tokens/search.' })
  @ApiBody({
    schema: {
      type: 'object',
      properties: { query: { type: 'string', example: 'metadata.customer:c-42 AND type:card' }, size: { type: 'integer' }, start: { type: 'string' } },
    },
  })
  @ApiResponse({ status: 200, schema: CURSOR_PAGE_SCHEMA })
  search(@Req() req: GatewayRequest, @Body() body: unknown) {
    return this.rpc.call<CursorPage>(SUBJECTS.token.tokens.searchV2, body ?? {}, callContext(req));
  }
}
