import { Injectable } from '@nestjs/common';
import {
  ProblemError,
  REACTOR_LIMITS,
  ReactRequest,
  badRequest,
  notFound,
  validateContract,
  type FormulaRequestParameter,
  type Principal,
  type ReactResponse,
  type ReactorCustomProblem,
} from '@coffer/contracts';
import { findDetokenizationExpressions } from '@coffer/expression';
import { RpcClient, type CallContext } from '@coffer/messaging';
import type { SandboxOutcome } from '../sandbox';
import { isUuid } from '../shared/list-query';
import { FormulaRepository } from '../formulas/formula.repository';
import { ReactorRepository } from '../reactors/reactor.repository';
import { ReactorVault } from '../reactors/reactor-vault';
import { ApplicationDirectory } from '../reactors/application-directory';
import { applyArgumentRules } from './arguments';
import { ReactorSandbox } from './reactor-sandbox';
import { TokenSvcBridge } from './svc-bridge';
import { TokenServiceClient } from './token-service.client';

export interface InvokeReactorCommand {
  ctx: CallContext & { principal: Principal };
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
    private readonly reactors: ReactorRepository,
    private readonly formulas: FormulaRepository,
    private readonly vault: ReactorVault,
    private readonly applications: ApplicationDirectory,
    private readonly tokens: TokenServiceClient,
    private readonly sandbox: ReactorSandbox,
    private readonly rpc: RpcClient,
  ) {}

  async execute({ ctx, reactorId, body }: InvokeReactorCommand): Promise<ReactResponse> {
    const plain = body === undefined || body === null ? {} : body;
    const req = validateContract(ReactRequest, plain);
    if (req.callback_url !== undefined && req.callback_url !== null)
      throw badRequest('asynchronous invocation is not available yet', { callback_url: ['asynchronous invocation is not available yet'] });
    const tenantId = ctx.principal.tenantId;
    const reactor = isUuid(reactorId) ? await this.reactors.find(tenantId, reactorId) : null;
    if (!reactor) throw notFound('reactor');
    const formula = await this.formulas.findVisible(tenantId, reactor.formulaId);
    if (!formula) throw notFound('reactor formula');
    const givenArgs = ((plain as Record<string, unknown>)['args'] ?? {}) as Record<string, unknown>;

    const [args, application, configuration] = await allSettled([
      this.detokenize(ctx, givenArgs),
      reactor.applicationId ? this.applicationPrincipal(ctx, reactor.applicationId) : Promise.resolve(null),
      this.vault.open(tenantId, reactor.id, reactor.configurationKeyId, reactor.configurationCiphertext),
      this.tokens.recordInvocation(ctx, reactor.id),
    ] as const);
    const validated = applyArgumentRules(args, formula.requestParameters as unknown as FormulaRequestParameter[]);

    const outcome = await this.sandbox.run(
      { code: formula.code, args: validated, configuration, svc: application !== null, timeoutMs: REACTOR_LIMITS.syncTimeoutMs },
      application ? new TokenSvcBridge(this.rpc, application, ctx.traceId) : null,
    );
    if (!outcome.ok) throw failure(outcome);

    const response: ReactResponse = {};
    if (outcome.result.tokenize !== undefined)
      response.tokens = await this.tokens.tokenize({ principal: application ?? ctx.principal, traceId: ctx.traceId }, outcome.result.tokenize);
    if (outcome.result.raw !== undefined) response.raw = outcome.result.raw;
    return response;
  }

  /** Rules 5 and 7 need the detokenized values; a call to token-service only when there is something to replace. */
  private async detokenize(ctx: CallContext, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    let needed: boolean;
    try {
      needed = findDetokenizationExpressions(args).length > 0;
    } catch {
      needed = true; // token-service reports the bad expression with its message
    }
    if (!needed) return args;
    const result = await this.tokens.detokenize(ctx, args, 'args');
    if (typeof result !== 'object' || result === null || Array.isArray(result)) throw badRequest('The reactor arguments are invalid', { args: ['must be an object'] });
    return result as Record<string, unknown>;
  }

  private async applicationPrincipal(ctx: CallContext, applicationId: string): Promise<Principal> {
    try {
      return await this.applications.principalOf(ctx, applicationId);
    } catch (err) {
      if (err instanceof ProblemError && err.status === 404)
        throw badRequest("The reactor's application no longer exists: update the reactor with another application or none");
      throw err;
    }
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
 * A failed run as the problem to answer with. A `CustomHttpResponseError` travels as a problem with a `custom`
 * member (status, headers, body), which the gateway returns verbatim.
 */
function failure(outcome: Extract<SandboxOutcome, { ok: false }>): ProblemError {
  const err = ProblemError.fromProblem({ ...outcome.problem });
  if (outcome.custom) {
    const custom: ReactorCustomProblem['custom'] = { status: outcome.custom.status };
    if (outcome.custom.headers) custom.headers = outcome.custom.headers;
    if (outcome.custom.body !== undefined) custom.body = outcome.custom.body;
    (err.problem as ReactorCustomProblem).custom = custom;
  }
  return err;
}
