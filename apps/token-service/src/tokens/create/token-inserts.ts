import { Injectable } from '@nestjs/common';
import { GroupCommitQueue, inTransaction, sqlStateOf, type OutboxEvent } from '@coffer/db';
import { currentTraceparent } from '@coffer/observability';
import { TokenRepository, type BatchedInsert, type InsertOutcome, type TokenRow } from '../token.repository';

interface Waiting extends BatchedInsert {
  resolve: (outcome: InsertOutcome) => void;
  reject: (err: unknown) => void;
}

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
 * Inside a unit of work (an idempotent create, a tokenize) the create joins that transaction instead.
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

  private async write(batch: Waiting[]): Promise<void> {
    if (batch.length === 1) return this.alone(batch[0]);
    let written: boolean[];
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
        if (written[i]) return w.resolve('created-audited');
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
      w.resolve(await this.tokens.insert(w.tenantId, w.token, w.searchDigests, { traceId: w.traceId }, w.event));
    } catch (err) {
      w.reject(err);
    }
  }
}

/** The oldest creates that can share a statement: up to MAX_BATCH, no two with the same id or dedup key in a tenant. */
function nextBatch(queue: Waiting[]): { batch: Waiting[]; rest: Waiting[] } {
  const batch: Waiting[] = [];
  const rest: Waiting[] = [];
  const keys = new Set<string>();
  for (const w of queue) {
    const id = `${w.tenantId}\u0000i${w.token.id}`;
    const dedup = w.token.dedup_key === null ? null : `${w.tenantId}\u0000d${w.token.dedup_key}`;
    if (batch.length >= MAX_BATCH || keys.has(id) || (dedup && keys.has(dedup))) {
      rest.push(w);
      continue;
    }
    keys.add(id);
    if (dedup) keys.add(dedup);
    batch.push(w);
  }
  return { batch, rest };
}

/** An error PostgreSQL answered for the statement (a SQLSTATE outside class 08, connection exception): it did not commit. */
function refused(err: unknown): boolean {
  const state = sqlStateOf(err);
  return state !== undefined && !state.startsWith('08');
}
