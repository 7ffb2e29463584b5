import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { Prisma, SqlPool, tenantNotSuspended } from '@coffer/db';
import { metricsRegistry } from '@coffer/observability';

let read: ((sql: Prisma.Sql) => Promise<number>) | undefined;

/** The collect() of a gauge whose value is one number PostgreSQL computes when scraped; the last value stays if it cannot. */
function fromDatabase(sql: Prisma.Sql) {
  return async function collect(this: Gauge) {
    if (!read) return;
    try {
      this.set(await read(sql));
    } catch {
      /* the database is unavailable: readiness says so, the last value stays */
    }
  };
}

/**
 * How far the outbox relay is behind: the age of the oldest event not relayed yet (0 when the outbox is empty). The
 * relay reads new events within a second of their commit; this grows while no replica holds the relay's lock or the
 * JetStream stream refuses them. Every replica reports the same number.
 */
export const eventOutboxOldestAge = new Gauge({
  name: 'coffer_event_outbox_oldest_age_seconds',
  help: 'Age of the oldest event in the outbox not relayed yet (0 when none waits)',
  registers: [metricsRegistry],
  collect: fromDatabase(Prisma.sql`SELECT COALESCE(EXTRACT(EPOCH FROM now() - (SELECT created_at FROM event_outbox ORDER BY seq LIMIT 1)), 0)::float8 AS v`),
});

/**
 * How far the delivery claims are behind: how long the oldest delivery that is due (its attempt or retry time has come,
 * no worker holds it, its tenant is not suspended) has waited. A failing receiver does not raise it (its retries are
 * not due yet); too few workers, a stuck dispatcher or a flood of one tenant's deliveries do.
 */
export const webhookOldestDueAge = new Gauge({
  name: 'coffer_webhook_oldest_due_age_seconds',
  help: 'How long the oldest webhook delivery that is due has waited for its attempt (0 when none is due)',
  registers: [metricsRegistry],
  collect: fromDatabase(
    Prisma.sql`SELECT COALESCE(EXTRACT(EPOCH FROM now() - (
      SELECT d.next_attempt_at FROM webhook_deliveries d
      WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND (d.locked_until IS NULL OR d.locked_until < now())
        AND ${tenantNotSuspended(Prisma.raw('d.tenant_id'))}
      ORDER BY d.next_attempt_at LIMIT 1)), 0)::float8 AS v`,
  ),
});

/** Gives the lag gauges their database (webhook-dispatcher's pool); counted only when scraped, never on a timer. */
@Injectable()
export class LagMetrics implements OnModuleInit {
  constructor(private readonly sql: SqlPool) {}

  onModuleInit(): void {
    read = async (sql) => Math.max(0, Number((await this.sql.query<{ v: number }>(sql))[0]?.v ?? 0));
  }
}
