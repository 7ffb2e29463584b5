import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CreateProxyRequest, OPS, ProxyPage, ProxyView, type Page } from '@coffer/contracts';
import { RequirePermission } from '@coffer/auth';
import { RpcClient } from '@coffer/messaging';
import { callContext, type GatewayRequest } from '../http/gateway-request';
import { AcceptsContentType } from '../http/content-type.guard';
import { ApiProblems } from '../docs/api-problems.decorator';

const PROXY_ID = { name: 'id', format: 'uuid', description: 'the proxy id' };

/** Pre-configured proxies (docs/proxy.md), kept by reactor-service; invoked at /proxy with their key. */
@ApiTags('proxies')
@Controller('proxies')
export class ProxiesController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(201)
  @RequirePermission('proxy:create')
  @ApiOperation({
    summary: 'Create a proxy',
    description:
      'proxy:create. The reply carries the generated `key` that invokes it (BT-PROXY-KEY). `configuration` is stored encrypted; tokenize transforms need an `application` with token:create.',
  })
  @ApiBody({ type: CreateProxyRequest })
  @ApiCreatedResponse({ type: ProxyView })
  @ApiProblems({ 404: 'The application does not exist' })
  create(@Req() req: GatewayRequest, @Body() body: CreateProxyRequest) {
    return this.rpc.call<ProxyView>(OPS.reactor.proxies.create, body, callContext(req));
  }

  @Get()
  @RequirePermission('proxy:read')
  @ApiOperation({ summary: 'List proxies', description: 'proxy:read. Newest first; `id` (repeatable) and `name` (wildcard `*`) filter.' })
  @ApiQuery({ name: 'id', required: false, type: [String] })
  @ApiQuery({ name: 'name', required: false })
  @ApiOkResponse({ type: ProxyPage })
  list(@Req() req: GatewayRequest, @Query() query: Record<string, string | string[]>) {
    return this.rpc.call<Page<ProxyView>>(OPS.reactor.proxies.list, { query }, callContext(req));
  }

  @Get(':id')
  @RequirePermission('proxy:read')
  @ApiOperation({ summary: 'Get a proxy', description: 'proxy:read.' })
  @ApiParam(PROXY_ID)
  @ApiOkResponse({ type: ProxyView })
  get(@Req() req: GatewayRequest, @Param('id') id: string) {
    return this.rpc.call<ProxyView>(OPS.reactor.proxies.get, { id }, callContext(req));
  }

  @Put(':id')
  @RequirePermission('proxy:update')
  @ApiOperation({ summary: 'Update a proxy', description: 'proxy:update. Everything but the key is replaced; absent optional members take their defaults.' })
  @ApiParam(PROXY_ID)
  @ApiBody({ type: CreateProxyRequest })
  @ApiOkResponse({ type: ProxyView })
  update(@Req() req: GatewayRequest, @Param('id') id: string, @Body() body: CreateProxyRequest) {
    return this.rpc.call<ProxyView>(OPS.reactor.proxies.update, { id, body }, callContext(req));
  }

  @Patch(':id')
  @HttpCode(204)
  @RequirePermission('proxy:update')
  @ApiOperation({
    summary: 'Patch a proxy (JSON merge patch)',
    description: 'proxy:update. The merged proxy is validated as a PUT. Answers 204, as the mirrored service does: GET the proxy to read it.',
  })
  @ApiParam(PROXY_ID)
  @ApiConsumes('application/merge-patch+json', 'application/json')
  @ApiBody({ schema: { type: 'object', additionalProperties: true } })
  @ApiNoContentResponse({ description: 'patched' })
  @ApiProblems({ 415: 'The Content-Type is neither application/merge-patch+json nor application/json' })
  @AcceptsContentType(
    ['application/merge-patch+json', 'application/json'],
    'PATCH /proxies/{id} takes Content-Type: application/merge-patch+json (or application/json)',
  )
  async patch(@Req() req: GatewayRequest, @Param('id') id: string, @Body() body: Record<string, unknown>): Promise<void> {
    await this.rpc.call<ProxyView>(OPS.reactor.proxies.patch, { id, body }, callContext(req));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('proxy:delete')
  @ApiOperation({ summary: 'Delete a proxy', description: 'proxy:delete. Its key stops working at once.' })
  @ApiParam(PROXY_ID)
  @ApiNoContentResponse({ description: 'deleted' })
  async delete(@Req() req: GatewayRequest, @Param('id') id: string): Promise<void> {
    await this.rpc.call(OPS.reactor.proxies.delete, { id }, callContext(req));
  }
}
