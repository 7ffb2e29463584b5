import { Injectable } from '@nestjs/common';
import {
  ProblemError,
  badRequest,
  findJsonLimitViolation,
  jsonLimitProblem,
  notFound,
  type FormulaRequestParameter,
  type Principal,
  type ReactResponse,
  type ReactorCustomProblem,
  type ReactorEgressView,
  effectiveEgressRule,
  isUuid,
} from '@coffer/contracts';
import { findDetokenizationExpressions } from '@coffer/expression';
import { RpcClient } from '@coffer/bus';
import { REACTOR_ERRORS, type SandboxOutcome } from '@coffer/sandbox';
import { ReactorRepository } from '../reactors/reactor.repository';
import { ReactorVault } from '../reactors/reactor-vault';
import { ApplicationDirectory } from '../reactors/application-directory';
import { capTokenizeReply, type ShownView } from './reply-ceiling';
import { applyArgumentRules } from './arguments';
import { ReactorSandbox } from './reactor-sandbox';
import { TokenSvcBridge } from './svc-bridge';
import { TokenServiceClient } from './token-service.client';
import { TenantEgressDefault } from './tenant-egress-default';
import { asCaller, type CallerContext } from '@coffer/operations';

/** What a run needs, resolved before the code runs (also what an asynchronous job re-resolves when it runs). */
export interface PreparedInvocation {
  reactor: { id: string };
  code: string;
  args: Record<string, unknown>;
  application: Principal | null;
  configuration: Record<string, unknown>;
  /** The reactor's egress list; null: its tenant's default applies. */
  egress: ReactorEgressView | null;
  /** The tokens the args' detokenization expressions used, as the caller (none when already detokenized). */
  usedTokenIds: string[];
}

/**
 * A run's reply with what is needed to render it again later for the access rules in force then (an idempotent
 * replay, a stored asynchronous result): where each token view of `tokens` is and the transform it was shown at, and
 * who created the tokens. Kept only inside encrypted records.
 */
export interface RecordedReact {
  response: ReactResponse;
  shown: ShownView[];
  /** the Reactor's application that created the tokens; null: the caller created them */
  writer: string | null;
  /** the tokens the args detokenized: a replay of `raw` needs the caller to be allowed to use them still */
  usedTokenIds: string[];
}

/**
 * The two halves of running a reactor, shared by synchronous invocations (InvokeReactorUseCase) and asynchronous jobs
 * (ReactorJobs): `prepare` resolves everything before the code runs, `run` runs it and tokenizes what it returns.
 * Both act as the operation's caller (`caller()`, read where each starts): a synchronous invocation's, or the invoker
 * stored with an asynchronous job, in whose acting context ReactorJobs runs them. Neither args nor configuration are
 * ever logged.
 */
@Injectable()
export class ReactorRunner {
  constructor(
    private readonly reactors: ReactorRepository,
    private readonly vault: ReactorVault,
    private readonly applications: ApplicationDirectory,
    private readonly tokens: TokenServiceClient,
    private readonly sandbox: ReactorSandbox,
    private readonly rpc: RpcClient,
    private readonly egressDefaults: TenantEgressDefault,
  ) {}

  /**
   * Everything before the code runs: the reactor and its formula, args detokenized as the caller and validated by
   * the argument rules, the Reactor's Application, the configuration; the invocation is audited.
   */
  async prepare(reactorId: string, givenArgs: Record<string, unknown>, options: { detokenized?: boolean } = {}): Promise<PreparedInvocation> {
    const ctx = asCaller();
    const tenantId = ctx.principal.tenantId;
    // the invocation's audit record is written by the same statement (asynchronous jobs were audited when accepted)
    const invokedBy = options.detokenized ? undefined : { applicationId: ctx.principal.applicationId, traceId: ctx.traceId };
    const reactor = isUuid(reactorId) ? await this.reactors.findRunnable(tenantId, reactorId, invokedBy) : null;
    if (!reactor) throw notFound('reactor');
    // a code reactor runs its own code with no request parameters (argument rule 1: any args reach it)
    const formula = reactor.formula;
    if (reactor.formulaId !== null && !formula) throw notFound('reactor formula');
    const code = formula ? formula.code : reactor.code;
    if (code === null) throw notFound('reactor');
    const parameters = (formula ? formula.requestParameters : []) as unknown as FormulaRequestParameter[];
    const [args, application, configuration] = await allSettled([
      options.detokenized ? Promise.resolve(givenArgs) : this.detokenize(ctx, givenArgs),
      reactor.applicationId ? this.applicationPrincipal(ctx, reactor.applicationId) : Promise.resolve(null),
      this.vault.open(tenantId, reactor.id, reactor.configurationKeyId, reactor.configurationCiphertext),
    ] as const);
    const validated = options.detokenized ? args : applyArgumentRules(args, parameters);
    // the reactor's own list, else its formula's, else (null) the tenant's default
    const declared = reactor.egress ?? formula?.egress ?? null;
    const egress = declared !== null && typeof declared === 'object' ? (declared as unknown as ReactorEgressView) : null;
    return {
      reactor: { id: reactor.id },
      code,
      args: validated,
      application,
      configuration,
      egress,
      usedTokenIds: options.detokenized ? [] : usedTokenIds(givenArgs),
    };
  }

  /**
   * Runs prepared code in the sandbox; `tokenize` is tokenized as the Reactor's Application (else the caller). The
   * tenant is the sandbox's isolation key: its code never runs in an isolate that ran another tenant's. Returns the
   * reply with the record of what it showed (see RecordedReact).
   */
  async runRecorded(p: PreparedInvocation, timeoutMs: number, options: { captureLogs?: boolean } = {}): Promise<RecordedReact> {
    // read once, now: the sandbox pool calls the egress lookup and `svc` later, in whatever context it is then
    const ctx = asCaller();
    // the reactor's list, else its tenant's default - looked up only if the formula fetches
    const egress = p.egress
      ? effectiveEgressRule(p.egress.allow, undefined)
      : () => this.egressDefaults.get(ctx.principal, ctx.traceId).then((d) => effectiveEgressRule(null, d));
    const outcome = await this.sandbox.run(
      {
        code: p.code,
        args: p.args,
        configuration: p.configuration,
        svc: p.application !== null,
        timeoutMs,
        tenant: ctx.principal.tenantId,
        egress,
        captureConsole: options.captureLogs === true,
      },
      // `svc` acts as the Reactor's Application (never the caller), bound to this invocation's trace
      p.application ? new TokenSvcBridge(this.rpc, p.application, ctx.traceId) : null,
    );
    if (!outcome.ok) throw withLogs(sandboxFailure(outcome), options.captureLogs ? outcome.logs : undefined);
    checkResultLimits(outcome.result);
    const response: ReactResponse = {};
    const shown: ShownView[] = [];
    if (outcome.result.tokenize !== undefined) {
      const writer = p.application ?? ctx.principal;
      const created = await this.tokens.tokenize({ principal: writer, traceId: ctx.traceId }, outcome.result.tokenize);
      // the caller sees the Reactor application's tokens no more revealed than its own decision allows
      response.tokens = capTokenizeReply(outcome.result.tokenize, created, writer, p.application ? ctx.principal : null, shown);
    }
    if (outcome.result.raw !== undefined) response.raw = outcome.result.raw;
    if (options.captureLogs) response.logs = outcome.logs ?? [];
    return { response, shown, writer: p.application?.applicationId ?? null, usedTokenIds: p.usedTokenIds };
  }

  /** Rules 5 and 7 need the detokenized values; a call to token-service only when there is something to replace. */
  private async detokenize(ctx: CallerContext, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    let needed: boolean;
    try {
      needed = findDetokenizationExpressions(args).length > 0;
    } catch {
      needed = true; // token-service reports the bad expression with its message
    }
    if (!needed) return args;
    const result = await this.tokens.detokenize(ctx, args, 'args');
    if (typeof result !== 'object' || result === null || Array.isArray(result))
      throw badRequest('The reactor arguments are invalid', { args: ['must be an object'] });
    return result as Record<string, unknown>;
  }

  private async applicationPrincipal(ctx: CallerContext, applicationId: string): Promise<Principal> {
    try {
      return await this.applications.principalOf(ctx, applicationId);
    } catch (err) {
      if (err instanceof ProblemError && err.status === 404)
        throw badRequest("The reactor's application no longer exists: update the reactor with another application or none");
      throw err;
    }
  }
}

/** The ids the args' detokenization expressions name (a malformed expression was already refused by token-service). */
function usedTokenIds(args: Record<string, unknown>): string[] {
  try {
    return findDetokenizationExpressions(args);
  } catch {
    return [];
  }
}

/**
 * Like Promise.all, but waits for every call to settle before throwing the first failure (in argument order), so
 * nothing an invocation started outlives its answer.
 */
async function allSettled<T extends readonly unknown[]>(promises: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const results = await Promise.allSettled(promises);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

/**
 * What a formula returns meets the JSON limits of any API body before it is tokenized or sent on (JSON.stringify on
 * the bus overflows near 4,500 levels). `tokenize` is refused like a bad tokenize body (400); a `raw` (or a custom
 * response body) that is not is the formula's own failure, a Reactor Runtime Error, as for a result too large.
 */
function checkResultLimits(result: { raw?: unknown; tokenize?: unknown }): void {
  if (result.tokenize !== undefined) {
    const violation = findJsonLimitViolation(result.tokenize, {}, 'tokenize');
    if (violation) throw jsonLimitProblem(violation);
  }
  if (result.raw !== undefined) {
    const violation = findJsonLimitViolation(result.raw, {}, 'raw');
    if (violation) throw resultTooDeep(violation.message);
  }
}

function resultTooDeep(message: string): ProblemError {
  const { status, title } = REACTOR_ERRORS['ReactorRuntimeError'];
  return new ProblemError(status, title, { error: [`Reactor result: ${message}`] }, title);
}

/** The run's console output on its problem (`capture_logs`), as the caller asked for it. */
function withLogs(err: ProblemError, logs: string[] | undefined): ProblemError {
  if (logs) (err.problem as ReactorCustomProblem & { logs?: string[] }).logs = logs;
  return err;
}

/**
 * A failed run as the problem to answer with. A `CustomHttpResponseError` travels as a problem with a `custom`
 * member (status, headers, body), which the gateway returns verbatim.
 */
export function sandboxFailure(outcome: Extract<SandboxOutcome, { ok: false }>): ProblemError {
  const err = ProblemError.fromProblem({ ...outcome.problem });
  if (outcome.custom) {
    const deep = outcome.custom.body === undefined ? null : findJsonLimitViolation(outcome.custom.body, {}, 'body');
    if (deep) return resultTooDeep(deep.message);
    const custom: ReactorCustomProblem['custom'] = { status: outcome.custom.status };
    if (outcome.custom.headers) custom.headers = outcome.custom.headers;
    if (outcome.custom.body !== undefined) custom.body = outcome.custom.body;
    (err.problem as ReactorCustomProblem).custom = custom;
  }
  return err;
}
