import { AsyncLocalStorage } from 'node:async_hooks';
import type { Prisma } from './generated/prisma/client';

/**
 * The open unit of work (PrismaService.transactional) of the current async context, apart from PrismaService so that
 * code which only needs `deferUntilCommitted` (the event bus, in every process, the gateway included) does not load
 * Prisma (entry point `@coffer/db/after-commit`).
 */
export interface Ambient {
  tx: Prisma.TransactionClient;
  /** work that must only happen once the transaction committed (events that tell others to re-read) */
  afterCommit: Array<() => Promise<unknown> | unknown>;
}

export const ambient = new AsyncLocalStorage<Ambient>();

/** Whether the current async context runs inside a unit of work (`PrismaService.transactional`). */
export function inTransaction(): boolean {
  return ambient.getStore() !== undefined;
}

/** The open unit of work's transaction client: for the ways in that join it (PrismaService, SqlPool), never repositories. */
export function openTransaction(): Prisma.TransactionClient | undefined {
  return ambient.getStore()?.tx;
}

/**
 * Inside `PrismaService.transactional`, queues `effect` until the transaction commits (dropped if it rolls back) and
 * returns true; outside, returns false and the caller runs it now. The event bus uses it so a cache invalidation is
 * never published before the change it announces can be read.
 */
export function deferUntilCommitted(effect: () => Promise<unknown> | unknown): boolean {
  const store = ambient.getStore();
  if (!store) return false;
  store.afterCommit.push(effect);
  return true;
}
