import { Injectable } from '@nestjs/common';
import {
  EventOutbox,
  Prisma,
  PrismaService,
  SqlPool,
  auditRecordsInsert,
  auditSignal,
  outboxInsert,
  type OutboxEvent,
  type TransactionOptions,
} from '@coffer/db';
import { AuditTrail, recordsOf, type AuditAct } from './audit-trail';

/** What a write leaves behind besides its rows: the events that announce it and its audit record(s). */
export interface ChangeRecord {
  events?: readonly OutboxEvent[];
  audit?: AuditAct | readonly AuditAct[];
}

/** What names the write's rows inside its own statement (commitStatement). */
const WRITTEN = Prisma.raw('written');

/**
 * The one way a use case changes something it must announce or audit: the change, its events (the outbox,
 * docs/events.md) and its audit record (docs/audit.md) commit in one transaction or not at all. A crash between the
 * act and its record can therefore never leave an act nobody recorded, nor a record of an act that did not happen.
 */
@Injectable()
export class RecordedWrites {
  constructor(
    private readonly prisma: PrismaService,
    private readonly outbox: EventOutbox,
    private readonly audit: AuditTrail,
    private readonly sql: SqlPool,
  ) {}

  /**
   * Runs `write`, then records what `recordOf` says of its result, in one transaction (joined when one is open). A
   * write that throws (a 404, a 409, a limit) rolls back and records nothing.
   */
  commit<T>(write: () => Promise<T>, recordOf: (result: T) => ChangeRecord, options?: TransactionOptions): Promise<T> {
    return this.prisma.transactional(async () => {
      const result = await write();
      const { events = [], audit = [] } = recordOf(result);
      await this.outbox.record(events);
      const acts: readonly AuditAct[] = Array.isArray(audit) ? audit : [audit as AuditAct];
      if (acts.length) await this.audit.record(...acts);
      return result;
    }, options);
  }

  /**
   * A write that is one statement (an INSERT, or a compare-and-set UPDATE, with RETURNING) and its record, known
   * before it runs, as that one statement: the events and audit records are parts of it written only when the write
   * returned a row, so they commit with it or not at all as `commit` guarantees, in one round trip and one implicit
   * transaction, without the ORM's BEGIN and COMMIT. Inside a unit of work it joins it. Returns the write's rows
   * (none: nothing written, nothing recorded). `name` prepares the statement: its text must then never change.
   */
  async commitStatement<R>(write: Prisma.Sql, record: ChangeRecord, name?: string): Promise<R[]> {
    const { events = [], audit = [] } = record;
    const acts: readonly AuditAct[] = Array.isArray(audit) ? audit : [audit as AuditAct];
    const parts = [Prisma.sql`${WRITTEN} AS (${write})`];
    if (events.length) parts.push(Prisma.sql`written_events AS (${outboxInsert(events, WRITTEN)})`);
    if (acts.length) parts.push(Prisma.sql`written_audit AS (${auditRecordsInsert(recordsOf(acts), Prisma.sql`EXISTS (SELECT 1 FROM ${WRITTEN})`)})`);
    const rows = await this.sql.query<R>(Prisma.sql`WITH ${Prisma.join(parts, ', ')} SELECT * FROM ${WRITTEN}`, name);
    // the sealer reads them once committed (the outbox's relay is woken by SqlPool, which recognises the INSERT)
    if (rows.length && acts.length) auditSignal.afterCommit();
    return rows;
  }

  /** Records an act that changed no row (a refused sign-in): its events and audit record, committed together. */
  record(record: ChangeRecord): Promise<void> {
    return this.commit(
      async () => undefined,
      () => record,
    );
  }
}
