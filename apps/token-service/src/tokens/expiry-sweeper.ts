import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Prisma, SqlPool } from '@coffer/db';
import { tokenServiceConfig } from '../config';
import { tokenExpired } from './token-events';
import { TokenRepository } from './token.repository';

const BATCH = 1000;

/**
 * Physically deletes expired tokens every TOKEN_SWEEP_INTERVAL_MS (spec: within 1 hour). Readers never see them
 * anyway (the LIVE predicate). A sweep with nothing expired costs one index probe, no transaction.
 */
@Injectable()
export class ExpirySweeper implements OnModuleInit, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(
    private readonly tokens: TokenRepository,
    private readonly sql: SqlPool,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.sweep(), tokenServiceConfig().tokenSweepIntervalMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async sweep(): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    let total = 0;
    try {
      const expired = await this.sql.query<{ one: number }>(Prisma.sql`SELECT 1 AS one FROM tokens WHERE expires_at <= now() LIMIT 1`, 'tokens_any_expired');
      if (!expired.length) return 0;
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
}
