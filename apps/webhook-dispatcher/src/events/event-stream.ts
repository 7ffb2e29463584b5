import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import {
  DiscardPolicy,
  RetentionPolicy,
  StorageType,
  connect,
  createInbox,
  headers,
  nanos,
  type Msg,
  type NatsConnection,
  type StreamConfig,
  type Subscription,
} from 'nats';
import { EVENTS_STREAM, eventSubject } from '@coffer/contracts';
import { natsConnectionOptions } from '@coffer/bus';
import { webhookDispatcherConfig } from '../config';

/** How long JetStream remembers a message id: a relay that crashed after publishing re-publishes within it. */
const DUPLICATE_WINDOW_MS = 10 * 60_000;
/** How long the stream has to acknowledge a batch before the relay gives up on it and tries it again. */
const ACK_TIMEOUT_MS = 5_000;
/** Where this connection's replies come back (its grants allow no other inbox: docs/nats.md). */
const INBOX_PREFIX = '_INBOX.webhook-dispatcher';

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
  private connection?: Promise<NatsConnection>;

  get enabled(): boolean {
    return this.config.eventsStream;
  }

  /** Publishes the events and waits for the stream to store every one (throws otherwise: the relay retries). */
  async publish(events: readonly StreamedEvent[]): Promise<void> {
    if (!this.enabled || !events.length) return;
    await publishAcknowledged(await this.open(), events);
  }

  private open(): Promise<NatsConnection> {
    this.connection ??= (async () => {
      const nc = await connect({ ...natsConnectionOptions('webhook-dispatcher-stream'), inboxPrefix: INBOX_PREFIX });
      try {
        await this.ensureStream(nc);
      } catch (err) {
        await nc.close();
        throw err;
      }
      return nc;
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
    await open?.drain().catch(() => undefined);
  }
}

/**
 * A batch published at once, each event with its id as Nats-Msg-Id and a reply subject of its own under one inbox of
 * the batch; resolves once the stream has acknowledged every one, throws at the first refusal (a JetStream error, no
 * stream for the subject) or after `timeoutMs`. What the relay retries after a failure the stream drops as
 * duplicates. One subscription and one timer per batch: JetStreamClient.publish makes each message a request of its
 * own (a timer, a pending entry, an error object built even on success), about 3.5 × the relay's CPU per event
 * (29 against 8 µs a message on the development machine).
 */
export function publishAcknowledged(nc: NatsConnection, events: readonly StreamedEvent[], timeoutMs = ACK_TIMEOUT_MS): Promise<void> {
  const inbox = createInbox(INBOX_PREFIX);
  return new Promise<void>((resolve, reject) => {
    const acknowledged = new Set<number>();
    let settled = false;
    let subscription: Subscription | undefined;
    const settle = (err?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      subscription?.unsubscribe();
      if (err) reject(err);
      else resolve();
    };
    const timer = setTimeout(
      () => settle(new Error(`the events stream acknowledged ${acknowledged.size} of ${events.length} events within ${timeoutMs} ms`)),
      timeoutMs,
    );
    try {
      subscription = nc.subscribe(`${inbox}.*`, {
        callback: (err, msg) => {
          if (err) return settle(err);
          const refused = refusal(msg);
          if (refused) return settle(new Error(refused));
          // only the reply subjects of this batch count, each once (a repeated acknowledgement is not another event's)
          const index = Number(msg.subject.slice(inbox.length + 1));
          if (Number.isInteger(index) && index >= 0 && index < events.length) acknowledged.add(index);
          if (acknowledged.size === events.length) settle();
        },
      });
      events.forEach((e, i) => {
        const h = headers();
        h.set('Nats-Msg-Id', e.id);
        nc.publish(eventSubject(e.tenant_id, e.type), e.event, { reply: `${inbox}.${i}`, headers: h });
      });
    } catch (err) {
      settle(err as Error);
    }
  });
}

/** Why an answer to a publish is not the stream's acknowledgement, or undefined when it is. */
function refusal(msg: Msg): string | undefined {
  // a status instead of an answer: 503 when nothing takes the subject (no stream, or none with a leader now)
  if (msg.headers?.hasError) return `the events stream did not answer: ${msg.headers.code} ${msg.headers.description}`.trim();
  let ack: { stream?: string; error?: { code?: number; description?: string } };
  try {
    ack = msg.json();
  } catch {
    return 'the events stream answered a publish with something that is not an acknowledgement';
  }
  if (ack.error) return `the events stream refused an event: ${ack.error.description ?? ack.error.code}`;
  return ack.stream ? undefined : 'the events stream answered a publish with something that is not an acknowledgement';
}
