import type { PrismaService } from '@coffer/db';
import { KeyJobRepository } from './key-job.repository';
import { SEALED_KINDS } from './sealed-kinds';
import { SealedRowsRepository } from './sealed-rows.repository';

export interface KeyUsage {
  tenant_id: string;
  key_id: string;
  /** 1 for the tenant's first data key, counting up with each rotation; null for a key that no longer exists */
  key_version: number | null;
  active: boolean;
  rows: number;
}

export interface KeyStatus {
  kinds: Record<string, KeyUsage[]>;
  rows: number;
  rows_under_active_keys: number;
  rows_under_older_keys: number;
  job: {
    id: string;
    tenant_id: string | null;
    state: string;
    created_at: string;
    rows_total: number;
    rows_done: number;
    kinds: Record<string, { rows_total: number; rows_done: number }>;
  } | null;
}

/** `keys status`: per kind of sealed value, how many rows are under which data key of which tenant, and the last job. */
export async function keyStatus(prisma: PrismaService, tenantId?: string): Promise<KeyStatus> {
  const keys = await prisma.$queryRaw<Array<{ id: string; tenant_id: string; active: boolean; version: bigint }>>`
    SELECT id::text, tenant_id::text, active, rank() OVER (PARTITION BY tenant_id ORDER BY created_at, id) AS version
    FROM tenant_keys WHERE purpose = 'data'`;
  const byId = new Map(keys.map((k) => [k.id, k]));
  const rows = new SealedRowsRepository(prisma);
  const status: KeyStatus = { kinds: {}, rows: 0, rows_under_active_keys: 0, rows_under_older_keys: 0, job: null };
  for (const kind of SEALED_KINDS) {
    status.kinds[kind.kind] = (await rows.countByKey(kind, tenantId)).map((r) => {
      const key = byId.get(r.keyId);
      const usage: KeyUsage = {
        tenant_id: r.tenantId,
        key_id: r.keyId,
        key_version: key ? Number(key.version) : null,
        active: key?.active ?? false,
        rows: r.rows,
      };
      status.rows += r.rows;
      if (usage.active) status.rows_under_active_keys += r.rows;
      else status.rows_under_older_keys += r.rows;
      return usage;
    });
  }
  const jobs = new KeyJobRepository(prisma);
  const job = await jobs.latest();
  if (job) {
    const progress = await jobs.progress(job.id);
    const kinds: Record<string, { rows_total: number; rows_done: number }> = {};
    for (const p of progress) {
      const k = (kinds[p.kind] ??= { rows_total: 0, rows_done: 0 });
      k.rows_total += p.rowsTotal;
      k.rows_done += p.rowsDone;
    }
    status.job = {
      id: job.id,
      tenant_id: job.tenantId,
      state: job.state,
      created_at: job.createdAt.toISOString(),
      rows_total: progress.reduce((a, p) => a + p.rowsTotal, 0),
      rows_done: progress.reduce((a, p) => a + p.rowsDone, 0),
      kinds,
    };
  }
  return status;
}
