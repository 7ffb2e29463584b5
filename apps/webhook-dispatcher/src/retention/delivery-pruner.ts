import { Injectable } from '@nestjs/common';
import { PrismaService, RETENTION_BATCH, RetentionPruner } from '@coffer/db';
import { webhookDispatcherConfig } from '../config';

/**
 * Retention of webhook_deliveries and webhook_attempts (docs/events.md): finished deliveries (delivered or failed)
 * older than DELIVERY_RETENTION_DAYS (default 30) go with their attempts, in small batches. Pending deliveries are
 * never pruned. Safe with several replicas (each batch takes rows no one else holds). `prune` returns the number of
 * deliveries removed.
 */
@Injectable()
export class DeliveryPruner extends RetentionPruner {
  constructor(private readonly prisma: PrismaService) {
    const { retentionIntervalMs, deliveryRetentionDays } = webhookDispatcherConfig();
    super({ service: 'webhook-dispatcher', rows: 'finished webhook deliveries', intervalMs: retentionIntervalMs, retentionDays: deliveryRetentionDays });
  }

  protected deleteBatch(retentionDays: number, limit: number): Promise<number> {
    return this.prisma.transactional(async () => {
      const gone = await this.prisma.$queryRaw<Array<{ id: string }>>`
        DELETE FROM webhook_deliveries WHERE id IN (
          SELECT id FROM webhook_deliveries
          WHERE created_at < now() - make_interval(days => ${retentionDays}) AND status IN ('delivered', 'failed')
          ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
        ) RETURNING id`;
      if (gone.length) await this.prisma.$executeRaw`DELETE FROM webhook_attempts WHERE delivery_id = ANY (${gone.map((g) => g.id)}::uuid[])`;
      return gone.length;
    });
  }

  /** attempts whose delivery is gone by other means (none expected), past retention too */
  protected override async afterBatches(retentionDays: number): Promise<void> {
    await this.prisma.$executeRaw`
      DELETE FROM webhook_attempts WHERE id IN (
        SELECT a.id FROM webhook_attempts a WHERE a.created_at < now() - make_interval(days => ${retentionDays})
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id = a.delivery_id) LIMIT ${RETENTION_BATCH})`;
  }
}
