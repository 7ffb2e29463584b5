import { Injectable } from '@nestjs/common';
import { EgressPolicy } from '@coffer/egress';
import {
  ProblemError,
  REACTOR_LIMITS,
  badRequest,
  ReactAsyncRequest,
  ReactRequest,
  actorOf,
  invocationEventData,
  newEvent,
  validateContract,
  type CofferEvent,
  type ReactResponse,
} from '@coffer/contracts';
import { EventOutbox } from '@coffer/db';
import { createLogger } from '@coffer/observability';
import { ReactorJobs, type AcceptedInvocation } from './async/reactor-jobs';
import { checkCallbackUrl } from './async/callback-url';
import { ReactorRunner, type RecordedReact } from './reactor-runner';
import { ReactReplies, storedReact } from './react-replies';
import type { ReplayCodec } from '@coffer/idempotency';
import { reactorServiceConfig } from '../config';
import { asCaller } from '@coffer/operations';

export type { PreparedInvocation, RecordedReact } from './reactor-runner';

/** An invocation, made as the operation's caller (`caller()`). */
export interface InvokeReactorCommand {
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
    private readonly replies: ReactReplies,
    private readonly outbox: EventOutbox,
  ) {}

  private readonly logger = createLogger('reactor-service');

  /** ALLOW_PRIVATE_CALLBACKS */
  private readonly callbackPolicy = EgressPolicy.callbacks(reactorServiceConfig().allowPrivateCallbacks);

  /** Synchronous invocation, or, with `callback_url`, the synchronous checks and the 202 of an accepted job. */
  async execute(cmd: InvokeReactorCommand): Promise<ReactResponse | AcceptedInvocation> {
    const out = await this.executeRecorded(cmd);
    return 'response' in out ? out.response : out;
  }

  /** `execute`, with a synchronous run's record of what its reply showed (for idempotent replays). */
  async executeRecorded({ reactorId, body }: InvokeReactorCommand): Promise<RecordedReact | AcceptedInvocation> {
    const ctx = asCaller();
    const plain = body === undefined || body === null ? {} : body;
    const req = validateContract(ReactRequest, plain);
    const callbackUrl = req.callback_url ?? undefined;
    if (req.capture_logs && callbackUrl !== undefined)
      throw badRequest('The request is invalid', { capture_logs: ['is for synchronous runs only: an asynchronous result carries no logs'] });
    // the callback is checked first: a refused URL must not cost a detokenization
    const checkedUrl = callbackUrl !== undefined ? await checkCallbackUrl(this.callbackPolicy, callbackUrl) : undefined;
    const prepared = await this.runner.prepare(reactorId, ((plain as Record<string, unknown>)['args'] ?? {}) as Record<string, unknown>);
    if (checkedUrl !== undefined) return this.jobs.accept(prepared.reactor.id, prepared.args, checkedUrl, req.timeout_ms ?? REACTOR_LIMITS.minTimeoutMs);
    const event = (type: 'reactor.invoked' | 'reactor.completed' | 'reactor.failed', error?: { status: number; title: string }) =>
      newEvent(type, ctx.principal.tenantId, ctx.traceId, actorOf(ctx.principal), invocationEventData(prepared.reactor.id, { mode: 'sync' }, error));
    const invoked = event('reactor.invoked');
    let out: RecordedReact;
    try {
      out = await this.runner.runRecorded(prepared, REACTOR_LIMITS.syncTimeoutMs, { captureLogs: req.capture_logs === true });
    } catch (err) {
      // the formula's own error or the sandbox's: the invocation happened and failed (a problem's status and title only)
      if (err instanceof ProblemError) await this.publish([invoked, event('reactor.failed', err.problem)]);
      throw err;
    }
    await this.publish([invoked, event('reactor.completed')]);
    return out;
  }

  /**
   * A synchronous invocation changes no row of its own: its events are the whole write (one statement, both at once
   * after the run, the invoked event stamped when it began). A failure to record them is logged and does not turn a
   * finished run into an error.
   */
  private async publish(events: CofferEvent[]): Promise<void> {
    await this.outbox
      .recordAlone(events)
      .catch((err: Error) => this.logger.error({ err: { message: err.message }, types: events.map((e) => e.type) }, 'recording invocation events failed'));
  }

  /**
   * SVC-IDEMPOTENCY-KEY of a synchronous invocation: the reply is recorded with where each token view is and the
   * transform it was shown at, and a repeat gets it re-capped by the caller's (and the Reactor application's)
   * current rules (ReactReplies); the formula is not run again, and its `raw` is only sent again to a caller who may
   * still use the tokens the args detokenized. The dispatcher replays inside the operation: a repeat is rendered for
   * its caller.
   */
  replayCodec(): ReplayCodec<RecordedReact | AcceptedInvocation, ReactResponse | AcceptedInvocation> {
    return {
      reply: (o) => ('response' in o ? o.response : o),
      record: (o) => ('response' in o ? storedReact(o) : o),
      replay: (recorded) => (isAccepted(recorded) ? Promise.resolve(recorded) : this.replies.replay(recorded)),
    };
  }

  /**
   * POST /reactors/{id}/react-async: the synchronous checks of an asynchronous invocation (arguments detokenized as
   * the caller and validated), then a durable job whose result is read at GET /reactors/{id}/results/{request id}.
   * There is no callback: `callback_url` belongs to POST /reactors/{id}/react and is refused here, not ignored.
   */
  async executeAsync({ reactorId, body }: InvokeReactorCommand): Promise<AcceptedInvocation> {
    const plain = body === undefined || body === null ? {} : body;
    const req = validateContract(ReactAsyncRequest, plain);
    const prepared = await this.runner.prepare(reactorId, (req.args ?? {}) as Record<string, unknown>);
    return this.jobs.accept(prepared.reactor.id, prepared.args, null, req.timeout_ms ?? REACTOR_LIMITS.minTimeoutMs);
  }
}

function isAccepted(value: unknown): value is AcceptedInvocation {
  return (
    typeof value === 'object' && value !== null && (value as { status?: unknown }).status === 'pending' && typeof (value as { id?: unknown }).id === 'string'
  );
}
