import { AsyncLocalStorage } from 'node:async_hooks';
import { actorOf, type Actor, type Principal } from '@coffer/contracts';
import type { CallContext } from '@coffer/bus';

/** Who the current operation acts for and its trace id, as the dispatcher received them. */
export interface ActingContext {
  principal?: Principal;
  traceId?: string;
}

const acting = new AsyncLocalStorage<ActingContext>();

/**
 * Runs `fn` as the operation of `ctx`: the operation dispatcher around each handler, and work done later for a caller
 * who is no longer waiting (an asynchronous reactor job runs as the application that asked for it).
 */
export function withActingContext<T>(ctx: ActingContext, fn: () => T): T {
  return acting.run(ctx, fn);
}

/**
 * The authenticated caller of the operation this code runs for: what a use case acts as, read where it starts instead
 * of handed down every signature. Only the dispatcher (and work resumed for a caller) sets it, after its access check.
 * Throws outside an operation or in one open to anyone (no principal): a use case that needs a caller and has none is
 * a programming error, never a request to serve anonymously.
 */
export function caller(): Principal {
  const principal = acting.getStore()?.principal;
  if (!principal) throw new Error('caller(): no authenticated caller in this context (not inside an operation that requires one)');
  return principal;
}

/**
 * The caller when there is one: for the few rows open to anyone that narrow what they answer when the call is
 * authenticated (a proxy looked up by its key: only within the caller's tenant). Everything else uses caller().
 */
export function callerIfAny(): Principal | undefined {
  return acting.getStore()?.principal;
}

/** The trace id of the operation this code runs for, if any (the gateway's, carried in the envelope). */
export function currentTraceId(): string | undefined {
  return acting.getStore()?.traceId;
}

/** A call context with its caller certain: what asCaller() returns, and what a use case hands its own steps. */
export type CallerContext = CallContext & { principal: Principal };

/**
 * The current operation's caller and trace as one value, read once where a use case starts: what it records (events,
 * audit) names them, a call to another service made on the caller's behalf carries them, and its steps that run
 * later or for someone else (a sandbox's callbacks) get this value captured then, never a fresh read. The trace id
 * is '' where the operation has none (the gateway always sends one).
 */
export function asCaller(): CallerContext {
  return { principal: caller(), traceId: currentTraceId() ?? '' };
}

/**
 * The tenant, actor and trace id of the operation this code runs for, for its audit records: a use case records
 * what it did without being handed who asked. Undefined outside an operation (background loops name their actor).
 */
export function actingAs(): ActedBy | undefined {
  const ctx = acting.getStore();
  return ctx?.principal ? actedBy(ctx.principal, ctx.traceId) : undefined;
}

/** Who an audit record says acted: the principal's tenant and actor, and the trace id when there is one. */
export interface ActedBy {
  tenantId: string;
  actor: Actor;
  traceId?: string;
}

/** The tenant, actor and trace id of an act of `principal`: the operation's (actingAs), or one a use case names. */
export function actedBy(principal: Principal, traceId?: string): ActedBy {
  const out: ActedBy = { tenantId: principal.tenantId, actor: actorOf(principal) };
  if (traceId) out.traceId = traceId;
  return out;
}
