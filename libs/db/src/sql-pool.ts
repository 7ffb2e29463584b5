import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import pg from 'pg';
import { ProblemError } from '@coffer/contracts';
import type { Prisma } from './generated/prisma/client';
import { databasePoolSize, poolConfig } from './pool-config';

/** Runs one statement on the connection a `withinDeadline` block holds. */
export type DeadlineQuery = <T>(sql: Prisma.Sql) => Promise<T[]>;

/** Below this much time left, a statement is not started: its reply could not reach the caller in time. */
const MIN_STATEMENT_BUDGET_MS = 20;
/** Cancelled this much before the caller's deadline, so the service's own 504 (not a timeout) is what it sees. */
const DEADLINE_MARGIN_MS = 50;

/** The 504 of a statement cancelled at its caller's deadline (or at the pool-wide statement timeout). */
export function statementCancelled(): ProblemError {
  return new ProblemError(504, 'The request took longer than its deadline; the query was cancelled');
}

/** PostgreSQL's query_canceled: statement_timeout (ours) or a cancel request. */
export function isStatementCancelled(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === '57014';
}

/**
 * A plain pg pool for the hot path. Prisma's $queryRaw costs ~0.4 ms of CPU per query here against ~0.1 ms for
 * pg itself, so the few statements every token request runs use this; they are still written as Prisma.sql
 * fragments (parameterised, composable) and run with their `$n` text.
 */
@Injectable()
export class SqlPool implements OnModuleDestroy {
  private readonly pool: pg.Pool;

  constructor() {
    this.pool = new pg.Pool(poolConfig(databasePoolSize()));
    // An idle connection that dies (PostgreSQL restarted, a proxy or the network cut it) is an 'error' event on the
    // pool; without a listener Node ends the process. The pool has already discarded the client and opens a new one
    // on the next query, so there is nothing else to do.
    this.pool.on('error', () => undefined);
  }

  /**
   * `name`: a prepared statement (parsed and planned once per connection, then only bound and executed) for a
   * statement whose text never changes; each name must always go with the same text.
   */
  async query<T>(sql: Prisma.Sql, name?: string): Promise<T[]> {
    const result = await this.pool.query({ name, text: sql.text, values: sql.values as unknown[] });
    return result.rows as T[];
  }

  /**
   * Runs `work`'s statements so that PostgreSQL itself cancels them when `deadline` (performance.now() scale, from
   * the RPC envelope) passes: one connection, a read-only transaction with `SET LOCAL statement_timeout` = the time
   * left. A cancelled statement is a 504 problem. The server-side timeout (rather than pg_cancel_backend from
   * another connection) needs no second connection, so it works however busy the pools are, and it ends with the
   * transaction, so the connection goes back to the pool with the pool-wide timeout. Without a deadline the
   * statements run as plain pool queries.
   */
  async withinDeadline<T>(deadline: number | undefined, work: (query: DeadlineQuery) => Promise<T>): Promise<T> {
    if (deadline === undefined) return work((sql) => this.query(sql));
    const left = () => Math.floor(deadline - performance.now() - DEADLINE_MARGIN_MS);
    if (left() < MIN_STATEMENT_BUDGET_MS) throw statementCancelled();
    const client = await this.pool.connect();
    let broken: unknown;
    try {
      const budget = left();
      if (budget < MIN_STATEMENT_BUDGET_MS) throw statementCancelled();
      // an integer we computed, never input: safe to inline (SET takes no bind parameters)
      await client.query(`BEGIN READ ONLY; SET LOCAL statement_timeout = ${budget}`);
      const result = await work(async <R>(sql: Prisma.Sql) => (await client.query({ text: sql.text, values: sql.values as unknown[] })).rows as R[]);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch((e: unknown) => (broken = e));
      if (isStatementCancelled(err)) throw statementCancelled();
      throw err;
    } finally {
      // a connection whose rollback failed is in an unknown state: destroy it rather than hand it to the next caller
      client.release(broken instanceof Error ? broken : undefined);
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool.end();
  }
}
