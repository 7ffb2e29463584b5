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
 */
@Injectable()
export class AuditBatches implements OnModuleDestroy {
  private readonly logger = createLogger('proxy-service');
  private readonly pending = new Map<string, { principal: Principal; events: AuditEventMessage[] }>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly rpc: RpcClient) {}

  add(principal: Principal, event: AuditEventMessage): void {
    const caller = `${principal.tenantId}/${principal.sessionId ?? principal.applicationId}`;
    let batch = this.pending.get(caller);
    if (!batch) this.pending.set(caller, (batch = { principal, events: [] }));
    batch.events.push(event);
    if (batch.events.length >= MAX_BATCH) this.send(caller);
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_MS);
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
