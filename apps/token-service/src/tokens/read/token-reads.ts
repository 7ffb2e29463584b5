import { Injectable } from '@nestjs/common';
import type { Principal } from '@coffer/contracts';
import { GroupCommitQueue, upTo } from '@coffer/db';
import { TokenRepository, type TokenRow } from '../token.repository';
import { accessPredicate, unconditionalAccess } from '../token-access.sql';

/** A token read by id: the row (null when there is none) and whether its read event is already written. */
export interface FoundToken {
  row: TokenRow | null;
  audited: boolean;
}

/** A read as it waits for its batch: who reads travels with it, as the read's use case read it where it started. */
interface Waiting {
  principal: Principal;
  traceId: string | undefined;
  id: string;
  resolve: (found: FoundToken) => void;
  reject: (err: unknown) => void;
}

/** The most reads one statement looks up. */
const MAX_BATCH = 200;

/**
 * Reads by id, coalesced per event-loop iteration (GroupCommitQueue): the reads that arrive during one iteration share
 * one statement, which also writes the read events of the callers allowed every token (one round trip, one commit); the
 * events of callers whose rules decide per token follow in one group commit (AuditLog). A read that arrives alone takes the
 * one-statement path instead: the row and its audit event in one round trip (TokenRepository.findAudited), which is
 * what a lone caller waits least for.
 */
@Injectable()
export class TokenReads {
  private readonly queue = new GroupCommitQueue<Waiting>({
    maxInFlight: Infinity,
    take: upTo(MAX_BATCH),
    run: (batch) => (batch.length === 1 ? this.alone(batch[0]) : this.together(batch)),
  });

  constructor(private readonly tokens: TokenRepository) {}

  /**
   * `principal` and `traceId` are data, never read from the context here: a batch is flushed in the async context of
   * whichever read scheduled it, and each read's statement and audit event must be its own caller's.
   */
  find(principal: Principal, traceId: string | undefined, id: string): Promise<FoundToken> {
    return new Promise<FoundToken>((resolve, reject) => this.queue.add({ principal, traceId, id, resolve, reject }));
  }

  private async alone(w: Waiting): Promise<void> {
    try {
      const row = await this.tokens.findAudited(w.principal.tenantId, w.id, accessPredicate(w.principal, 'token:read'), w.principal.applicationId, w.traceId);
      w.resolve(row ? { row, audited: row.audited } : { row: null, audited: false });
    } catch (err) {
      w.reject(err);
    }
  }

  private async together(batch: Waiting[]): Promise<void> {
    try {
      const rows = await this.tokens.findEach(
        batch.map((w) => ({
          tenantId: w.principal.tenantId,
          id: w.id,
          // a caller allowed every token has its read event written by the same statement; rules decide per row, here
          audit: unconditionalAccess(w.principal, 'token:read') ? { actorApplicationId: w.principal.applicationId, traceId: w.traceId } : undefined,
        })),
      );
      batch.forEach((w, i) => w.resolve({ row: rows[i], audited: rows[i]?.audited ?? false }));
    } catch {
      // One read's input must not fail the others' (they may be other tenants'): each is tried on its own, and only
      // a read whose own statement fails gets the error.
      await Promise.all(batch.map((w) => this.alone(w)));
    }
  }
}
