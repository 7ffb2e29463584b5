import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { PrismaService } from '@coffer/db';
import { metricsRegistry } from '@coffer/observability';

type Remaining = Array<{ kind: string; remaining: bigint }>;
let source: (() => Promise<Remaining>) | undefined;
/** kinds reported so far: a kind whose job finished drops back to 0 instead of keeping its last value */
const seen = new Set<string>();

export const reencryptionRowsRemaining = new Gauge({
  name: 'coffer_reencryption_rows_remaining',
  help: 'Sealed values a running re-encryption job (admin keys reencrypt) still has to move, per kind; 0 when none runs',
  labelNames: ['kind'] as const,
  registers: [metricsRegistry],
  async collect() {
    if (!source) return;
    try {
      const rows = await source();
      for (const kind of seen) this.set({ kind }, 0);
      for (const r of rows) {
        seen.add(r.kind);
        this.set({ kind: r.kind }, Number(r.remaining));
      }
    } catch {
      // the database is unreachable: keep the last values; readiness reports the outage
    }
  },
});

/**
 * Exports the progress that `admin keys reencrypt` persists (reencryption_progress, written in the transaction of
 * each batch) as coffer_reencryption_rows_remaining{kind}: the job runs in a CLI process with no /metrics of its
 * own, and the persisted numbers survive it being killed. Read-only; token-service is the one exporter.
 */
@Injectable()
export class ReencryptionGauge implements OnModuleInit {
  constructor(private readonly prisma: PrismaService) {}

  onModuleInit(): void {
    source = () =>
      this.prisma.$queryRaw<Remaining>`
        SELECT p.kind, sum(GREATEST(p.rows_total - p.rows_done, 0))::bigint AS remaining
        FROM reencryption_progress p JOIN key_jobs j ON j.id = p.job_id
        WHERE j.state = 'running' GROUP BY p.kind`;
  }
}
