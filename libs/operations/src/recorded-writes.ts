import { Injectable } from '@nestjs/common';
import { EventOutbox, PrismaService, type OutboxEvent, type TransactionOptions } from '@coffer/db';
import { AuditTrail, type AuditAct } from './audit-trail';

/** What a write leaves behind besides its rows: the events that announce it and its audit record(s). */
export interface ChangeRecord {
  events?: readonly OutboxEvent[];
  audit?: AuditAct | readonly AuditAct[];
}

/**
 * The one way a use case changes something it must announce or audit: the change, its events (the outbox,
 * docs/events.md) and its audit record (docs/audit.md) commit in one transaction or not at all. A crash between the
 * act and its record can therefore never leave an act nobody recorded, nor a record of an act that did not happen.
 */
@Injectable()
export class RecordedWrites {
  constructor(
    private readonly prisma: PrismaService,
    private readonly outbox: EventOutbox,
    private readonly audit: AuditTrail,
  ) {}

  /**
   * Runs `write`, then records what `recordOf` says of its result, in one transaction (joined when one is open). A
   * write that throws (a 404, a 409, a limit) rolls back and records nothing.
   */
  commit<T>(write: () => Promise<T>, recordOf: (result: T) => ChangeRecord, options?: TransactionOptions): Promise<T> {
    return this.prisma.transactional(async () => {
      const result = await write();
      const { events = [], audit = [] } = recordOf(result);
      await this.outbox.record(events);
      const acts: readonly AuditAct[] = Array.isArray(audit) ? audit : [audit as AuditAct];
      if (acts.length) await this.audit.record(...acts);
      return result;
    }, options);
  }

  /** Records an act that changed no row (a refused sign-in): its events and audit record, committed together. */
  record(record: ChangeRecord): Promise<void> {
    return this.commit(
      async () => undefined,
      () => record,
    );
  }
}
