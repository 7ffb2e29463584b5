import { Controller } from '@nestjs/common';
import { OPS, type ProxyIdempotencyMessage, type ProxyTransformMessage, type ResolveProxyMessage } from '@coffer/contracts';
import { Operation, ResourceHandler, type Command } from '@coffer/operations';
import { ProxiesService } from './proxies.service';
import { ProxyTransforms } from './transforms/proxy-transforms';
import { ProxyIdempotency } from './proxy-idempotency';

@Controller()
export class ProxiesHandler extends ResourceHandler(ProxiesService, OPS.reactor.proxies) {
  constructor(
    proxies: ProxiesService,
    private readonly transforms: ProxyTransforms,
    private readonly idempotency: ProxyIdempotency,
  ) {
    super(proxies);
  }

  /** No principal when the gateway asks for an anonymous call; proxy-service forwards the invoker's. */
  @Operation(OPS.reactor.proxies.resolve)
  resolve(cmd: Command<ResolveProxyMessage>) {
    return this.resource.resolve(cmd.body.keyHash);
  }

  @Operation(OPS.reactor.proxies.transform)
  transform(cmd: Command<ProxyTransformMessage>) {
    return this.transforms.run(cmd.body);
  }

  @Operation(OPS.reactor.proxies.idempotency)
  idempotent(cmd: Command<ProxyIdempotencyMessage>) {
    return this.idempotency.handle(cmd.body);
  }
}
