import { Injectable } from '@nestjs/common';
import { OPS, type AuditEventMessage } from '@coffer/contracts';
import { RpcClient, type CallContext } from '@coffer/bus';

/**
 * reactor-service's one way to write audit events. audit_events belongs to token-service (its AuditRepository is the
 * only code that inserts into it), so this recorder sends the events there (token.audit.record) and resolves once
 * token-service has written them; nothing in this service touches the table.
 */
@Injectable()
export class AuditRecorder {
  constructor(private readonly rpc: RpcClient) {}

  async record(ctx: CallContext, events: AuditEventMessage[]): Promise<void> {
    if (!events.length) return;
    await this.rpc.call(OPS.token.audit.record, { events }, ctx);
  }

  /** An invocation of a reactor, named by its id (the actor is the principal the call carries). */
  recordInvocation(ctx: CallContext, reactorId: string): Promise<void> {
    return this.record(ctx, [{ operation: 'invoke', entityType: 'reactor', entityId: reactorId, traceId: ctx.traceId }]);
  }
}
