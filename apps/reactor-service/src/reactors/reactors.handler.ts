import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ProblemError, RPC_DEADLINE_MS, SUBJECTS, type IdRequest, type ReactorBodyRequest, type RpcEnvelope } from '@coffer/contracts';
import { mayEver, requirePrincipal } from '@coffer/auth';
import { InvokeReactorUseCase } from '../invoke/invoke-reactor.use-case';
import { ReactorJobs } from '../invoke/async/reactor-jobs';
import { ReactorsService } from './reactors.service';
import { IdempotentWrites } from '@coffer/idempotency';

@Controller()
export class ReactorsHandler {
  constructor(
    private readonly reactors: ReactorsService,
    private readonly invoke: InvokeReactorUseCase,
    private readonly jobs: ReactorJobs,
    private readonly idempotency: IdempotentWrites,
  ) {}

  @MessagePattern(SUBJECTS.reactor.reactors.create)
  create(@Payload() env: RpcEnvelope<unknown>) {
    const principal = requirePrincipal(env, 'reactor:create');
    return this.idempotency.run(SUBJECTS.reactor.reactors.create, env, () => this.reactors.create({ principal, traceId: env.traceId }, env.body));
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
    const principal = requirePrincipal(env, 'reactor:update');
    return this.idempotency.run(SUBJECTS.reactor.reactors.update, env, () =>
      this.reactors.update({ principal, traceId: env.traceId }, env.body?.id, env.body?.body),
    );
  }

  @MessagePattern(SUBJECTS.reactor.reactors.delete)
  async delete(@Payload() env: RpcEnvelope<IdRequest>) {
    await this.reactors.delete(requirePrincipal(env, 'reactor:delete'), env.body?.id);
    return { deleted: true };
  }

  /**
   * With SVC-IDEMPOTENCY-KEY: an accepted asynchronous invocation is recorded in the transaction that stores its job
   * (one job per key); a synchronous one claims the key while it runs (a repeat meanwhile gets 409), since a formula's
   * calls to third parties cannot be rolled back. A later repeat of a synchronous one gets its recorded reply, the
   * token views re-capped by the access rules in force then.
   */
  @MessagePattern(SUBJECTS.reactor.reactors.react)
  react(@Payload() env: RpcEnvelope<ReactorBodyRequest>) {
    const ctx = { principal: requirePrincipal(env, 'token:use'), traceId: env.traceId };
    const body = env.body?.body as { callback_url?: unknown; callbackUrl?: unknown } | undefined;
    const accepted = (body?.callback_url ?? body?.callbackUrl ?? null) !== null;
    if (accepted)
      return this.idempotency.run(SUBJECTS.reactor.reactors.react, env, () => this.invoke.execute({ ctx, reactorId: env.body?.id, body: env.body?.body }));
    // a repeat gets the recorded reply with its token views re-capped by the rules in force at the repeat
    const invoke = () => this.invoke.executeRecorded({ ctx, reactorId: env.body?.id, body: env.body?.body });
    return this.idempotency.runExclusive(SUBJECTS.reactor.reactors.react, env, RPC_DEADLINE_MS.react + 5_000, invoke, this.invoke.replayCodec(ctx));
  }

  @MessagePattern(SUBJECTS.reactor.reactors.patch)
  patch(@Payload() env: RpcEnvelope<ReactorBodyRequest>) {
    const principal = requirePrincipal(env, 'reactor:update');
    return this.idempotency.run(SUBJECTS.reactor.reactors.patch, env, () =>
      this.reactors.patch({ principal, traceId: env.traceId }, env.body?.id, env.body?.body),
    );
  }

  @MessagePattern(SUBJECTS.reactor.reactors.reactAsync)
  reactAsync(@Payload() env: RpcEnvelope<ReactorBodyRequest>) {
    const ctx = { principal: requirePrincipal(env, 'token:use'), traceId: env.traceId };
    // one job per key: recorded in the transaction that stores the job
    return this.idempotency.run(SUBJECTS.reactor.reactors.reactAsync, env, () =>
      this.invoke.executeAsync({ ctx, reactorId: env.body?.id, body: env.body?.body }),
    );
  }

  /** GET /reactors/{id}/results/{request id}: the invoking application with token:use, or management with reactor:read. */
  @MessagePattern(SUBJECTS.reactor.reactors.result)
  result(@Payload() env: RpcEnvelope<{ id: string; requestId: string }>) {
    const principal = requirePrincipal(env);
    if (!mayEver(principal, principal.applicationType === 'management' ? 'reactor:read' : 'token:use'))
      throw new ProblemError(403, 'The API key does not grant access to this operation');
    return this.jobs.result(principal, env.body?.id, env.body?.requestId, env.traceId);
  }
}
