import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { CHANNELS, PgListener, Prisma, SqlPool } from '@coffer/db';
import { WorkLoop } from '@coffer/db';
import { createLogger } from '@coffer/observability';
import { webhookDispatcherConfig } from '../config';
import { DeliveryRepository, type ClaimedDelivery, type EventDelivery, type OutboxHold, type RelayedEvent } from '../deliveries/delivery.repository';
import { DispatcherService } from '../deliveries/dispatcher.service';
import { EventStream } from './event-stream';
import { RelayLeadership } from './relay-leadership';

const BATCH = 500;

/**
 * Relays the transactional outbox (docs/events.md): takes the oldest events, publishes them to the JetStream stream
 * and finds each one's deliveries (one per enabled webhook subscribed to its type). An event nobody subscribed to is
 * deleted at once. The deliveries of the others are handed off to this process's dispatcher, which attempts them as
 * soon as the batch is settled and writes each delivery's row only when its first attempt ended, already
 * settled; the event's outbox row stays until all of them are recorded, and is deleted in the statement that
 * records the last (so a crash at any point relays it again: at least once, with the same delivery ids). When the
 * dispatcher has no room, the deliveries are queued as rows for the claims and the event deleted, in one
 * statement. One replica relays at a time ({@link RelayLeadership}), so events leave in the order they were written.
 *
 * It reads the outbox when woken: by the notification a writer sends once its events committed (CHANNELS.eventOutbox,
 * libs/db outbox-signal.ts), when this process becomes the relay, when its listening connection is (re)established,
 * and at the latest every EVENT_RELAY_INTERVAL_MS (the safety sweep, a minute by default). Idle, it does nothing.
 */
@Injectable()
export class OutboxRelay implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = createLogger('webhook-dispatcher');
  private readonly loop = new WorkLoop(
    () => this.relayOnce(),
    webhookDispatcherConfig().eventRelayIntervalMs,
    (err) => this.logger.error({ err: { message: (err as Error).message } }, 'event relay error'),
  );
  /** outbox rows (by seq) whose handed-off deliveries are not all recorded yet: not read again meanwhile */
  private readonly held = new Map<string, OutboxHold>();
  private draining?: Promise<void>;

  constructor(
    private readonly sql: SqlPool,
    private readonly stream: EventStream,
    private readonly dispatcher: DispatcherService,
    private readonly deliveries: DeliveryRepository,
    private readonly leadership: RelayLeadership,
    private readonly listener: PgListener,
  ) {}

  async onModuleInit(): Promise<void> {
    this.leadership.start(() => this.loop.wake());
    await this.listener.on(CHANNELS.eventOutbox, () => this.loop.wake());
    this.loop.start();
  }

  /** Reads the outbox now (tests; a notification does the same). */
  wake(): void {
    this.loop.wake();
  }

  /**
   * Stops relaying, lets the dispatcher finish (or record for the claims) what it was given, and only then gives the
   * lock up: the held events are its deliveries under way, and a successor reading them earlier would send them
   * twice. Run on SIGTERM while the database pools are open (main.ts); again, as a no-op, at shutdown.
   */
  drain(): Promise<void> {
    this.draining ??= (async () => {
      await this.loop.stop();
      await this.dispatcher.drain();
      await this.leadership.release();
    })();
    return this.draining;
  }

  onApplicationShutdown(): Promise<void> {
    return this.drain();
  }

  /**
   * One batch; true when more may be waiting. No transaction: the batch is read, published, and then settled in one
   * statement (the deliveries queued for the claims and the events done deleted together), so a crash anywhere before
   * that statement leaves every row to be relayed again, and one after it leaves nothing half done. The relay lock
   * keeps other replicas out meanwhile.
   */
  async relayOnce(): Promise<boolean> {
    if (!this.leadership.held) return false;
    const held = [...this.held.keys()];
    const rows = await this.sql.query<RelayedEvent>(Prisma.sql`
      SELECT seq, id, tenant_id, type, event::text AS event, traceparent FROM event_outbox WHERE seq <> ALL (${held}::bigint[]) ORDER BY seq LIMIT ${BATCH}`);
    if (!rows.length) return false;
    await this.stream.publish(rows);
    const found = await this.deliveries.deliveriesOf(rows);
    const handOff: ClaimedDelivery[] = [];
    const done = found.filter((f) => !f.deliveries.length).map((f) => f.event);
    const waiting: EventDelivery[] = [];
    const budget = this.dispatcher.handOffBudget();
    const now = new Date();
    for (const { event, deliveries, suspended } of found) {
      if (!deliveries.length) continue;
      // a suspended tenant's deliveries, and those beyond its share of the room, wait as rows for the claims
      if (suspended || !budget.take(event.tenant_id, deliveries.length)) {
        waiting.push(...deliveries);
        done.push(event);
        continue;
      }
      const hold = this.hold(String(event.seq), deliveries.length);
      for (const d of deliveries) {
        handOff.push({
          id: d.id,
          tenant_id: d.tenant_id,
          url: d.url,
          body: d.body,
          attempts: 1,
          created_at: now,
          webhook_id: d.webhook_id,
          handedOff: { hold, event_id: d.event_id, event_type: d.event_type },
          traceparent: event.traceparent ?? undefined,
        });
      }
    }
    await this.deliveries.queueAndRemove(
      waiting,
      done.map((e) => String(e.seq)),
    );
    // settled: the handed-off deliveries are attempted now, their events kept out of the next reads until recorded
    for (const d of handOff) {
      const hold = d.handedOff?.hold as OutboxHold;
      this.held.set(hold.seq, hold);
    }
    this.dispatcher.handOff(handOff);
    if (waiting.length) this.dispatcher.wake();
    return rows.length === BATCH;
  }

  private hold(seq: string, deliveries: number): OutboxHold {
    const hold: OutboxHold = {
      seq,
      remaining: deliveries,
      release: () => {
        if (this.held.get(seq) === hold) this.held.delete(seq);
      },
    };
    return hold;
  }
}
