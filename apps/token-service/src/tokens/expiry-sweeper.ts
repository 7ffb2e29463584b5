import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Prisma, SqlPool, periodicWork } from '@coffer/db';
import { tokenServiceConfig } from '../config';
import { tokenExpired } from './token-events';
import { TokenRepository } from './token.repository';
import { TokenIntentRepository } from '../token-intents/token-intent.repository';

const BATCH = 1000;

/**
 * Physically deletes expired tokens and token intents every TOKEN_SWEEP_INTERVAL_MS (spec: within 1 hour). Readers
 * never see them anyway (the LIVE predicates). A sweep with nothing expired costs one index probe per table, no
 * transaction.
 */
@Injectable()
export class ExpirySweeper implements OnModuleInit, OnApplicationShutdown {
  private readonly job = periodicWork('token-expiry-sweep', tokenServiceConfig().tokenSweepIntervalMs, () => this.sweep());
  private running = false;

  constructor(
    private readonly tokens: TokenRepository,
    private readonly sql: SqlPool,
    private readonly intents: TokenIntentRepository,
  ) {}

  onModuleInit(): void {
    this.job.start();
  }

  onApplicationShutdown(): void {
    this.job.stop();
  }

  async sweep(): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    let total = 0;
    try {
      total += await this.sweepIntents();
      const expired = await this.sql.query<{ one: number }>(Prisma.sql`SELECT 1 AS one FROM tokens WHERE expires_at <= now() LIMIT 1`, 'tokens_any_expired');
      if (!expired.length) return total;
      for (;;) {
        // each swept token's token.expired event commits with its deletion
        const n = await this.tokens.deleteExpired(BATCH, (gone) => gone.map((g) => tokenExpired(g.tenant_id, g.id)));
        total += n;
        if (n < BATCH) return total;
      }
    } catch {
      return total;
    } finally {
      this.running = false;
    }
  }

  /** Expired token intents (docs/token-intents.md): no event, as the mirrored service has none for intents. */
  private async sweepIntents(): Promise<number> {
    if (!(await this.intents.anyExpired())) return 0;
    let total = 0;
    for (;;) {
      const n = await this.intents.deleteExpired(BATCH);
      total += n;
      if (n < BATCH) return total;
    }
  }
}
