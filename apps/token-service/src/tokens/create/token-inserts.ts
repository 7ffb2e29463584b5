import { Injectable } from '@nestjs/common';
import { GroupCommitQueue, inTransaction, sqlStateOf, type OutboxEvent } from '@coffer/db';
import { currentTraceparent } from '@coffer/observability';
import type { SealedRecord } from '@coffer/idempotency';
import { TokenRepository, type BatchedInsert, type InsertOutcome, type RecordedInsert, type TokenRow } from '../token.repository';

type Waiting = BatchedInsert & { reject: (err: unknown) => void } & (
    | { record?: undefined; resolve: (outcome: InsertOutcome) => void }
    | { record: SealedRecord; resolve: (outcome: RecordedInsert) => void }
  );

/** The most creates one statement writes. */
const MAX_BATCH = 200;
/**
 * Batches being written at once. While they are, the creates that arrive wait and form the next, larger batch: the
 * fewer commits PostgreSQL makes, the more of its CPU and WAL flushes go to rows (group commit). Below this many
 * concurrent creates nothing waits for another's commit.
 */
const MAX_IN_FLIGHT = 4;

/**
 * Group commit of creates (GroupCommitQueue). The creates that reach token-service during one event-loop iteration (and
 * those that arrive while MAX_IN_FLIGHT batches are being written) are written by one statement (TokenRepository.insertMany): one
 * multi-row INSERT per table and one commit. Each create's reply still waits for that commit, so nothing is
 * acknowledged before it is durable, and each create's outcome is its own:
 * - a create whose id or dedup key was taken (by a stored token) goes on alone on the careful path, which tells id
 *   taken, deduplicated or an expired holder to replace, exactly as a create written alone;
 * - two creates of one batch that would collide with each other (same tenant and id or dedup key) are never in the
 *   same statement: the later one waits for the next batch, where it meets the first as a stored token;
 * - should PostgreSQL refuse the statement, every create of it is tried again alone, so one create's failure is only
 *   its own (a connection lost mid-statement fails them all: the outcome is unknown, see `write`).
 * A create that arrives alone is written alone, by the one-statement path (no batch to wait for).
 * An idempotent create with a fresh id (`insertRecorded`) rides in the batch with its key's record: the token is
 * written only if the key is (not in flight elsewhere, not recorded by another request meanwhile), and its outcome
 * says which. Two creates with one key are never in one statement (the later meets the first's record next time).
 * Inside a unit of work (another idempotent create, a tokenize) the create joins that transaction instead.
 */
@Injectable()
export class TokenInserts {
  private readonly queue = new GroupCommitQueue<Waiting>({ maxInFlight: MAX_IN_FLIGHT, take: nextBatch, run: (batch) => this.write(batch) });

  constructor(private readonly tokens: TokenRepository) {}

  /**
   * Everything a create's statement writes is in the arguments (the row's created_by, the audit's trace id, the event
   * and its actor), as the create's use case read them where it started: a batch is written in the async context of
   * whichever create happened to flush it, so nothing here or below reads who acts from the context (caller()).
   */
  insert(tenantId: string, token: TokenRow, searchDigests: string[], audit: { traceId?: string } | undefined, event?: OutboxEvent): Promise<InsertOutcome> {
    if (!audit || inTransaction()) return this.tokens.insert(tenantId, token, searchDigests, audit, event);
    return new Promise<InsertOutcome>((resolve, reject) =>
      this.queue.add({ tenantId, token, searchDigests, traceId: audit.traceId, event, traceparent: currentTraceparent(), resolve, reject }),
    );
  }

  /**
   * An idempotent create whose token cannot meet a conflict (a fresh id, no deduplication), written with its key's
   * record by one statement (TokenRepository.insertRecorded), or by its batch's.
   */
  insertRecorded(
    tenantId: string,
    token: TokenRow,
    searchDigests: string[],
    traceId: string | undefined,
    event: OutboxEvent,
    record: SealedRecord,
  ): Promise<RecordedInsert> {
    return new Promise<RecordedInsert>((resolve, reject) =>
      this.queue.add({ tenantId, token, searchDigests, traceId, event, traceparent: currentTraceparent(), record, resolve, reject }),
    );
  }

  private async write(batch: Waiting[]): Promise<void> {
    if (batch.length === 1) return this.alone(batch[0]);
    let written: RecordedInsert[];
    try {
      written = await this.tokens.insertMany(batch);
    } catch (err) {
      // PostgreSQL refused the statement (an error it answered): nothing of it committed, so each create is tried again
      // alone. Without such an answer (the connection broke) the batch may have committed: trying again could write a
      // token twice, so every create of it fails as its caller's unknown outcome (a retry with an idempotency key is safe).
      if (!refused(err)) for (const w of batch) w.reject(err);
      else await Promise.all(batch.map((w) => this.alone(w)));
      return;
    }
    await Promise.all(
      batch.map(async (w, i) => {
        if (w.record) return w.resolve(written[i]);
        if (written[i].created) return w.resolve('created-audited');
        try {
          w.resolve(await this.tokens.insertAfterConflict(w.tenantId, w.token, w.searchDigests, w.event));
        } catch (err) {
          w.reject(err);
        }
      }),
    );
  }

  private async alone(w: Waiting): Promise<void> {
    try {
      if (w.record) w.resolve(await this.tokens.insertRecorded(w.tenantId, w.token, w.searchDigests, { traceId: w.traceId }, w.event!, w.record));
      else w.resolve(await this.tokens.insert(w.tenantId, w.token, w.searchDigests, { traceId: w.traceId }, w.event));
    } catch (err) {
      w.reject(err);
    }
  }
}

/**
 * The oldest creates that can share a statement: up to MAX_BATCH, no two with the same id, dedup key or idempotency
 * key in a tenant.
 */
function nextBatch(queue: Waiting[]): { batch: Waiting[]; rest: Waiting[] } {
  const batch: Waiting[] = [];
  const rest: Waiting[] = [];
  const keys = new Set<string>();
  for (const w of queue) {
    const taken = [`${w.tenantId}\u0000i${w.token.id}`];
    if (w.token.dedup_key !== null) taken.push(`${w.tenantId}\u0000d${w.token.dedup_key}`);
    if (w.record) taken.push(`${w.tenantId}\u0000k${w.record.ownerId}\u0000${w.record.key}`);
    if (batch.length >= MAX_BATCH || taken.some((k) => keys.has(k))) {
      rest.push(w);
      continue;
    }
    for (const k of taken) keys.add(k);
    batch.push(w);
  }
  return { batch, rest };
}

/** An error PostgreSQL answered for the statement (a SQLSTATE outside class 08, connection exception): it did not commit. */
function refused(err: unknown): boolean {
  const state = sqlStateOf(err);
  return state !== undefined && !state.startsWith('08');
}
