import { Injectable } from '@nestjs/common';
import { PrismaService, RetentionPruner } from '@coffer/db';
import { createLogger } from '@coffer/observability';
import { reactorServiceConfig } from '../../config';

/**
 * Retention of reactor_jobs (docs/events.md#retention): jobs that finished (succeeded or failed) more than
 * JOB_RETENTION_DAYS (30) days ago are deleted in small batches, their results with them (GET /reactors/{id}/results/…
 * is then a 404). Pending and running jobs are never pruned. Safe with several replicas.
 */
@Injectable()
export class JobPruner extends RetentionPruner {
  protected readonly logger = createLogger('reactor-service');
  private readonly config = reactorServiceConfig();
  protected readonly policy = {
    intervalMs: this.config.retentionIntervalMs,
    retentionDays: this.config.jobRetentionDays,
    countField: 'jobs',
    prunedMessage: 'pruned finished reactor jobs past retention',
    failedMessage: 'job pruning failed; retried at the next interval',
  };

  constructor(private readonly prisma: PrismaService) {
    super();
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
