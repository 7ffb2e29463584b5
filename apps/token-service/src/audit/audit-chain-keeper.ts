import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { AuditLedger, PrismaService } from '@coffer/db';
import { tokenServiceConfig } from '../config';

const DAY_MS = 86_400_000;

/**
 * Keeps audit_events' hash chains (docs/audit.md): seals new rows into their tenant's chain every
 * AUDIT_SEAL_INTERVAL_MS, and prunes rows past their retention every AUDIT_PRUNE_INTERVAL_MS, in small batches that
 * leave an anchor behind. Writers never wait for either: they insert unsealed rows; one sealer at a time runs across
 * replicas (an advisory lock), so each chain's order is decided in one place.
 */
@Injectable()
export class AuditChainKeeper implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('AuditChainKeeper');
  private readonly ledger: AuditLedger;
  private sealTimer?: NodeJS.Timeout;
  private pruneTimer?: NodeJS.Timeout;
  private sealing = false;
  private pruning = false;

  constructor(prisma: PrismaService) {
    this.ledger = new AuditLedger(prisma);
  }

  onModuleInit(): void {
    const config = tokenServiceConfig();
    this.sealTimer = setInterval(() => void this.seal(), config.auditSealIntervalMs);
    this.sealTimer.unref();
    this.pruneTimer = setInterval(() => void this.prune(), config.auditPruneIntervalMs);
    this.pruneTimer.unref();
  }

  onApplicationShutdown(): void {
    if (this.sealTimer) clearInterval(this.sealTimer);
    if (this.pruneTimer) clearInterval(this.pruneTimer);
  }

  /** Seals until no unsealed row is left (a burst drains in one tick). */
  async seal(): Promise<number> {
    if (this.sealing) return 0;
    this.sealing = true;
    try {
      return await this.ledger.sealAll();
    } catch (err) {
      this.logger.warn(`audit sealing failed, retried next tick: ${err instanceof Error ? err.message : String(err)}`);
      return 0;
    } finally {
      this.sealing = false;
    }
  }

  async prune(now = Date.now()): Promise<number> {
    if (this.pruning) return 0;
    this.pruning = true;
    let total = 0;
    try {
      for (const { tenantId, days } of await this.ledger.retentions(tokenServiceConfig().auditRetentionDays))
        total += await this.ledger.prune(tenantId, new Date(now - days * DAY_MS));
      return total;
    } catch (err) {
      this.logger.warn(`audit pruning failed, retried next interval: ${err instanceof Error ? err.message : String(err)}`);
      return total;
    } finally {
      this.pruning = false;
    }
  }
}
