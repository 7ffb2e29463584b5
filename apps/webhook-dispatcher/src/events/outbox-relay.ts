import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { PrismaService } from '@coffer/db';
import { WorkLoop } from '@coffer/messaging';
import { createLogger } from '@coffer/observability';
import { webhookDispatcherConfig } from '../config';
import { DispatcherService } from '../deliveries/dispatcher.service';
import { EventStream, type StreamedEvent } from './event-stream';

const BATCH = 500;

/**
 * Relays the transactional outbox (docs/events.md): takes the oldest events, publishes them to the JetStream stream,
 * queues one delivery per enabled webhook subscribed to each, and deletes them — the queueing and the delete in one
 * transaction, so a crash at any point re-relays (at least once; the stream drops re-published ids). One relay runs
 * at a time across replicas (a transaction-scoped advisory lock), so events leave in the order they were written.
 */
@Injectable()
export class OutboxRelay implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = createLogger('webhook-dispatcher');
  private readonly loop = new WorkLoop(
    () => this.relayOnce(),
    webhookDispatcherConfig().eventRelayIntervalMs,
    (err) => this.logger.error({ err: { message: (err as Error).message } }, 'event relay error'),
  );

  constructor(
    private readonly prisma: PrismaService,
    private readonly stream: EventStream,
    private readonly dispatcher: DispatcherService,
  ) {}

  onModuleInit(): void {
    this.loop.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  /** One batch; true when more may be waiting. */
  async relayOnce(): Promise<boolean> {
    // the idle case (every EVENT_RELAY_INTERVAL_MS) costs one index probe, not a transaction
    const [{ waiting }] = await this.prisma.$queryRaw<Array<{ waiting: boolean }>>`SELECT EXISTS (SELECT 1 FROM event_outbox) AS waiting`;
    if (!waiting) return false;
    const relayed = await this.prisma.transactional(async () => {
      const [{ locked }] = await this.prisma.$queryRaw<Array<{ locked: boolean }>>`SELECT pg_try_advisory_xact_lock(hashtext('coffer.event_outbox')) AS locked`;
      if (!locked) return 0;
      const rows = await this.prisma.$queryRaw<Array<StreamedEvent & { seq: bigint | string }>>`
        SELECT seq, id, tenant_id, type, event::text AS event FROM event_outbox ORDER BY seq LIMIT ${BATCH}`;
      if (!rows.length) return 0;
      await this.stream.publish(rows);
      const seqs = rows.map((r) => String(r.seq));
      await this.prisma.$executeRaw`
        INSERT INTO webhook_deliveries (id, tenant_id, url, body, webhook_id, event_id, event_type, created_at)
        SELECT gen_random_uuid(), w.tenant_id, w.url, o.event::text, w.id, o.id, o.type, now()
        FROM event_outbox o JOIN webhooks w ON w.tenant_id = o.tenant_id AND w.status = 'enabled' AND o.type = ANY (w.events)
        WHERE o.seq = ANY (${seqs}::bigint[])
        ORDER BY o.seq`;
      await this.prisma.$executeRaw`DELETE FROM event_outbox WHERE seq = ANY (${seqs}::bigint[])`;
      return rows.length;
    });
    if (relayed) this.dispatcher.wake();
    return relayed === BATCH;
  }
}
