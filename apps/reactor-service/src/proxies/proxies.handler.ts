import { Controller } from '@nestjs/common';
import {
  OPS,
  type IdRequest,
  type ProxyIdempotencyMessage,
  type ProxyTransformMessage,
  type ReactorBodyRequest,
  type ResolveProxyMessage,
} from '@coffer/contracts';
import { Operation, type Command } from '@coffer/operations';
import { ProxiesService } from './proxies.service';
import { ProxyTransforms } from './transforms/proxy-transforms';
import { ProxyIdempotency } from './proxy-idempotency';

@Controller()
export class ProxiesHandler {
  constructor(
    private readonly proxies: ProxiesService,
    private readonly transforms: ProxyTransforms,
    private readonly idempotency: ProxyIdempotency,
  ) {}

  @Operation(OPS.reactor.proxies.create)
  create(cmd: Command) {
    return this.proxies.create(cmd.body);
  }

  @Operation(OPS.reactor.proxies.list)
  list(cmd: Command<{ query?: Record<string, unknown> } | undefined>) {
    return this.proxies.list(cmd.body?.query ?? {});
  }

  @Operation(OPS.reactor.proxies.get)
  get(cmd: Command<IdRequest>) {
    return this.proxies.get(cmd.body.id);
  }

  @Operation(OPS.reactor.proxies.update)
  update(cmd: Command<ReactorBodyRequest>) {
    return this.proxies.update(cmd.body.id, cmd.body.body);
  }

  @Operation(OPS.reactor.proxies.patch)
  patch(cmd: Command<ReactorBodyRequest>) {
    return this.proxies.patch(cmd.body.id, cmd.body.body);
  }

  @Operation(OPS.reactor.proxies.delete)
  async delete(cmd: Command<IdRequest>) {
    await this.proxies.delete(cmd.body.id);
    return { deleted: true };
  }

  /** No principal when the gateway asks for an anonymous call; proxy-service forwards the invoker's. */
  @Operation(OPS.reactor.proxies.resolve)
  resolve(cmd: Command<ResolveProxyMessage>) {
    return this.proxies.resolve(cmd.body.keyHash);
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
