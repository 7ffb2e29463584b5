import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  OPS,
  ANY_JSON_SCHEMA,
  AuditEventPage,
  CreateTokenIntentRequest,
  CreateTokenRequest,
  DetokenizeRequest,
  ListLogsQuery,
  ListTokensQuery,
  SearchTokensRequest,
  TokenPage,
  TokenSearchPage,
  TokenIntentView,
  TokenView,
  TokenizeRequest,
  UpdateTokenPatch,
  type Page,
} from '@coffer/contracts';
import { RequirePermission } from '@coffer/auth';
import { RpcClient } from '@coffer/messaging';
import { callContext, type GatewayRequest } from '../http/gateway-request';
import { ApiProblems } from '../docs/api-problems.decorator';
import { JsonBodyInterceptor } from '../http/json-body.interceptor';
import { AcceptsContentType } from '../http/content-type.guard';

const TOKEN_INTENT_ID = { name: 'id', description: 'the token intent id', example: '665bf471-d675-4165-9336-4fc9c1a73fad' };
const TOKEN_ID = { name: 'id', description: 'the token id (a UUID, or the id given at creation)', example: 'c5d0a1e8-3d3b-4a55-8f0e-8d2f8b6a4c11' };

@ApiTags('tokens')
@Controller()
export class TokensController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('tokens')
  @HttpCode(201)
  @RequirePermission('token:create')
  @ApiOperation({
    summary: 'Create a token',
    description:
      "token:create. With deduplication, an existing live token of the same type and fingerprint is answered instead (201, the same shape; without read access only id, type, tenant_id, fingerprint, containers). With `token_intent_id` instead of `data`, the intent's data becomes the token and the intent is consumed.",
  })
  @ApiBody({ type: CreateTokenRequest })
  @ApiCreatedResponse({ type: TokenView, description: "the token, data masked per the caller's access" })
  @ApiProblems({
    404: 'token_intent_id names no token intent (never created, expired or deleted)',
    409: 'The literal id is taken, the token intent was already converted (or an idempotent repeat is in flight)',
  })
  create(@Req() req: GatewayRequest, @Body() body: CreateTokenRequest) {
    return this.rpc.call<TokenView>(OPS.token.tokens.create, body, callContext(req));
  }

  @Get('tokens')
  @RequirePermission('token:read')
  @ApiOperation({
    summary: 'List tokens',
    description:
      "token:read. Newest first; tokens no access rule allows are left out; data per the caller's transform. `metadata.<key>=<value>` filters by metadata (case-insensitive, ANDed).",
  })
  @ApiQuery({ name: 'metadata.<key>', required: false, description: 'metadata filter, e.g. metadata.customer=c-42 (any key)', schema: { type: 'string' } })
  @ApiOkResponse({ type: TokenPage })
  list(@Req() req: GatewayRequest, @Query() query: ListTokensQuery) {
    return this.rpc.call<Page<TokenView>>(OPS.token.tokens.list, { query }, callContext(req));
  }

  @Get('tokens/:id')
  @RequirePermission('token:read')
  @ApiOperation({ summary: 'Get a token', description: "token:read. 403 when no access rule allows the token's container." })
  @ApiParam(TOKEN_ID)
  @ApiOkResponse({ type: TokenView })
  get(@Req() req: GatewayRequest, @Param('id') id: string) {
    return this.rpc.call<TokenView>(OPS.token.tokens.get, { id }, callContext(req));
  }

  @Patch('tokens/:id')
  @RequirePermission('token:update')
  @ApiOperation({
    summary: 'Update a token (JSON merge patch)',
    description:
      'token:update. RFC 7386: null removes a key; containers, search_indexes, fingerprint_expression, deduplicate_token and expires_at are replaced. The type never changes.',
  })
  @ApiParam(TOKEN_ID)
  @ApiConsumes('application/merge-patch+json')
  @ApiBody({ type: UpdateTokenPatch })
  @ApiOkResponse({ type: TokenView, description: 'the updated token (or, with deduplication, the live duplicate it would have become)' })
  @ApiProblems({ 415: 'The Content-Type is not application/merge-patch+json' })
  @AcceptsContentType(['application/merge-patch+json'], 'PATCH /tokens/{id} requires Content-Type: application/merge-patch+json')
  update(@Req() req: GatewayRequest, @Param('id') id: string, @Body() body: UpdateTokenPatch) {
    return this.rpc.call<TokenView>(OPS.token.tokens.update, { id, patch: body }, callContext(req));
  }

  @Delete('tokens/:id')
  @HttpCode(204)
  @RequirePermission('token:delete')
  @ApiOperation({ summary: 'Delete a token', description: 'token:delete.' })
  @ApiParam(TOKEN_ID)
  @ApiNoContentResponse({ description: 'deleted' })
  async delete(@Req() req: GatewayRequest, @Param('id') id: string): Promise<void> {
    await this.rpc.call(OPS.token.tokens.delete, { id }, callContext(req));
  }

  @Post('token-intents')
  @HttpCode(201)
  @RequirePermission('token-intent:create')
  @ApiTags('token-intents')
  @ApiOperation({
    summary: 'Create a token intent',
    description:
      'token-intent:create (public or private keys). The data is validated as a token of the type, stored encrypted for 24 hours and never returned; POST /tokens with token_intent_id makes it a token.',
  })
  @ApiBody({ type: CreateTokenIntentRequest })
  @ApiCreatedResponse({ type: TokenIntentView, description: 'the intent: fingerprint and card or bank details, never the data' })
  createIntent(@Req() req: GatewayRequest, @Body() body: CreateTokenIntentRequest) {
    return this.rpc.call<TokenIntentView>(OPS.token.intents.create, body, callContext(req));
  }

  @Get('token-intents/:id')
  @RequirePermission('token-intent:read')
  @ApiTags('token-intents')
  @ApiOperation({ summary: 'Get a token intent', description: 'token-intent:read. 404 once it expired, was deleted or was converted to a token.' })
  @ApiParam(TOKEN_INTENT_ID)
  @ApiOkResponse({ type: TokenIntentView })
  getIntent(@Req() req: GatewayRequest, @Param('id') id: string) {
    return this.rpc.call<TokenIntentView>(OPS.token.intents.get, { id }, callContext(req));
  }

  @Delete('token-intents/:id')
  @HttpCode(204)
  @RequirePermission('token-intent:delete')
  @ApiTags('token-intents')
  @ApiOperation({ summary: 'Delete a token intent', description: 'token-intent:delete.' })
  @ApiParam(TOKEN_INTENT_ID)
  @ApiNoContentResponse({ description: 'deleted' })
  async deleteIntent(@Req() req: GatewayRequest, @Param('id') id: string): Promise<void> {
    await this.rpc.call(OPS.token.intents.delete, { id }, callContext(req));
  }

  @Get('logs')
  @RequirePermission('log:read')
  @ApiTags('logs')
  @ApiOperation({
    summary: 'List audit events',
    description: 'log:read. Every token create, read, update, delete, use and every reactor invocation; never sensitive data.',
  })
  @ApiOkResponse({ type: AuditEventPage })
  logs(@Req() req: GatewayRequest, @Query() query: ListLogsQuery) {
    return this.rpc.call(OPS.token.logs.list, query, callContext(req));
  }

  @Post('tokens/search')
  @HttpCode(200)
  @RequirePermission('token:search')
  @ApiOperation({
    summary: 'Search tokens',
    description:
      'token:search. Terms `field:value` joined by AND, OR, NOT, parentheses and quoted phrases; `data` terms match blind search indexes (never decrypted to compare).',
  })
  @ApiBody({ type: SearchTokensRequest })
  @ApiOkResponse({ type: TokenSearchPage })
  search(@Req() req: GatewayRequest, @Body() body: SearchTokensRequest) {
    return this.rpc.call<Page<TokenView>>(OPS.token.tokens.search, body, callContext(req));
  }

  @Post('tokenize')
  @HttpCode(200)
  @UseInterceptors(JsonBodyInterceptor)
  @RequirePermission('token:create')
  @ApiOperation({
    summary: 'Tokenize any JSON',
    description:
      'token:create. An object with `type` and `data` is a token request (the fields of POST /tokens) and is replaced by the created token (masked); any other primitive becomes a `token` of that value and is replaced by its id; other objects and arrays are walked. All or nothing; at most 100 tokens per call. Errors name the nested path (`card.data.number`).',
  })
  @ApiBody({
    schema: { ...ANY_JSON_SCHEMA, description: 'any JSON' } as object,
    examples: {
      request: { summary: 'a token request', value: { type: 'card_number', data: '4242424242424242' } },
      walked: {
        summary: 'an object walked',
        value: { card: { type: 'card', data: { number: '4242424242424242', expiration_month: 12, expiration_year: 2030 } }, ssn: '123-45-6789' },
      },
    },
  })
  @ApiOkResponse({
    schema: { ...ANY_JSON_SCHEMA, description: 'the same shape, token requests replaced by tokens and primitives by token ids' } as object,
    example: { id: 'c5d0a1e8-3d3b-4a55-8f0e-8d2f8b6a4c11', type: 'card_number', data: '############4242' },
  })
  @ApiProblems({ 409: 'A literal token id is taken (or an idempotent repeat is in flight)' })
  tokenize(@Req() req: GatewayRequest, @Body() message: TokenizeRequest) {
    return this.rpc.call(OPS.token.tokens.tokenize, message, callContext(req));
  }

  @Post('detokenize')
  @HttpCode(200)
  @UseInterceptors(JsonBodyInterceptor)
  @RequirePermission('token:use', 'token:read')
  @ApiOperation({
    summary: 'Detokenize any JSON',
    description:
      "token:use (or token:read with the reveal transform) for each token's container. Detokenization expressions `{{ <token id> }}` anywhere in the JSON are replaced by the token data.",
  })
  @ApiBody({
    schema: { ...ANY_JSON_SCHEMA, description: 'any JSON' } as object,
    examples: { expression: { summary: 'an object with an expression', value: { card: '{{ c5d0a1e8-3d3b-4a55-8f0e-8d2f8b6a4c11 }}' } } },
  })
  @ApiOkResponse({
    schema: { ...ANY_JSON_SCHEMA, description: 'the same shape, expressions replaced by token data' } as object,
    example: { card: { number: '4242424242424242', expiration_month: 12, expiration_year: 2030 } },
  })
  detokenize(@Req() req: GatewayRequest, @Body() message: DetokenizeRequest) {
    return this.rpc.call(OPS.token.tokens.detokenize, message, callContext(req));
  }
}
