import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { AuditLedger, CHANNELS, PgListener, PrismaService, auditSignal, periodicWork } from '@coffer/db';
import { onRequestHandled } from '@coffer/bus';
import { tokenServiceConfig } from '../config';

const DAY_MS = 86_400_000;

/**
 * Keeps audit_events' hash chains (docs/audit.md): seals new rows into their tenant's chain, and prunes rows past
 * their retention every AUDIT_PRUNE_INTERVAL_MS, in small batches that leave an anchor behind. Writers never wait for
 * either: they insert unsealed rows; one sealer at a time runs across replicas (an advisory lock), so each chain's
 * order is decided in one place.
 *
 * The sealer is not a polling loop. A seal runs AUDIT_SEAL_INTERVAL_MS (one timer for a whole burst) after what writes
 * audit records: a request this service handled (token creates and reads write theirs in their own statements), the
 * notification another service or the operator CLI sends once its records committed (CHANNELS.auditEvents; this
 * service's own AuditLog calls the sealer directly). After a seal it runs again when the unsealed records left come
 * due (a refusal window, three minutes after it opened), and at the latest every AUDIT_SEAL_SWEEP_INTERVAL_MS (the
 * safety sweep, for a lost notification). Idle, it holds one timer and does nothing until the sweep.
 */
@Injectable()
export class AuditChainKeeper implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('AuditChainKeeper');
  private readonly ledger: AuditLedger;
  private sealTimer?: NodeJS.Timeout;
  /** when the scheduled seal runs (Date.now() scale) */
  private sealAt = Infinity;
  private pruneJob?: ReturnType<typeof periodicWork>;
  private stopListening?: () => void;
  private sealing = false;
  private pruning = false;
  private stopped = false;

  constructor(
    prisma: PrismaService,
    private readonly listener: PgListener,
  ) {
    this.ledger = new AuditLedger(prisma);
  }

  async onModuleInit(): Promise<void> {
    const config = tokenServiceConfig();
    const soon = () => this.sealIn(config.auditSealIntervalMs);
    this.stopListening = onRequestHandled(soon);
    auditSignal.handleLocally(soon);
    await this.listener.on(CHANNELS.auditEvents, soon);
    // records left unsealed by a previous run of the service
    this.sealIn(config.auditSealIntervalMs);
    this.pruneJob = periodicWork('audit-prune', config.auditPruneIntervalMs, () => this.prune());
    this.pruneJob.start();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    this.stopListening?.();
    auditSignal.handleLocally(undefined);
    if (this.sealTimer) clearTimeout(this.sealTimer);
    this.pruneJob?.stop();
  }

  /** Schedules a seal within `ms` (an earlier one already scheduled stays). */
  private sealIn(ms: number): void {
    const at = Date.now() + ms;
    if (this.stopped || (this.sealTimer && this.sealAt <= at)) return;
    if (this.sealTimer) clearTimeout(this.sealTimer);
    this.sealAt = at;
    this.sealTimer = setTimeout(() => void this.scheduledSeal(), ms);
    this.sealTimer.unref();
  }

  private async scheduledSeal(): Promise<void> {
    this.sealTimer = undefined;
    this.sealAt = Infinity;
    const { auditSealIntervalMs, auditSealSweepIntervalMs } = tokenServiceConfig();
    await this.seal();
    let next = auditSealSweepIntervalMs;
    try {
      const due = await this.ledger.nextSealDueInMs();
      if (due !== null) next = Math.min(next, Math.max(auditSealIntervalMs, Math.ceil(due) + 5));
    } catch {
      next = Math.min(next, auditSealIntervalMs * 5);
    }
    this.sealIn(next);
  }

  /** Seals until no unsealed row is left (a burst drains in one run). */
  async seal(): Promise<number> {
    if (this.sealing) return 0;
    this.sealing = true;
    try {
      return await this.ledger.sealAll();
    } catch (err) {
      this.logger.warn(`audit sealing failed, retried: ${err instanceof Error ? err.message : String(err)}`);
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
