import { OPS, ProblemError, RPC_DEADLINE_MS, findJsonLimitViolation, jsonLimitProblem, type OperationRow, type Principal } from '@coffer/contracts';
import type { RpcClient } from '@coffer/bus';
import type { SvcBridge, SvcCallContext } from '@coffer/sandbox';

type Route = { op: OperationRow; body: (args: unknown[]) => unknown; empty?: boolean };

/**
 * `svc` method → token-service operation (a row of OPS), with the payload the HTTP route would forward. These are all
 * a formula can reach: calls arrive at token-service as the reactor's application, like any API client's, and are
 * served by the same dispatcher (caller, limits, validation, idempotency). No internal row may be listed here.
 */
export const SVC_ROUTES: Readonly<Record<string, Route>> = {
  'tokens.create': { op: OPS.token.tokens.create, body: ([body]) => body ?? {} },
  'tokens.retrieve': { op: OPS.token.tokens.get, body: ([id]) => ({ id: String(id ?? '') }) },
  'tokens.update': { op: OPS.token.tokens.update, body: ([id, patch]) => ({ id: String(id ?? ''), patch: patch ?? {} }) },
  'tokens.delete': { op: OPS.token.tokens.delete, body: ([id]) => ({ id: String(id ?? '') }), empty: true },
  'tokens.list': { op: OPS.token.tokens.list, body: ([query]) => ({ query: listQuery(query) }) },
  'tokens.search': { op: OPS.token.tokens.search, body: ([body]) => body ?? {} },
  tokenize: { op: OPS.token.tokens.tokenize, body: ([body]) => ({ payload: body }) },
  detokenize: { op: OPS.token.tokens.detokenize, body: ([body]) => ({ payload: body }) },
};
for (const [method, route] of Object.entries(SVC_ROUTES))
  if (route.op.internal) throw new Error(`svc.${method}: ${route.op.subject} is internal (service-to-service only) and cannot be offered to formulas`);

/**
 * `svc.tokens.list(query)` takes the SDK's shape (`{type: [...], metadata: {k: v}, page, size}`); the list RPC takes
 * the HTTP query (`metadata.<k>`, repeated values as arrays, strings).
 */
export function listQuery(query: unknown): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (typeof query !== 'object' || query === null || Array.isArray(query)) return out;
  const scalar = (v: unknown) => (v === null || v === undefined ? undefined : typeof v === 'object' ? JSON.stringify(v) : String(v));
  for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
    if (key === 'metadata' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        const s = scalar(v);
        if (s !== undefined) out[`metadata.${k}`] = s;
      }
    } else if (Array.isArray(value)) {
      out[key] = value.map(scalar).filter((s): s is string => s !== undefined);
    } else {
      const s = scalar(value);
      if (s !== undefined) out[key] = s;
    }
  }
  return out;
}

/**
 * Host side of `req.svc`: calls token-service as the Reactor's Application (never as the invoking caller), within
 * the invocation's deadline. Failures reject with `{status, body}` where body is the problem document.
 */
export class TokenSvcBridge implements SvcBridge {
  constructor(
    private readonly rpc: RpcClient,
    private readonly principal: Principal,
    private readonly traceId: string,
  ) {}

  async call(method: string, args: unknown[], ctx?: SvcCallContext): Promise<unknown> {
    const route = Object.prototype.hasOwnProperty.call(SVC_ROUTES, method) ? SVC_ROUTES[method] : undefined;
    if (!route) throw { status: 400, body: { status: 400, title: 'Bad Request', detail: 'Unknown svc method' } };
    const remaining = ctx ? ctx.deadline - Date.now() : RPC_DEADLINE_MS.default;
    if (remaining <= 0 || ctx?.signal.aborted) throw { status: 504, body: { status: 504, title: 'Gateway Timeout', detail: 'The reactor ran out of time' } };
    // the JSON limits of every API body (depth, finite numbers), before anything here serializes the arguments
    for (const arg of args) {
      const violation = findJsonLimitViolation(arg);
      if (violation) throw { status: 400, body: jsonLimitProblem(violation).problem };
    }
    try {
      const value = await this.rpc.call(
        route.op,
        route.body(args),
        { principal: this.principal, traceId: this.traceId },
        Math.min(remaining, RPC_DEADLINE_MS.default),
      );
      return route.empty ? undefined : value;
    } catch (err) {
      if (err instanceof ProblemError) throw { status: err.status, body: err.problem };
      throw { status: 500, body: { status: 500, title: 'Internal Server Error' } };
    }
  }
}
