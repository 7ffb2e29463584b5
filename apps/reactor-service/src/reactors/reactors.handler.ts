import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ProblemError, SUBJECTS, type IdRequest, type ReactorBodyRequest, type RpcEnvelope } from '@coffer/contracts';
import { mayEver } from '@coffer/auth';
import { requirePrincipal } from '../shared/principal';
import { InvokeReactorUseCase } from '../invoke/invoke-reactor.use-case';
import { ReactorJobs } from '../invoke/async/reactor-jobs';
import { ReactorsService } from './reactors.service';

@Controller()
export class ReactorsHandler {
  constructor(
    private readonly reactors: ReactorsService,
    private readonly invoke: InvokeReactorUseCase,
    private readonly jobs: ReactorJobs,
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

  @MessagePattern(SUBJECTS.reactor.reactors.patch)
  patch(@Payload() env: RpcEnvelope<ReactorBodyRequest>) {
    return this.reactors.patch({ principal: requirePrincipal(env, 'reactor:update'), traceId: env.traceId }, env.body?.id, env.body?.body);
  }

  @MessagePattern(SUBJECTS.reactor.reactors.reactAsync)
  reactAsync(@Payload() env: RpcEnvelope<ReactorBodyRequest>) {
    return this.invoke.executeAsync({
      ctx: { principal: requirePrincipal(env, 'token:use'), traceId: env.traceId },
      reactorId: env.body?.id,
      body: env.body?.body,
    });
  }

  /** GET /reactors/{id}/results/{request id}: the invoking application with token:use, or management with reactor:read. */
  @MessagePattern(SUBJECTS.reactor.reactors.result)
  result(@Payload() env: RpcEnvelope<{ id: string; requestId: string }>) {
    const principal = requirePrincipal(env);
    if (!mayEver(principal, principal.applicationType === 'management' ? 'reactor:read' : 'token:use'))
      throw new ProblemError(403, 'The API key does not grant access to this operation');
    return this.jobs.result(principal, env.body?.id, env.body?.requestId);
  }
}
