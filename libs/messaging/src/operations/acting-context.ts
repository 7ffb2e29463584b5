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
export function actingAs(): { tenantId: string; actor: Actor; traceId?: string } | undefined {
  const ctx = acting.getStore();
  if (!ctx?.principal) return undefined;
  const out: { tenantId: string; actor: Actor; traceId?: string } = { tenantId: ctx.principal.tenantId, actor: actorOf(ctx.principal) };
  if (ctx.traceId) out.traceId = ctx.traceId;
  return out;
}
