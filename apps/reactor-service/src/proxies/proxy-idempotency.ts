import { Injectable } from '@nestjs/common';
import {
  RPC_DEADLINE_MS,
  SUBJECTS,
  type Principal,
  type ProxyIdempotencyMessage,
  type ProxyIdempotencyReply,
  type RecordedProxyReply,
} from '@coffer/contracts';
import { IdempotentWrites, idempotentRequestOf, inProgress } from '@coffer/idempotency';

/** How long a claim holds the key: the proxy's whole deadline, and some slack for the answer's way back. */
const LEASE_MS = RPC_DEADLINE_MS.proxy + 5_000;

/**
 * The idempotency of proxy requests, kept in this service's ledger (idempotency_records, replies sealed with the
 * tenant's key) on proxy-service's behalf: proxy-service holds plaintext in flight and nothing at rest. The key is
 * claimed before the request is sent (a destination's side effects cannot be rolled back), as a synchronous react's.
 */
@Injectable()
export class ProxyIdempotency {
  constructor(private readonly writes: IdempotentWrites) {}

  async handle(principal: Principal, traceId: string, msg: ProxyIdempotencyMessage): Promise<ProxyIdempotencyReply> {
    const req = idempotentRequestOf(SUBJECTS.proxy.invoke, { principal, traceId, body: msg.request, idempotencyKey: msg.key });
    if (!req) return { done: true };
    const ledger = this.writes.ledger;
    switch (msg.action) {
      case 'begin': {
        for (let attempt = 0; attempt < 2; attempt++) {
          const entry = await ledger.find(req);
          if (entry?.state === 'completed') return { replay: entry.reply as RecordedProxyReply };
          if (entry?.state === 'running' && entry.lockedUntil.getTime() > Date.now()) throw inProgress();
          if (await ledger.claim(req, LEASE_MS)) return { claimed: true };
        }
        throw inProgress();
      }
      case 'complete':
        await ledger.complete(req, msg.reply ?? null);
        return { done: true };
      case 'release':
        await ledger.release(req);
        return { done: true };
    }
  }
}
