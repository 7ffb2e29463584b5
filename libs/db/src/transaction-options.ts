import { ProblemError } from '@coffer/contracts';

/** How a unit of work runs; every field is optional. A nested unit of work joins the outer one and ignores them. */
export interface TransactionOptions {
  /** PostgreSQL's isolation level; default Read Committed (PostgreSQL's own default) */
  isolation?: 'ReadCommitted' | 'RepeatableRead' | 'Serializable';
  /**
   * The caller's deadline (performance.now() scale, from the RPC envelope): PostgreSQL cancels the transaction's
   * statements when it passes (`SET LOCAL statement_timeout`), and the transaction is not opened when too little
   * time is left. Either way the caller gets a 504 problem.
   */
  deadline?: number;
  /** The longest the transaction may stay open, statements and the work between them included; default 15 s. */
  timeoutMs?: number;
}

/** One RPC deadline (15 s, a synchronous react): the longest any caller waits for a transaction's outcome. */
export const DEFAULT_TRANSACTION_TIMEOUT_MS = 15_000;

/**
 * The longest a transaction waits for a connection before it starts, when no deadline says otherwise: the default
 * RPC deadline (5 s). By then the caller of most requests has had its 504, and a transaction that starts anyway holds
 * a connection for nobody while other requests queue behind it.
 */
export const DEFAULT_CONNECTION_WAIT_MS = 5_000;

/** Below this much time left, a statement is not started: its reply could not reach the caller in time. */
export const MIN_STATEMENT_BUDGET_MS = 20;
/** Cancelled this much before the caller's deadline, so the service's own 504 (not a timeout) is what it sees. */
export const DEADLINE_MARGIN_MS = 50;

/** Milliseconds a statement may still take before `deadline`, the margin taken off. */
export function statementBudget(deadline: number): number {
  return Math.floor(deadline - performance.now() - DEADLINE_MARGIN_MS);
}

/** The 504 of a statement cancelled at its caller's deadline (or at the pool-wide statement timeout). */
export function statementCancelled(): ProblemError {
  return new ProblemError(504, 'The request took longer than its deadline; the query was cancelled');
}

/**
 * PostgreSQL's query_canceled (statement_timeout, ours, or a cancel request), raised by pg itself or, inside a unit
 * of work, through Prisma (its driver-adapter error carries PostgreSQL's code).
 */
export function isStatementCancelled(err: unknown): boolean {
  const e = err as { code?: string; meta?: { code?: string; driverAdapterError?: { cause?: { originalCode?: string } } } } | null;
  return e?.code === '57014' || e?.meta?.code === '57014' || e?.meta?.driverAdapterError?.cause?.originalCode === '57014';
}
