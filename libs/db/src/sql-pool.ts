import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import pg from 'pg';
import type { Prisma } from './generated/prisma/client';
import { databasePoolSize, poolConfig } from './pool-config';
import { openTransaction } from './after-commit';
import { OUTBOX_INSERT_TEXT, auditSignal, outboxSignal } from './outbox-signal';
import { MIN_STATEMENT_BUDGET_MS, isStatementCancelled, statementBudget, statementCancelled } from './transaction-options';

export { isStatementCancelled, statementCancelled } from './transaction-options';

/** Runs one statement on the connection a `withinDeadline` block holds. */
export type DeadlineQuery = <T>(sql: Prisma.Sql) => Promise<T[]>;

/**
 * A plain pg pool for the hot path. Prisma's $queryRaw costs ~0.4 ms of CPU per query here against ~0.1 ms for
 * pg itself, so the few statements every token request runs use this; they are still written as Prisma.sql
 * fragments (parameterised, composable) and run with their `$n` text.
 *
 * Inside a unit of work (PrismaService.transactional) every statement joins it instead: it runs on the transaction's
 * connection through Prisma's public `$queryRaw`, so it sees the transaction's uncommitted rows and commits or rolls
 * back with them (another connection could do neither, and would be a second connection held while the transaction
 * waits). Rows then come back as Prisma types them: bytea as Uint8Array, bigint as BigInt (pg: Buffer, string), so
 * callers read them through what both share (a Uint8Array, `Number(n)`).
 */
@Injectable()
export class SqlPool implements OnApplicationShutdown {
  private readonly pool: pg.Pool;
  /** prepared statements (by name) that write events: their text never changes, so it is looked at once */
  private readonly writesEvents = new Map<string, boolean>();
  private readonly notify = (text: string) => this.pool.query(text);

  constructor() {
    this.pool = new pg.Pool(poolConfig(databasePoolSize()));
    // An idle connection that dies (PostgreSQL restarted, a proxy or the network cut it) is an 'error' event on the
    // pool; without a listener Node ends the process. The pool has already discarded the client and opens a new one
    // on the next query, so there is nothing else to do.
    this.pool.on('error', () => undefined);
    // the outbox relay's and the audit sealer's wake-ups after a commit go out on this pool (outbox-signal.ts)
    outboxSignal.bind(this.notify);
    auditSignal.bind(this.notify);
  }

  /**
   * `name`: a prepared statement (parsed and planned once per connection, then only bound and executed) for a
   * statement whose text never changes; each name must always go with the same text.
   */
  async query<T>(sql: Prisma.Sql, name?: string): Promise<T[]> {
    const tx = openTransaction();
    if (tx) return tx.$queryRaw<T[]>(sql);
    const result = await this.pool.query({ name, text: sql.text, values: sql.values as unknown[] });
    // a statement of its own that wrote events has committed: the relay may read them now
    if (this.wroteEvents(sql.text, name)) outboxSignal.written();
    return result.rows as T[];
  }

  private wroteEvents(text: string, name: string | undefined): boolean {
    if (name === undefined) return text.includes(OUTBOX_INSERT_TEXT);
    let writes = this.writesEvents.get(name);
    if (writes === undefined) this.writesEvents.set(name, (writes = text.includes(OUTBOX_INSERT_TEXT)));
    return writes;
  }

  /**
   * Runs `work`'s statements so that PostgreSQL itself cancels them when `deadline` (performance.now() scale, from
   * the RPC envelope) passes: one connection, a read-only transaction with `SET LOCAL statement_timeout` = the time
   * left. A cancelled statement is a 504 problem. The server-side timeout (rather than pg_cancel_backend from
   * another connection) needs no second connection, so it works however busy the pools are, and it ends with the
   * transaction, so the connection goes back to the pool with the pool-wide timeout. Without a deadline the
   * statements run as plain pool queries. Inside a unit of work they join it, under the unit's own deadline
   * (TransactionOptions.deadline): a SET LOCAL here would outlive this block and bound the rest of that transaction.
   */
  async withinDeadline<T>(deadline: number | undefined, work: (query: DeadlineQuery) => Promise<T>): Promise<T> {
    if (deadline === undefined || openTransaction()) return work((sql) => this.query(sql));
    const left = () => statementBudget(deadline);
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

  /**
   * The pool closes in Nest's last shutdown phase: the providers that write through it (AuditLog's queued records)
   * finish theirs in the phases before (onModuleDestroy, beforeApplicationShutdown).
   */
  async onApplicationShutdown(): Promise<void> {
    outboxSignal.unbind(this.notify);
    auditSignal.unbind(this.notify);
    await this.pool.end();
  }
}
