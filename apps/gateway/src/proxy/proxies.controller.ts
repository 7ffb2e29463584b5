import { Body, Param, Req } from '@nestjs/common';
import { ApiConsumes } from '@nestjs/swagger';
import { OPS, type ProxyView } from '@coffer/contracts';
import { Route } from '../http/route.decorator';
import { HANDWRITTEN, RowRoutes, rowController } from '../http/row-routes';
import { callContext, type GatewayRequest } from '../http/gateway-request';
import { AcceptsContentType } from '../http/content-type.guard';

/** The merge patch takes its own content type. */
class ProxyPatch extends RowRoutes {
  @Route(OPS.reactor.proxies.patch)
  @ApiConsumes('application/merge-patch+json', 'application/json')
  @AcceptsContentType(
    ['application/merge-patch+json', 'application/json'],
    'PATCH /proxies/{id} takes Content-Type: application/merge-patch+json (or application/json)',
  )
  async patch(@Req() req: GatewayRequest, @Param('id') id: string, @Body() body: Record<string, unknown>): Promise<void> {
    await this.rpc.call<ProxyView>(OPS.reactor.proxies.patch, { id, body }, callContext(req));
  }
}

/** Pre-configured proxies (docs/proxy.md), kept by reactor-service; invoked at /proxy with their key. */
export const ProxiesController = rowController('ProxiesController', {
  tags: ['proxies'],
  handlers: ProxyPatch,
  routes: {
    create: OPS.reactor.proxies.create,
    list: OPS.reactor.proxies.list,
    get: OPS.reactor.proxies.get,
    update: OPS.reactor.proxies.update,
    patch: HANDWRITTEN,
    delete: OPS.reactor.proxies.delete,
  },
});
