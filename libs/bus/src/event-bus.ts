import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { JSONCodec, connect, type NatsConnection, type Subscription } from 'nats';
import { serviceName } from '@coffer/observability';
import { natsConnectionOptions } from './nats-config';
import { logConnectionStatus } from './connection-status';
// the Prisma-free entry point: the gateway loads the event bus but holds no database
import { deferUntilCommitted } from '@coffer/db/after-commit';

const codec = JSONCodec();

/**
 * Fire-and-forget events (`events.>`), e.g. auth invalidation, on a plain NATS connection. Every subscriber
 * instance receives every event (no queue group): each gateway replica must drop its own cache.
 */
@Injectable()
export class EventBus implements OnModuleDestroy {
  private connection?: Promise<NatsConnection>;
  private readonly subscriptions: Subscription[] = [];

  private nc(): Promise<NatsConnection> {
    this.connection ??= connect(natsConnectionOptions(`${serviceName()}-events`)).then((nc) => {
      logConnectionStatus(nc, `${serviceName()}-events`);
      return nc;
    });
    return this.connection;
  }

  /** Inside a database transaction (PrismaService.transactional) the event leaves only once it committed. */
  async publish(subject: string, payload: unknown): Promise<void> {
    if (deferUntilCommitted(() => this.publishNow(subject, payload))) return;
    await this.publishNow(subject, payload);
  }

  private async publishNow(subject: string, payload: unknown): Promise<void> {
    const nc = await this.nc();
    nc.publish(subject, codec.encode(payload));
  }

  async subscribe<T>(subject: string, handler: (payload: T) => void): Promise<void> {
    const nc = await this.nc();
    this.subscriptions.push(
      nc.subscribe(subject, {
        callback: (err, msg) => {
          if (err) return;
          try {
            handler(codec.decode(msg.data) as T);
          } catch {
            /* a malformed event is dropped; handlers must not throw */
          }
        },
      }),
    );
    await nc.flush();
  }

  /** readiness: the bus answers a round trip */
  async ping(): Promise<boolean> {
    try {
      const nc = await this.nc();
      if (nc.isClosed()) return false;
      await nc.flush();
      return true;
    } catch {
      return false;
    }
  }

  async onModuleDestroy(): Promise<void> {
    if (!this.connection) return;
    const nc = await this.connection;
    await nc.drain().catch(() => undefined);
  }
}
