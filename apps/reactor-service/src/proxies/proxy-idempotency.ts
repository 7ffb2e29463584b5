import { Injectable } from '@nestjs/common';
import { RPC_DEADLINE_MS, SUBJECTS, type ProxyIdempotencyMessage, type ProxyIdempotencyReply, type RecordedProxyReply } from '@coffer/contracts';
import { IdempotentWrites, idempotentRequestOf } from '@coffer/idempotency';
import { asCaller } from '@coffer/operations';

/** How long a claim holds the key: the proxy's whole deadline, and some slack for the answer's way back. */
const LEASE_MS = RPC_DEADLINE_MS.proxy + 5_000;

/**
 * The idempotency of proxy requests, kept in this service's ledger (idempotency_records, replies sealed with the
 * tenant's key) on proxy-service's behalf: proxy-service holds plaintext in flight and nothing at rest. The key is
 * claimed before the request is sent (a destination's side effects cannot be rolled back), as a synchronous react's:
 * the same begin, complete and release of IdempotentWrites, each step one call over the bus.
 */
@Injectable()
export class ProxyIdempotency {
  constructor(private readonly writes: IdempotentWrites) {}

  /** For the invoker proxy-service forwards (the operation's caller): keys are per caller. */
  async handle(msg: ProxyIdempotencyMessage): Promise<ProxyIdempotencyReply> {
    const { principal, traceId } = asCaller();
    const req = idempotentRequestOf(SUBJECTS.proxy.invoke, { principal, traceId, body: msg.request, idempotencyKey: msg.key });
    if (!req) return { done: true };
    switch (msg.action) {
      case 'begin': {
        const begun = await this.writes.begin(req, LEASE_MS);
        return 'recorded' in begun ? { replay: begun.recorded as RecordedProxyReply } : { claimed: true };
      }
      case 'complete':
        await this.writes.complete(req, msg.reply ?? null);
        return { done: true };
      case 'release':
        await this.writes.release(req);
        return { done: true };
    }
  }
}
