import type { Problem } from '@coffer/contracts';

/**
 * PostgreSQL and Prisma failures that are not bugs but the database protecting itself or being unavailable: a
 * statement cancelled by its timeout, a lock not granted in time, a deadlock victim, a connection that could not be
 * had. Each is a 503 or 504 problem for the caller (retryable), never a 500.
 */
const BY_SQLSTATE: Record<string, Problem> = {
  // query_canceled: statement_timeout, or cancelled at the caller's deadline
  '57014': { title: 'Gateway Timeout', status: 504, detail: 'The request took longer than its deadline; the query was cancelled' },
  // lock_not_available (lock_timeout), deadlock_detected, serialization_failure
  '55P03': { title: 'Service Unavailable', status: 503, detail: 'The resource is busy; retry the request' },
  '40P01': { title: 'Service Unavailable', status: 503, detail: 'The resource is busy; retry the request' },
  '40001': { title: 'Service Unavailable', status: 503, detail: 'The resource is busy; retry the request' },
  // too_many_connections, admin_shutdown, crash_shutdown, cannot_connect_now
  '53300': { title: 'Service Unavailable', status: 503, detail: 'The database is unavailable; retry the request' },
  '57P01': { title: 'Service Unavailable', status: 503, detail: 'The database is unavailable; retry the request' },
  '57P02': { title: 'Service Unavailable', status: 503, detail: 'The database is unavailable; retry the request' },
  '57P03': { title: 'Service Unavailable', status: 503, detail: 'The database is unavailable; retry the request' },
  // read_only_sql_transaction: during a failover a connection can reach a standby, or the old primary as it is
  // demoted; the write did nothing, and the retry reaches the new primary
  '25006': { title: 'Service Unavailable', status: 503, detail: 'The database is unavailable; retry the request' },
};

const UNAVAILABLE: Problem = { title: 'Service Unavailable', status: 503, detail: 'The database is unavailable; retry the request' };

/** Prisma's own codes for a database it cannot reach or a pool it cannot get a connection from. */
const PRISMA_UNAVAILABLE = new Set(['P1001', 'P1002', 'P1017', 'P2024']);

type ErrorLike = {
  code?: unknown;
  meta?: { driverAdapterError?: { cause?: { code?: unknown; originalCode?: unknown } } };
  cause?: unknown;
  message?: unknown;
};

/**
 * The SQLSTATE of a pg error, or of a Prisma error wrapping one (driver adapter: `code`, or `originalCode` where the
 * adapter names the kind itself, as for a unique or foreign-key violation), if any.
 */
export function sqlStateOf(err: unknown): string | undefined {
  for (let e = err as ErrorLike | undefined, depth = 0; e && typeof e === 'object' && depth < 4; e = e.cause as ErrorLike | undefined, depth++) {
    const cause = e.meta?.driverAdapterError?.cause;
    const adapter = cause?.code ?? cause?.originalCode;
    if (typeof adapter === 'string') return adapter;
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

/** The problem a database failure stands for, or undefined when `err` is not one (then it is a bug: 500). */
export function databaseProblem(err: unknown): Problem | undefined {
  // Prisma's own codes look like SQLSTATEs (P2024): they are told apart by the error being Prisma's
  const code = (err as ErrorLike | null)?.code;
  const prisma = err instanceof Error && err.name.startsWith('Prisma');
  if (prisma && typeof code === 'string' && PRISMA_UNAVAILABLE.has(code)) return UNAVAILABLE;
  const state = sqlStateOf(err);
  if (state !== undefined) return BY_SQLSTATE[state] ?? (state.startsWith('08') ? UNAVAILABLE : undefined);
  // node-postgres: "timeout exceeded when trying to connect" (the pool); a connection dropped mid-query; a query sent on
  // a client whose connection had already broken (a transaction's next statement after a failover cut it)
  const message = (err as ErrorLike | null)?.message;
  if (
    typeof message === 'string' &&
    /timeout exceeded when trying to connect|Connection terminated|encountered a connection error and is not queryable/i.test(message)
  )
    return UNAVAILABLE;
  return undefined;
}

/**
 * A foreign key refused the write (SQLSTATE 23503; Prisma's P2003): what it referred to is gone (deleted since the
 * caller read it), or, for a delete, something still refers to the row.
 */
export function isForeignKeyViolation(err: unknown): boolean {
  return sqlStateOf(err) === '23503' || (err as ErrorLike | null)?.code === 'P2003';
}

/** A unique constraint refused the write (SQLSTATE 23505; Prisma's P2002). */
export function isUniqueViolation(err: unknown): boolean {
  return sqlStateOf(err) === '23505' || (err as ErrorLike | null)?.code === 'P2002';
}
