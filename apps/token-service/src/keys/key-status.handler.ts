import { Controller, Injectable } from '@nestjs/common';
import { OPS, type ReencryptionProgressView, type TenantKeysView } from '@coffer/contracts';
import { PrismaService } from '@coffer/db';
import { TenantKeyring } from '@coffer/crypto/keyring';
import { Operation, caller } from '@coffer/operations';

interface ProgressRow {
  job_id: string;
  started_at: Date;
  kind: string | null;
  rows_total: bigint | null;
  rows_done: bigint | null;
}

/**
 * The progress `admin keys reencrypt` persists (key_jobs, reencryption_progress; the same rows the gauge exports),
 * narrowed to one tenant: a running job of that tenant or of every tenant, with the tenant's own counts per kind.
 */
@Injectable()
export class ReencryptionProgressReader {
  constructor(private readonly prisma: PrismaService) {}

  async forTenant(tenantId: string): Promise<ReencryptionProgressView | undefined> {
    const rows = await this.prisma.$queryRaw<ProgressRow[]>`
      SELECT j.id::text AS job_id, j.created_at AS started_at, p.kind, p.rows_total, p.rows_done
      FROM key_jobs j LEFT JOIN reencryption_progress p ON p.job_id = j.id AND p.tenant_id = ${tenantId}::uuid
      WHERE j.kind = 'reencrypt' AND j.state = 'running' AND (j.tenant_id = ${tenantId}::uuid OR j.tenant_id IS NULL)
      ORDER BY j.created_at, j.id, p.kind`;
    if (!rows.length) return undefined;
    // one job per scope runs at a time; should a tenant's job and an every-tenant job both run, the one that has
    // reached this tenant is shown (the older one when both have)
    const jobId = (rows.find((r) => r.kind !== null) ?? rows[0]).job_id;
    const job = rows.filter((r) => r.job_id === jobId);
    return {
      started_at: job[0].started_at.toISOString(),
      kinds: job
        .filter((r) => r.kind !== null)
        .map((r) => ({ kind: r.kind as string, rows_total: Number(r.rows_total ?? 0), rows_done: Number(r.rows_done ?? 0) })),
    };
  }
}

/**
 * token.keys.status (GET /tenants/self/keys, tenant:read): the calling tenant's data key versions and a running
 * re-encryption job's progress. Ids, versions, dates and the KEK provider only: never a key, never a wrapped key.
 */
@Controller()
export class KeyStatusHandler {
  constructor(
    private readonly keyring: TenantKeyring,
    private readonly progress: ReencryptionProgressReader,
  ) {}

  @Operation(OPS.token.keys.status)
  async onStatus(): Promise<TenantKeysView> {
    const tenantId = caller().tenantId;
    const [versions, reencryption] = await Promise.all([this.keyring.dataKeyVersions(tenantId), this.progress.forTenant(tenantId)]);
    const view: TenantKeysView = {
      data: versions.map((v) => ({ id: v.id, version: v.version, active: v.active, created_at: v.createdAt.toISOString(), kek_provider: v.kekProvider })),
    };
    if (reencryption) view.reencryption = reencryption;
    return view;
  }
}
