import type pg from 'pg';
import { ConfigError, envInt, envUrl } from '@coffer/observability';

/** DATABASE_URL: required, a postgres:// or postgresql:// URL (never quoted in errors: it carries the password). */
export function databaseUrl(): string {
  if (!process.env['DATABASE_URL']) throw new ConfigError('DATABASE_URL is not set (postgres://user:password@host:port/database)');
  return envUrl('DATABASE_URL', ['postgres', 'postgresql']);
}

/** DATABASE_POOL_SIZE: connections per pool, 1–1000, default 10. */
export function databasePoolSize(): number {
  return envInt('DATABASE_POOL_SIZE', 10, 1, 1000);
}

/** One hour: the largest value any of the timeouts below accepts (0 turns a timeout off). */
const MAX_TIMEOUT_MS = 3_600_000;

/**
 * DATABASE_STATEMENT_TIMEOUT_MS, default 30 000: the backstop for a statement nobody waits for any more. Requests
 * that carry a deadline get a shorter one of their own (SqlPool.withinDeadline); this one bounds everything else.
 * 30 s is twice the longest RPC deadline (15 s, a synchronous react) and far above the longest legitimate statement
 * (a sweeper batch of 500 deletes, a 500-row page of the admin CLI's re-encryption), yet a runaway query holds its
 * connection at most half a minute. 0 turns it off (the admin CLI may want that for a one-off maintenance run).
 */
export function databaseStatementTimeoutMs(): number {
  return envInt('DATABASE_STATEMENT_TIMEOUT_MS', 30_000, 0, MAX_TIMEOUT_MS);
}

/**
 * DATABASE_LOCK_TIMEOUT_MS, default 10 000: how long a statement may wait for a lock. Writes contend only on single
 * rows (an idempotency key, a token id) held by transactions that last milliseconds; a wait past 10 s (twice the
 * default RPC deadline) means something holds a lock it should not, and the waiter gives its connection back.
 */
export function databaseLockTimeoutMs(): number {
  return envInt('DATABASE_LOCK_TIMEOUT_MS', 10_000, 0, MAX_TIMEOUT_MS);
}

/**
 * DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS, default 60 000: PostgreSQL ends a session left idle inside a transaction
 * (a process that hung or lost its way mid-transaction), which releases its locks. No transaction of Coffer waits on
 * anything but its own statements; the longest (tokenize, 100 tokens) is bounded at 30 s by Prisma already.
 */
export function databaseIdleInTransactionTimeoutMs(): number {
  return envInt('DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS', 60_000, 0, MAX_TIMEOUT_MS);
}

/** Every database setting above, validated (start-up calls this so a bad value stops the process at once). */
export interface DatabaseConfig {
  url: string;
  poolSize: number;
  statementTimeoutMs: number;
  lockTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
}

export function databaseConfig(): DatabaseConfig {
  return {
    url: databaseUrl(),
    poolSize: databasePoolSize(),
    statementTimeoutMs: databaseStatementTimeoutMs(),
    lockTimeoutMs: databaseLockTimeoutMs(),
    idleInTransactionTimeoutMs: databaseIdleInTransactionTimeoutMs(),
  };
}

/**
 * The pg pool settings of every pool a process opens (Prisma's, the hot-path SqlPool, the keyring's): the timeouts go
 * in each connection's start-up packet, so every session has them from its first statement, whatever runs on it.
 */
export function poolConfig(max: number, config: DatabaseConfig = databaseConfig()): pg.PoolConfig {
  return {
    connectionString: config.url,
    max,
    statement_timeout: config.statementTimeoutMs,
    lock_timeout: config.lockTimeoutMs,
    idle_in_transaction_session_timeout: config.idleInTransactionTimeoutMs,
  };
}
