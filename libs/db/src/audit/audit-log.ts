import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { inTransaction } from '../after-commit';
import { GroupCommitQueue } from '../group-commit-queue';
import { auditSignal } from '../outbox-signal';
import { SqlPool } from '../sql-pool';
import { auditRecordsInsert, refusalWindowsUpsert, type AuditRecordInput, type RefusalWindow } from './audit-records';

/** A caller's records as they wait for their group commit. */
interface Pending {
  records: AuditRecordInput[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Records in one group-committed INSERT, at most about this many (a caller's records are never split). */
const MAX_BATCH = 500;
/** INSERTs in flight at once: the pool (DATABASE_POOL_SIZE, 10) keeps connections for the requests' own statements */
const MAX_FLUSHES = 4;

/**
 * The one way code writes audit records of what it did (every service's acts, token reads and writes, refusals), each
 * resolving once its records are written:
 *
 * - inside a unit of work (PrismaService.transactional) the INSERT joins its transaction, so a record commits with the
 *   change it describes and a rolled-back change leaves none;
 * - outside one, by group commit: the records of one event-loop iteration share one multi-row INSERT (GroupCommitQueue,
 *   up to MAX_FLUSHES at once), so auditing every read costs one round trip per batch instead of one per request.
 *
 * Records that ride in the statement of the act itself use auditInsert's fragments instead (token-service's reads,
 * creates and changes; reactor-service's invocations); every INSERT's text lives in this folder. Once records are written, token-service's sealer is
 * woken (auditSignal: a notification, or in token-service itself a call).
 */
@Injectable()
export class AuditLog implements BeforeApplicationShutdown {
  private readonly queue = new GroupCommitQueue<Pending>({ maxInFlight: MAX_FLUSHES, take: upToRecords, run: (batch) => this.flush(batch) });

  constructor(private readonly sql: SqlPool) {}

  async append(...records: AuditRecordInput[]): Promise<void> {
    if (!records.length) return;
    if (!inTransaction()) return new Promise<void>((resolve, reject) => this.queue.add({ records, resolve, reject }));
    await this.sql.query(auditRecordsInsert(records));
    auditSignal.afterCommit();
  }

  async addRefusals(windows: RefusalWindow[]): Promise<void> {
    if (!windows.length) return;
    await this.sql.query(refusalWindowsUpsert(windows));
    auditSignal.afterCommit();
  }

  private async flush(batch: Pending[]): Promise<void> {
    try {
      await this.sql.query(auditRecordsInsert(batch.flatMap((b) => b.records)));
      for (const b of batch) b.resolve();
      auditSignal.written();
    } catch (err) {
      for (const b of batch) b.reject(err);
    }
  }

  /** A shutdown lets the records already accepted reach the database (SqlPool closes in the phase after this one). */
  beforeApplicationShutdown(): Promise<void> {
    return this.queue.drained();
  }
}

/** The oldest callers' records, about MAX_BATCH of them. */
function upToRecords(queue: Pending[]): { batch: Pending[]; rest: Pending[] } {
  let n = 0;
  for (let size = 0; n < queue.length && size < MAX_BATCH; n++) size += queue[n].records.length;
  return { batch: queue.slice(0, n), rest: queue.slice(n) };
}
