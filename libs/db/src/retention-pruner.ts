import type { OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { createLogger } from '@coffer/observability';
import type { SimpleIntervalJob } from 'toad-scheduler';
import { periodicWork } from './periodic-work';

/** Rows per statement: each DELETE holds its locks for a few milliseconds, so the API never waits on pruning. */
export const RETENTION_BATCH = 1000;
/** A pause between batches, so a large backlog drains without taking the database from the requests. */
const PAUSE_MS = 50;

/** Whose rows a retention pruner deletes, which, after how long and how often. */
export interface RetentionPolicy {
  /** the service that logs the pruning */
  service: string;
  /** what the rows are, as the log lines name them: `pruned <rows> past retention` */
  rows: string;
  intervalMs: number;
  /** the default of `prune(retentionDays)` */
  retentionDays: number;
}

/**
 * Deletes rows past retention every `intervalMs`, in batches of RETENTION_BATCH with a pause between them, one run at a
 * time per process and none after shutdown. Safe with several replicas as long as each batch takes its rows with
 * `FOR UPDATE SKIP LOCKED`. A service's pruner says what a batch deletes (deleteBatch) and, optionally, what follows
 * the batches (afterBatches); it is a Nest provider of that service (@Injectable, with its own constructor handing
 * its policy to this one).
 */
export abstract class RetentionPruner implements OnModuleInit, OnApplicationShutdown {
  protected readonly logger: ReturnType<typeof createLogger>;
  private job?: SimpleIntervalJob;
  private running = false;
  private stopped = false;

  constructor(private readonly policy: RetentionPolicy) {
    this.logger = createLogger(policy.service);
  }

  /** Deletes at most `limit` rows past `retentionDays`; returns how many it deleted. */
  protected abstract deleteBatch(retentionDays: number, limit: number): Promise<number>;

  /** Runs once the batches are done (not after shutdown). */
  protected async afterBatches(_retentionDays: number): Promise<void> {
    // nothing by default
  }

  onModuleInit(): void {
    this.job = periodicWork(`prune ${this.policy.rows}`, this.policy.intervalMs, () => this.prune());
    this.job.start();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    this.job?.stop();
  }

  /** Prunes everything past retention; returns the number of rows deleteBatch removed. */
  async prune(retentionDays = this.policy.retentionDays): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    let total = 0;
    try {
      for (;;) {
        if (this.stopped) return total;
        const n = await this.deleteBatch(retentionDays, RETENTION_BATCH);
        total += n;
        if (n < RETENTION_BATCH) break;
        await new Promise((r) => setTimeout(r, PAUSE_MS));
      }
      await this.afterBatches(retentionDays);
      if (total) this.logger.info({ rows: total, retentionDays }, `pruned ${this.policy.rows} past retention`);
      return total;
    } catch (err) {
      this.logger.error({ err: { message: (err as Error).message } }, `pruning ${this.policy.rows} failed; retried at the next interval`);
      return total;
    } finally {
      this.running = false;
    }
  }
}
