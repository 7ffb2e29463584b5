import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { SUBJECTS, type IdRequest, type ReactorBodyRequest, type RpcEnvelope } from '@coffer/contracts';
import { requirePrincipal } from '../shared/principal';
import { InvokeReactorUseCase } from '../invoke/invoke-reactor.use-case';
import { ReactorsService } from './reactors.service';

@Controller()
export class ReactorsHandler {
  constructor(
    private readonly reactors: ReactorsService,
    private readonly invoke: InvokeReactorUseCase,
  ) {}

  @MessagePattern(SUBJECTS.reactor.reactors.create)
  create(@Payload() env: RpcEnvelope<unknown>) {
    return this.reactors.create({ principal: requirePrincipal(env, 'reactor:create'), traceId: env.traceId }, env.body);
  }

  @MessagePattern(SUBJECTS.reactor.reactors.list)
  list(@Payload() env: RpcEnvelope<Record<string, unknown>>) {
    return this.reactors.list(requirePrincipal(env, 'reactor:read'), env.body ?? {});
  }

  @MessagePattern(SUBJECTS.reactor.reactors.get)
  get(@Payload() env: RpcEnvelope<IdRequest>) {
    return this.reactors.get(requirePrincipal(env, 'reactor:read'), env.body?.id);
  }

  @MessagePattern(SUBJECTS.reactor.reactors.update)
  update(@Payload() env: RpcEnvelope<ReactorBodyRequest>) {
    return this.reactors.update({ principal: requirePrincipal(env, 'reactor:update'), traceId: env.traceId }, env.body?.id, env.body?.body);
  }

  @MessagePattern(SUBJECTS.reactor.reactors.delete)
  async delete(@Payload() env: RpcEnvelope<IdRequest>) {
    await this.reactors.delete(requirePrincipal(env, 'reactor:delete'), env.body?.id);
    return { deleted: true };
  }

  @MessagePattern(SUBJECTS.reactor.reactors.react)
  react(@Payload() env: RpcEnvelope<ReactorBodyRequest>) {
    return this.invoke.execute({
      ctx: { principal: requirePrincipal(env, 'token:use'), traceId: env.traceId },
      reactorId: env.body?.id,
      body: env.body?.body,
    });
  }
}
