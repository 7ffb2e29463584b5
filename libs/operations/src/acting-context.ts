import { AsyncLocalStorage } from 'node:async_hooks';
import { actorOf, type Actor, type Principal } from '@coffer/contracts';

/** Who the current operation acts for and its trace id, as the dispatcher received them. */
export interface ActingContext {
  principal?: Principal;
  traceId?: string;
}

const acting = new AsyncLocalStorage<ActingContext>();

/** Runs `fn` as the operation of `ctx` (the operation dispatcher, around each handler). */
export function withActingContext<T>(ctx: ActingContext, fn: () => T): T {
  return acting.run(ctx, fn);
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
