import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { PrismaService } from '@coffer/db';
import { createLogger } from '@coffer/observability';
import { reactorServiceConfig } from '../../config';

/** Rows per statement, and a pause between batches: pruning never holds locks the API would wait on. */
const BATCH = 1000;
const PAUSE_MS = 50;

/**
 * Retention of reactor_jobs (docs/events.md#retention): jobs that finished (succeeded or failed) more than
 * JOB_RETENTION_DAYS (30) days ago are deleted in small batches, their results with them (GET /reactors/{id}/results/…
 * is then a 404). Pending and running jobs are never pruned. Safe with several replicas.
 */
@Injectable()
export class JobPruner implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = createLogger('reactor-service');
  private readonly config = reactorServiceConfig();
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

  async prune(retentionDays = this.config.jobRetentionDays): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    let total = 0;
    try {
      while (!this.stopped) {
        const n = await this.prisma.$executeRaw`
          DELETE FROM reactor_jobs WHERE id IN (
            SELECT id FROM reactor_jobs
            WHERE status IN ('succeeded', 'failed') AND created_at < now() - make_interval(days => ${retentionDays})
            ORDER BY created_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED
          )`;
        total += n;
        if (n < BATCH) break;
        await new Promise((r) => setTimeout(r, PAUSE_MS));
      }
      if (total) this.logger.info({ jobs: total, retentionDays }, 'pruned finished reactor jobs past retention');
      return total;
    } catch (err) {
      this.logger.error({ err: { message: (err as Error).message } }, 'job pruning failed; retried at the next interval');
      return total;
    } finally {
      this.running = false;
    }
  }
}
