import { randomUUID } from 'node:crypto';
import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Gauge } from 'prom-client';
import {
  JSON_LIMIT_MESSAGES,
  ProblemError,
  SUBJECTS,
  actorOf,
  findJsonLimitViolation,
  invocationEventData,
  isUuid,
  newEvent,
  notFound,
  webhookBodyAad,
  type Principal,
  type Problem,
} from '@coffer/contracts';
import { TenantKeyring } from '@coffer/crypto/keyring';
import { CHANNELS, PgListener } from '@coffer/db';
import { EventBus } from '@coffer/bus';
import { WorkLoop, type TickResult } from '@coffer/db';
import { caller, withActingContext, asCaller, type CallerContext } from '@coffer/operations';
import { createLogger, metricsRegistry, scrapedValue } from '@coffer/observability';
import { REACTOR_ERRORS } from '@coffer/sandbox';
import { reactorServiceConfig } from '../../config';
import { ReactorRunner, type PreparedInvocation } from '../reactor-runner';
import { ReactorSandbox } from '../reactor-sandbox';
import { ReactReplies } from '../react-replies';
import { ApplicationDirectory } from '../../reactors/application-directory';
import type { ShownView } from '../reply-ceiling';
import { ReactorJobRepository, type ReactorJobRow } from './reactor-job.repository';

/** Statuses of a backing service being unavailable before the formula ran (as is any unexpected error then): the job is retried, not failed. */
const TRANSIENT = new Set([502, 503, 504]);
const MAX_TRANSIENT_RUNS = 5;
const RETRY_BASE_MS = 1_000;

/** Associated data binding a sealed outcome to its job. */
const outcomeAad = (jobId: string) => `reactor-job-outcome:${jobId}`;

/** A job's outcome as sealed: the result, and for a successful one what its token views were shown at (for re-capping at each read). */
interface SealedOutcome {
  result?: unknown;
  error?: unknown;
  shown?: ShownView[];
  writer?: string | null;
}

export interface AcceptedInvocation {
  id: string;
  status: 'pending';
}

export interface JobResultView {
  id: string;
  /** callback jobs: pending | running | succeeded | failed (docs/reactors.md); react-async jobs: pending | completed | failed */
  status: ReactorJobRow['status'] | 'completed';
  result?: unknown;
  error?: unknown;
  created_at: string;
  completed_at?: string;
}

/** Wakes idle job workers (any replica); PostgreSQL stays the source of truth. */
export const JOBS_WAKE_SUBJECT = 'reactor.jobs.wake.v1';

const queueDepth = scrapedValue();

new Gauge({
  name: 'coffer_reactor_job_queue_depth',
  help: 'Asynchronous reactor invocations accepted and not yet completed',
  registers: [metricsRegistry],
  collect: queueDepth.collect,
});

/**
 * Asynchronous invocations (docs/reactors.md): accepted only after the synchronous checks and persisted
 * before the 202; run by workers that claim jobs from PostgreSQL; the result and its webhook delivery are written
 * in one transaction. A process killed mid-run loses its lease and the job runs again (at least once).
 *
 * The workers claim when woken: by the NATS message of an accepted job (any replica's), a job of theirs ending, a
 * tenant's resumption (CHANNELS.tenantResumed), and when the earliest lease or postponed run ends; otherwise only
 * every REACTOR_JOB_POLL_INTERVAL_MS (the safety sweep, a minute by default). Idle, they do nothing.
 */
@Injectable()
export class ReactorJobs implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = createLogger('reactor-jobs');
  private readonly active = new Set<Promise<void>>();
  /** REACTOR_JOB_CONCURRENCY */
  private readonly concurrency = reactorServiceConfig().reactorJobConcurrency;
  private readonly loop = new WorkLoop(
    () => this.claimAndStart(),
    reactorServiceConfig().reactorJobPollIntervalMs,
    (err) => this.logger.error({ err: { message: (err as Error).message } }, 'claiming jobs failed'),
  );
  private draining?: Promise<void>;

  constructor(
    private readonly jobs: ReactorJobRepository,
    private readonly runner: ReactorRunner,
    private readonly events: EventBus,
    private readonly keyring: TenantKeyring,
    private readonly replies: ReactReplies,
    private readonly applications: ApplicationDirectory,
    private readonly sandbox: ReactorSandbox,
    private readonly listener: PgListener,
  ) {}

  /**
   * A job for the operation's caller, who is stored with it: the job runs later as that principal (see runJob).
   * `callbackUrl` null: a react-async job, whose result is only read back (no webhook delivery).
   */
  async accept(reactorId: string, args: Record<string, unknown>, callbackUrl: string | null, timeoutMs: number): Promise<AcceptedInvocation> {
    const ctx = asCaller();
    const id = randomUUID();
    const sealed = await this.keyring.encryptJson(ctx.principal.tenantId, `reactor-job:${id}`, args);
    await this.jobs.insert(
      ctx.principal.tenantId,
      {
        id,
        reactorId,
        principal: ctx.principal,
        argsCiphertext: sealed.ciphertext,
        argsKeyId: sealed.keyId,
        callbackUrl,
        timeoutMs,
        traceId: ctx.traceId,
      },
      [newEvent('reactor.invoked', ctx.principal.tenantId, ctx.traceId, actorOf(ctx.principal), invocationEventData(reactorId, { id, mode: 'async' }))],
    );
    await this.events.publish(JOBS_WAKE_SUBJECT, {});
    return { id, status: 'pending' };
  }

  /**
   * A job's result as the operation's caller may see it now: token views of a successful result are re-capped by the
   * rules in force at the read (the invoker's and the Reactor application's; a management application sees no token
   * data).
   */
  async result(reactorId: string, requestId: string): Promise<JobResultView> {
    const principal = caller();
    const row = isUuid(reactorId) && isUuid(requestId) ? await this.jobs.find(principal.tenantId, reactorId, requestId) : null;
    // the invoking application (or session) with token:use, or a management application with reactor:read
    const mine = principal.applicationType === 'management' || row?.application_id === (principal.sessionId ?? principal.applicationId);
    if (!row || !mine) throw notFound('reactor result');
    const view: JobResultView = {
      id: row.id,
      status: row.callback_url === null ? asyncStatus(row.status) : row.status,
      created_at: row.created_at.toISOString(),
    };
    const outcome =
      row.outcome_ciphertext && row.outcome_key_id
        ? await this.keyring.decryptJson<SealedOutcome>(row.tenant_id, row.outcome_key_id, row.outcome_ciphertext, outcomeAad(row.id))
        : ({ result: row.result, error: row.error } as SealedOutcome);
    if (outcome.result !== null && outcome.result !== undefined) {
      const viewerWrote = principal.applicationType !== 'management';
      const stored = outcome.shown !== undefined ? { response: outcome.result, shown: outcome.shown, writer: outcome.writer ?? null } : outcome.result;
      view.result = await this.replies.render(stored, viewerWrote);
    }
    if (outcome.error !== null && outcome.error !== undefined) view.error = outcome.error;
    if (row.completed_at) view.completed_at = row.completed_at.toISOString();
    return view;
  }

  async onModuleInit(): Promise<void> {
    await this.events.subscribe(JOBS_WAKE_SUBJECT, () => this.loop.wake());
    await this.listener.on(CHANNELS.tenantResumed, () => this.loop.wake());
    queueDepth.measure(() => this.jobs.pendingCount());
    this.loop.start();
  }

  /**
   * Takes no new jobs and lets the running ones end and store their outcome. Run on SIGTERM while the database pools
   * are open (main.ts): at the shutdown hooks they are closed already, and a job's outcome could not be stored (it
   * would run again once its lease ran out). Again, as a no-op, at shutdown.
   */
  drain(): Promise<void> {
    this.draining ??= (async () => {
      await this.loop.stop();
      await Promise.allSettled([...this.active]);
    })();
    return this.draining;
  }

  onApplicationShutdown(): Promise<void> {
    return this.drain();
  }

  /**
   * The invoking application's grants as they stand when the job runs (its `tokenize` is written and capped with
   * them), not as they were when the job was accepted; an application deleted meanwhile fails the job. A session
   * keeps the grants it had at acceptance (its result is re-capped when read, by the reader's current grants). Looked
   * up as the principal stored with the job (`stored`), explicitly: no operation's caller is current here.
   */
  private async invokerNow(stored: CallerContext): Promise<Principal> {
    const p = stored.principal;
    if (p.sessionId || p.applicationType === 'management') return p;
    try {
      return await this.applications.principalOf(stored, p.applicationId);
    } catch (err) {
      if (err instanceof ProblemError && err.status === 404) throw new ProblemError(403, 'The application that invoked this reactor no longer exists');
      throw err;
    }
  }

  /**
   * Claims as many jobs as there are free slots and starts them; a finished job wakes the loop. When it took all
   * there was, it says when the next one comes due.
   */
  private async claimAndStart(): Promise<TickResult> {
    const free = this.concurrency - this.active.size;
    if (free <= 0) return false;
    const claimed = await this.jobs.claim(free);
    for (const job of claimed) {
      const p = this.runJob(job).finally(() => {
        this.active.delete(p);
        this.loop.wake();
      });
      this.active.add(p);
    }
    if (claimed.length === free) return this.active.size < this.concurrency;
    return (await this.jobs.nextDueInMs()) ?? false;
  }

  /**
   * A claimed job runs as the principal stored with it, never as whoever's context the workers' loop was woken in: in
   * a context of its own, without a caller (caller() throws) until the invoker as it stands now is known (invokerNow);
   * the runner's two halves run in that invoker's acting context, with the job's trace id.
   */
  private runJob(job: ReactorJobRow): Promise<void> {
    return withActingContext({ traceId: job.trace_id ?? job.id }, () => this.runAsInvoker(job));
  }

  private async runAsInvoker(job: ReactorJobRow): Promise<void> {
    const stored: CallerContext = { principal: job.principal, traceId: job.trace_id ?? job.id };
    let outcome: { status: 'succeeded' | 'failed'; result?: unknown; error?: Problem; shown?: ShownView[]; writer?: string | null };
    let run: { invoker: Principal; prepared: PreparedInvocation } | undefined;
    let failure: unknown;
    try {
      const args = await this.keyring.decryptJson<Record<string, unknown>>(job.tenant_id, job.args_key_id, job.args_ciphertext, `reactor-job:${job.id}`);
      const invoker = await this.invokerNow(stored);
      const prepared = await withActingContext({ principal: invoker, traceId: stored.traceId }, () =>
        this.runner.prepare(job.reactor_id, args, { detokenized: true }),
      );
      run = { invoker, prepared };
    } catch (err) {
      // a backing service down or slow (a restart, a NATS blip, a dropped database connection) is not the invocation's
      // outcome: run it again later
      const transient = !(err instanceof ProblemError) || TRANSIENT.has(err.problem.status);
      if (transient && job.runs < MAX_TRANSIENT_RUNS) {
        await this.jobs.postpone(job, RETRY_BASE_MS * job.runs).catch(() => undefined);
        return;
      }
      failure = err;
    }
    try {
      if (!run) throw failure;
      const { invoker, prepared } = run;
      const recorded = await withActingContext({ principal: invoker, traceId: stored.traceId }, () => this.runner.runRecorded(prepared, job.timeout_ms));
      outcome = { status: 'succeeded', result: recorded.response, shown: recorded.shown, writer: recorded.writer };
    } catch (err) {
      // this process is shutting down (a rolling restart) and stopped the sandbox under the run: that is not the
      // invocation's outcome, so the job runs again, here after the restart or on another replica, as after a kill -9
      if (this.sandbox.closed && err instanceof ProblemError && err.problem.status === 503) {
        await this.jobs.postpone(job, 0).catch(() => undefined);
        // due now: the workers of the other replicas take it at once
        await this.events.publish(JOBS_WAKE_SUBJECT, {}).catch(() => undefined);
        return;
      }
      const problem: Problem =
        err instanceof ProblemError ? err.problem : { title: 'Internal Server Error', status: 500, detail: 'The reactor could not be run' };
      if (!(err instanceof ProblemError)) this.logger.error({ jobId: job.id, err: { message: (err as Error).message } }, 'job failed unexpectedly');
      outcome = { status: 'failed', error: problem };
    }
    // the result is stored as jsonb, which cannot hold U+0000: a formula answering with it fails, once (not re-run)
    if (findJsonLimitViolation(outcome.status === 'succeeded' ? outcome.result : outcome.error, { rejectNul: true })) {
      const { status, title } = REACTOR_ERRORS['ReactorRuntimeError'];
      outcome = { status: 'failed', error: { status, title, detail: title, errors: { error: [`Reactor result: ${JSON_LIMIT_MESSAGES.nul}`] } } };
    }
    const body = JSON.stringify(outcome.status === 'succeeded' ? outcome.result : outcome.error);
    try {
      const sealedOutcome = await this.keyring.encryptJson(job.tenant_id, outcomeAad(job.id), {
        result: outcome.result,
        error: outcome.error,
        shown: outcome.shown,
        writer: outcome.writer,
      } satisfies SealedOutcome);
      const sealedBody = await this.keyring.encryptJson(job.tenant_id, webhookBodyAad(job.id), body);
      const event = newEvent(
        outcome.status === 'succeeded' ? 'reactor.completed' : 'reactor.failed',
        job.tenant_id,
        job.trace_id ?? undefined,
        actorOf(job.principal),
        invocationEventData(job.reactor_id, { id: job.id, mode: 'async' }, outcome.error),
      );
      if (await this.jobs.complete(job, outcome.status, sealedOutcome, sealedBody, [event])) await this.events.publish(SUBJECTS.webhook.wake, {});
    } catch (err) {
      // the lease expires and another worker runs the job again
      this.logger.error({ jobId: job.id, err: { message: (err as Error).message } }, 'storing the job result failed');
    }
  }
}

/**
 * The status vocabulary of react-async results, as the mirrored API's SDKs read it: a job still queued or running is
 * `pending`, a successful one `completed`. Callback jobs keep the vocabulary of docs/reactors.md.
 */
function asyncStatus(status: ReactorJobRow['status']): JobResultView['status'] {
  if (status === 'succeeded') return 'completed';
  return status === 'failed' ? 'failed' : 'pending';
}
