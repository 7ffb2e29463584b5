import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { OPS, type AuditEventMessage, type Principal } from '@coffer/contracts';
import { RpcClient } from '@coffer/bus';
import { createLogger } from '@coffer/observability';

/** How long a record waits for others of the same caller, and how many one message carries at most. */
const FLUSH_MS = 100;
const MAX_BATCH = 200;

/**
 * The audit records of proxied calls, sent to token-service (which owns audit_events) in batches per caller: one
 * message, and one insert, per caller and tenth of a second instead of one per call — the proxy's busiest path then
 * costs token-service and PostgreSQL little. Records still pending when the process stops are sent before it exits.
 * A batch that cannot be written is logged (with its size, never its contents).
 *
 * A batch holds records of many requests, so it is sent as no request: each record's caller is given with it
 * (`add`, taken by the request that made it) and a batch goes out as that principal, never as whoever is reading an
 * operation's context (`caller()`) when it is sent. The sends run outside the context of the request that happened
 * to start the timer or fill the batch: neither its caller, nor its deadline, nor its trace carries over to them.
 */
@Injectable()
export class AuditBatches implements OnModuleDestroy {
  private readonly logger = createLogger('proxy-service');
  private readonly pending = new Map<string, { principal: Principal; events: AuditEventMessage[] }>();
  private timer: NodeJS.Timeout | undefined;
  /** runs a function in the context this was made in (at start-up: no request's) */
  private readonly outsideRequests = AsyncLocalStorage.snapshot();

  constructor(private readonly rpc: RpcClient) {}

  /** A record of a request made by `principal` (the request's caller, as data: the batch is sent later, for many). */
  add(principal: Principal, event: AuditEventMessage): void {
    const caller = `${principal.tenantId}/${principal.sessionId ?? principal.applicationId}`;
    let batch = this.pending.get(caller);
    if (!batch) this.pending.set(caller, (batch = { principal, events: [] }));
    batch.events.push(event);
    if (batch.events.length >= MAX_BATCH) void this.outsideRequests(() => this.send(caller));
    else this.timer ??= this.outsideRequests(() => setTimeout(() => this.flush(), FLUSH_MS));
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    return Promise.all([...this.pending.keys()].map((caller) => this.send(caller))).then(() => undefined);
  }

  private send(caller: string): Promise<void> {
    const batch = this.pending.get(caller);
    this.pending.delete(caller);
    if (!batch) return Promise.resolve();
    return this.rpc.call(OPS.token.audit.record, { events: batch.events }, { principal: batch.principal, traceId: batch.events[0].traceId ?? '' }).then(
      () => undefined,
      (err: Error) => this.logger.error({ records: batch.events.length, err: { message: err.message } }, 'recording proxy calls in the audit log failed'),
    );
  }

  /** This module's hooks run before the messaging module's (Nest destroys the root module first): the bus is still up. */
  async onModuleDestroy(): Promise<void> {
    await this.flush();
  }
}
