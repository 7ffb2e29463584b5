import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiConsumes, ApiTags } from '@nestjs/swagger';
import { CreateProxyRequest, OPS, ProxyView, type Page } from '@coffer/contracts';
import { RpcClient } from '@coffer/messaging';
import { Route } from '../http/route.decorator';
import { callContext, type GatewayRequest } from '../http/gateway-request';
import { AcceptsContentType } from '../http/content-type.guard';

/** Pre-configured proxies (docs/proxy.md), kept by reactor-service; invoked at /proxy with their key. */
@ApiTags('proxies')
@Controller()
export class ProxiesController {
  constructor(private readonly rpc: RpcClient) {}

  @Route(OPS.reactor.proxies.create)
  create(@Req() req: GatewayRequest, @Body() body: CreateProxyRequest) {
    return this.rpc.call<ProxyView>(OPS.reactor.proxies.create, body, callContext(req));
  }

  @Route(OPS.reactor.proxies.list)
  list(@Req() req: GatewayRequest, @Query() query: Record<string, string | string[]>) {
    return this.rpc.call<Page<ProxyView>>(OPS.reactor.proxies.list, { query }, callContext(req));
  }

  @Route(OPS.reactor.proxies.get)
  get(@Req() req: GatewayRequest, @Param('id') id: string) {
    return this.rpc.call<ProxyView>(OPS.reactor.proxies.get, { id }, callContext(req));
  }

  @Route(OPS.reactor.proxies.update)
  update(@Req() req: GatewayRequest, @Param('id') id: string, @Body() body: CreateProxyRequest) {
    return this.rpc.call<ProxyView>(OPS.reactor.proxies.update, { id, body }, callContext(req));
  }

  @Route(OPS.reactor.proxies.patch)
  @ApiConsumes('application/merge-patch+json', 'application/json')
  @AcceptsContentType(
    ['application/merge-patch+json', 'application/json'],
    'PATCH /proxies/{id} takes Content-Type: application/merge-patch+json (or application/json)',
  )
  async patch(@Req() req: GatewayRequest, @Param('id') id: string, @Body() body: Record<string, unknown>): Promise<void> {
    await this.rpc.call<ProxyView>(OPS.reactor.proxies.patch, { id, body }, callContext(req));
  }

  @Route(OPS.reactor.proxies.delete)
  async delete(@Req() req: GatewayRequest, @Param('id') id: string): Promise<void> {
    await this.rpc.call(OPS.reactor.proxies.delete, { id }, callContext(req));
  }
}
