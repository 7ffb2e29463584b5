import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { DiscardPolicy, RetentionPolicy, StorageType, connect, nanos, type JetStreamClient, type NatsConnection, type StreamConfig } from 'nats';
import { EVENTS_STREAM, eventSubject } from '@coffer/contracts';
import { natsConnectionOptions } from '@coffer/bus';
import { webhookDispatcherConfig } from '../config';

/** How long JetStream remembers a message id: a relay that crashed after publishing re-publishes within it. */
const DUPLICATE_WINDOW_MS = 10 * 60_000;

export interface StreamedEvent {
  id: string;
  tenant_id: string;
  type: string;
  /** the `event` object as JSON */
  event: string;
}

/**
 * The JetStream stream COFFER_EVENTS (subjects `coffer.events.<tenant>.<type>`) that SIEMs and data pipelines
 * consume durably (docs/events.md). Each message carries the event id as Nats-Msg-Id, so a re-publish after a relay
 * crash is dropped by the stream. The connection's replies come back under _INBOX.webhook-dispatcher (docs/nats.md).
 */
@Injectable()
export class EventStream implements OnApplicationShutdown {
  private readonly config = webhookDispatcherConfig();
  private connection?: Promise<{ nc: NatsConnection; js: JetStreamClient }>;

  get enabled(): boolean {
    return this.config.eventsStream;
  }

  /** Publishes the events and waits for the stream to store every one (throws otherwise: the relay retries). */
  async publish(events: readonly StreamedEvent[]): Promise<void> {
    if (!this.enabled || !events.length) return;
    const { js } = await this.open();
    await Promise.all(events.map((e) => js.publish(eventSubject(e.tenant_id, e.type), e.event, { msgID: e.id, timeout: 5000 })));
  }

  private open(): Promise<{ nc: NatsConnection; js: JetStreamClient }> {
    this.connection ??= (async () => {
      const nc = await connect({ ...natsConnectionOptions('webhook-dispatcher-stream'), inboxPrefix: '_INBOX.webhook-dispatcher' });
      try {
        await this.ensureStream(nc);
      } catch (err) {
        await nc.close();
        throw err;
      }
      return { nc, js: nc.jetstream() };
    })();
    this.connection.catch(() => (this.connection = undefined));
    return this.connection;
  }

  /** Creates the stream, or brings an existing one to the configured retention (the only API calls this service makes). */
  private async ensureStream(nc: NatsConnection): Promise<void> {
    const jsm = await nc.jetstreamManager({ checkAPI: false });
    const config: Partial<StreamConfig> = {
      name: EVENTS_STREAM,
      subjects: ['coffer.events.>'],
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      discard: DiscardPolicy.Old,
      max_age: nanos(this.config.eventsStreamMaxAgeHours * 3_600_000),
      duplicate_window: nanos(DUPLICATE_WINDOW_MS),
      num_replicas: this.config.eventsStreamReplicas,
    };
    try {
      await jsm.streams.info(EVENTS_STREAM);
      await jsm.streams.update(EVENTS_STREAM, config);
    } catch (err) {
      if (!/stream not found/i.test((err as Error).message)) throw err;
      await jsm.streams.add(config);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    const open = await this.connection?.catch(() => undefined);
    await open?.nc.drain().catch(() => undefined);
  }
}
