import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { PrismaService } from '@coffer/db';
import { WorkLoop } from '@coffer/messaging';
import { createLogger } from '@coffer/observability';
import { webhookDispatcherConfig } from '../config';
import { DeliveryRepository, type ClaimedDelivery } from '../deliveries/delivery.repository';
import { DispatcherService } from '../deliveries/dispatcher.service';
import { EventStream, type StreamedEvent } from './event-stream';

const BATCH = 500;

/**
 * Relays the transactional outbox (docs/events.md): takes the oldest events, publishes them to the JetStream stream,
 * queues one delivery per enabled webhook subscribed to each, and deletes them — the queueing and the delete in one
 * transaction, so a crash at any point re-relays (at least once; the stream drops re-published ids). The deliveries
 * are queued leased to this process's dispatcher, which attempts them as soon as the transaction committed (no claim);
 * a process that dies first loses the lease and the claims attempt them (at least once). One relay runs
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
    private readonly deliveries: DeliveryRepository,
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
      if (!locked) return { count: 0, leased: false, handOff: [] as ClaimedDelivery[] };
      const rows = await this.prisma.$queryRaw<Array<StreamedEvent & { seq: bigint | string }>>`
        SELECT seq, id, tenant_id, type, event::text AS event FROM event_outbox ORDER BY seq LIMIT ${BATCH}`;
      if (!rows.length) return { count: 0, leased: false, handOff: [] as ClaimedDelivery[] };
      await this.stream.publish(rows);
      // the deliveries are leased to this process's dispatcher as they are queued, unless it is behind already
      const leased = this.dispatcher.acceptsHandOffs();
      const handOff = await this.deliveries.queueEvents(rows, leased);
      const seqs = rows.map((r) => String(r.seq));
      await this.prisma.$executeRaw`DELETE FROM event_outbox WHERE seq = ANY (${seqs}::bigint[])`;
      return { count: rows.length, leased, handOff };
    });
    // committed: leased deliveries are attempted now; unleased ones wait for the delivery loop, woken
    if (relayed.leased) this.dispatcher.handOff(relayed.handOff);
    else if (relayed.count) this.dispatcher.wake();
    return relayed.count === BATCH;
  }
}
