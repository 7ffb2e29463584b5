import { Injectable } from '@nestjs/common';
import { EgressPolicy } from '@coffer/egress';
import { FieldErrors, REACTOR_LIMITS, ReactAsyncRequest, ReactRequest, validateContract, type ReactResponse } from '@coffer/contracts';
import { ReactorJobs, type AcceptedInvocation } from './async/reactor-jobs';
import { checkCallbackUrl } from './async/callback-url';
import { ReactorRunner, type InvokeContext } from './reactor-runner';
import { reactorServiceConfig } from '../config';

export type { InvokeContext, PreparedInvocation } from './reactor-runner';

export interface InvokeReactorCommand {
  ctx: InvokeContext;
  reactorId: string;
  body: unknown;
}

/**
 * POST /reactors/{id}/react, synchronous: detokenize the args as the caller, apply the argument rules, run the
 * formula in the sandbox (10 s) with `svc` acting as the Reactor's Application, tokenize `tokenize` (as that
 * Application, else as the caller) and return `{tokens?, raw?}`. Every invocation of an existing reactor is audited.
 * Neither args nor configuration are ever logged.
 */
@Injectable()
export class InvokeReactorUseCase {
  constructor(
    private readonly runner: ReactorRunner,
    private readonly jobs: ReactorJobs,
  ) {}

  /** ALLOW_PRIVATE_CALLBACKS */
  private readonly callbackPolicy = EgressPolicy.callbacks(reactorServiceConfig().allowPrivateCallbacks);

  /** Synchronous invocation, or, with `callback_url`, the synchronous checks and the 202 of an accepted job. */
  async execute({ ctx, reactorId, body }: InvokeReactorCommand): Promise<ReactResponse | AcceptedInvocation> {
    const plain = body === undefined || body === null ? {} : body;
    const req = validateContract(ReactRequest, plain);
    const callbackUrl = req.callback_url ?? undefined;
    // the callback is checked first: a refused URL must not cost a detokenization
    const checkedUrl = callbackUrl !== undefined ? await checkCallbackUrl(this.callbackPolicy, callbackUrl) : undefined;
    const prepared = await this.runner.prepare(ctx, reactorId, ((plain as Record<string, unknown>)['args'] ?? {}) as Record<string, unknown>);
    if (checkedUrl !== undefined)
      return this.jobs.accept(ctx, prepared.reactor.id, prepared.args, checkedUrl, req.timeout_ms ?? REACTOR_LIMITS.minTimeoutMs);
    return this.runner.run(ctx, prepared, REACTOR_LIMITS.syncTimeoutMs);
  }

  /**
   * POST /reactors/{id}/react-async: the synchronous checks of an asynchronous invocation (arguments detokenized as
   * the caller and validated), then a durable job whose result is read at GET /reactors/{id}/results/{request id}.
   * There is no callback: `callback_url` belongs to POST /reactors/{id}/react and is refused here, not ignored.
   */
  async executeAsync({ ctx, reactorId, body }: InvokeReactorCommand): Promise<AcceptedInvocation> {
    const plain = body === undefined || body === null ? {} : body;
    const extra = new FieldErrors();
    if (typeof plain === 'object' && !Array.isArray(plain))
      for (const field of ['callback_url', 'callbackUrl'])
        if ((plain as Record<string, unknown>)[field] !== undefined)
          extra.add(field, 'is not taken by react-async (poll GET /reactors/{id}/results/{request id}); POST /reactors/{id}/react takes callback_url');
    const req = validateContract(ReactAsyncRequest, plain, extra);
    const prepared = await this.runner.prepare(ctx, reactorId, (req.args ?? {}) as Record<string, unknown>);
    return this.jobs.accept(ctx, prepared.reactor.id, prepared.args, null, req.timeout_ms ?? REACTOR_LIMITS.minTimeoutMs);
  }
}
