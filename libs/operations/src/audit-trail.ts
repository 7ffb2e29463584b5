import { Injectable } from '@nestjs/common';
import { AuditLog, type AuditRecordInput } from '@coffer/db';
import { actingAs } from './acting-context';

/** An act to record; the tenant, actor and trace id default to the current operation's (its principal, its trace). */
export type AuditAct = Omit<AuditRecordInput, 'tenantId' | 'actor' | 'traceId'> & Partial<Pick<AuditRecordInput, 'tenantId' | 'actor' | 'traceId'>>;

/**
 * What a service's use cases call to record a security-relevant act: `record({operation, entityType, entityId,
 * changes})` after the write, in the same unit of work when there is one (the INSERT joins it). Provided by each
 * service that records (it needs the database: not part of MessagingModule, which the gateway imports too).
 */
@Injectable()
export class AuditTrail {
  constructor(private readonly log: AuditLog) {}

  async record(...acts: AuditAct[]): Promise<void> {
    await this.log.append(...recordsOf(acts));
  }
}

/** The acts as audit records: the current operation's tenant, actor and trace id where an act names none. */
export function recordsOf(acts: readonly AuditAct[]): AuditRecordInput[] {
  const ctx = actingAs();
  return acts.map((a) => ({ ...ctx, ...a, tenantId: a.tenantId ?? ctx?.tenantId }));
}
