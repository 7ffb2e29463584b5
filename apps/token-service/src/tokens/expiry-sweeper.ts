import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { tokenServiceConfig } from '../config';
import { tokenExpired } from './token-events';
import { TokenRepository } from './token.repository';

const BATCH = 1000;

/** Physically deletes expired tokens (spec: within 1 hour). Readers never see them anyway (the LIVE predicate). */
@Injectable()
export class ExpirySweeper implements OnModuleInit, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(private readonly tokens: TokenRepository) {}

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
