import { Injectable } from '@nestjs/common';
import { currentTraceparent } from '@coffer/observability';
import { Prisma } from './generated/prisma/client';
import { deferUntilCommitted, inTransaction } from './after-commit';
import { outboxSignal } from './outbox-signal';
import { SqlPool } from './sql-pool';

/** What the outbox stores of an event: its envelope's `event` object (libs/contracts `CofferEvent`). */
export interface OutboxEvent {
  id: string;
  type: string;
  tenant_id: string;
}

/**
 * The transactional outbox (docs/events.md): an event is inserted in the transaction of the change it describes, so
 * a committed change always has its event and a rolled-back one never does. webhook-dispatcher's relay publishes and
 * deletes the rows. Every service writes its own events through this; nothing else inserts into event_outbox.
 */
@Injectable()
export class EventOutbox {
  constructor(private readonly sql: SqlPool) {}

  /** Inserts the events in the open unit of work; outside one there is no change to join, which is a bug. */
  async record(events: readonly OutboxEvent[]): Promise<void> {
    if (!events.length) return;
    if (!inTransaction()) throw new Error('EventOutbox.record must run inside PrismaService.transactional (the change and its event commit together)');
    await this.sql.query(outboxInsert(events));
  }

  /**
   * Events that are a write of their own, with no row changed beside them (a synchronous reactor invocation): one
   * statement, atomic by itself, so all of them commit or none, without a unit of work's BEGIN and COMMIT round trips.
   * Inside a unit of work it joins it, as `record` does.
   */
  async recordAlone(events: readonly OutboxEvent[]): Promise<void> {
    if (!events.length) return;
    await this.sql.query(outboxInsert(events));
  }
}

/**
 * The INSERT of events; `from` (a CTE name) makes it conditional: one row per event only when `from` has a row.
 * Inside a unit of work its commit wakes the relay (outbox-signal.ts); a statement run outside one wakes it when it
 * returns (SqlPool.query recognises its text, OUTBOX_INSERT_TEXT).
 */
export function outboxInsert(events: readonly OutboxEvent[], from?: Prisma.Sql): Prisma.Sql {
  if (events.length) deferUntilCommitted(() => outboxSignal.written());
  // built in the request that writes the events, so its span is the one their deliveries continue
  const traceparent = currentTraceparent() ?? null;
  const values = Prisma.sql`
    SELECT e.id, e.tenant_id, e.type, e.event, ${traceparent}::text FROM unnest(${events.map((e) => e.id)}::uuid[], ${events.map((e) => e.tenant_id)}::uuid[],
      ${events.map((e) => e.type)}::text[], ${events.map((e) => JSON.stringify(e))}::jsonb[]) AS e(id, tenant_id, type, event)`;
  return from
    ? Prisma.sql`INSERT INTO event_outbox (id, tenant_id, type, event, traceparent) ${values} WHERE EXISTS (SELECT 1 FROM ${from})`
    : Prisma.sql`INSERT INTO event_outbox (id, tenant_id, type, event, traceparent) ${values}`;
}
