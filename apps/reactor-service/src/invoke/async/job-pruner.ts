import { Injectable } from '@nestjs/common';
import { PrismaService, RetentionPruner } from '@coffer/db';
import { reactorServiceConfig } from '../../config';

/**
 * Retention of reactor_jobs (docs/events.md#retention): jobs that finished (succeeded or failed) more than
 * JOB_RETENTION_DAYS (30) days ago are deleted in small batches, their results with them (GET /reactors/{id}/results/…
 * is then a 404). Pending and running jobs are never pruned. Safe with several replicas.
 */
@Injectable()
export class JobPruner extends RetentionPruner {
  constructor(private readonly prisma: PrismaService) {
    const { retentionIntervalMs, jobRetentionDays } = reactorServiceConfig();
    super({ service: 'reactor-service', rows: 'finished reactor jobs', intervalMs: retentionIntervalMs, retentionDays: jobRetentionDays });
  }

  protected deleteBatch(retentionDays: number, limit: number): Promise<number> {
    return this.prisma.$executeRaw`
      DELETE FROM reactor_jobs WHERE id IN (
        SELECT id FROM reactor_jobs
        WHERE status IN ('succeeded', 'failed') AND created_at < now() - make_interval(days => ${retentionDays})
        ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
      )`;
  }
}
