import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { PrismaService } from '@coffer/db';
import { createLogger } from '@coffer/observability';
import { webhookDispatcherConfig } from '../config';

/** Rows per statement: each DELETE holds its locks for a few milliseconds, so the API never waits on pruning. */
const BATCH = 1000;
/** A pause between batches, so a large backlog drains without taking the database from the requests. */
const PAUSE_MS = 50;

/**
 * Retention of webhook_deliveries and webhook_attempts (docs/events.md): finished deliveries (delivered or failed)
 * older than DELIVERY_RETENTION_DAYS (default 30) go with their attempts, in small batches. Pending deliveries are
 * never pruned. Safe with several replicas (each batch takes rows no one else holds).
 */
@Injectable()
export class DeliveryPruner implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = createLogger('webhook-dispatcher');
  private readonly config = webhookDispatcherConfig();
  private timer?: NodeJS.Timeout;
  private running = false;
  private stopped = false;

  constructor(private readonly prisma: PrismaService) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.prune(), this.config.retentionIntervalMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
  }

  /** Prunes everything past retention; returns the number of deliveries removed. */
  async prune(retentionDays = this.config.deliveryRetentionDays): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    let total = 0;
    try {
      for (;;) {
        if (this.stopped) return total;
        const n = await this.prisma.transactional(async () => {
          const gone = await this.prisma.$queryRaw<Array<{ id: string }>>`
            DELETE FROM webhook_deliveries WHERE id IN (
              SELECT id FROM webhook_deliveries
              WHERE created_at < now() - make_interval(days => ${retentionDays}) AND status IN ('delivered', 'failed')
              ORDER BY created_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED
            ) RETURNING id`;
          if (gone.length) await this.prisma.$executeRaw`DELETE FROM webhook_attempts WHERE delivery_id = ANY (${gone.map((g) => g.id)}::uuid[])`;
          return gone.length;
        });
        total += n;
        if (n < BATCH) break;
        await new Promise((r) => setTimeout(r, PAUSE_MS));
      }
      // attempts whose delivery is gone by other means (none expected), past retention too
      await this.prisma.$executeRaw`
        DELETE FROM webhook_attempts WHERE id IN (
          SELECT a.id FROM webhook_attempts a WHERE a.created_at < now() - make_interval(days => ${retentionDays})
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id = a.delivery_id) LIMIT ${BATCH})`;
      if (total) this.logger.info({ deliveries: total, retentionDays }, 'pruned finished webhook deliveries past retention');
      return total;
    } catch (err) {
      this.logger.error({ err: { message: (err as Error).message } }, 'delivery pruning failed; retried at the next interval');
      return total;
    } finally {
      this.running = false;
    }
  }
}
