import { OPS } from '@coffer/contracts';
import { rowController } from '../http/row-routes';

/** Pre-configured proxies (docs/proxy.md), kept by reactor-service; invoked at /proxy with their key. */
export const ProxiesController = rowController('ProxiesController', {
  tags: ['proxies'],
  routes: {
    create: OPS.reactor.proxies.create,
    list: OPS.reactor.proxies.list,
    get: OPS.reactor.proxies.get,
    update: OPS.reactor.proxies.update,
    /** a merge patch (`consumes`), answered 204 as the mirrored service does */
    patch: OPS.reactor.proxies.patch,
    delete: OPS.reactor.proxies.delete,
  },
});
