import { randomUUID } from 'node:crypto';
import { Prisma, type PrismaService } from '@coffer/db';

export interface KeyJob {
  id: string;
  tenantId: string | null;
  state: 'running' | 'done';
  createdAt: Date;
}

export interface KindProgress {
  tenantId: string;
  kind: string;
  targetKeyId: string;
  cursor: string[] | null;
  pass: number;
  rowsTotal: number;
  rowsDone: number;
  done: boolean;
}

/**
 * key_jobs and reencryption_progress: a re-encryption job and where it stands per tenant and kind. Progress moves
 * in the same statement as each batch's UPDATE (SealedRowsRepository.replace), so after a crash the job resumes
 * after its last committed batch and its counts match the rows actually rewritten.
 */
export class KeyJobRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The unfinished re-encryption job of this scope (one tenant, or every tenant when null). */
  async findRunning(tenantId: string | null): Promise<KeyJob | null> {
    const rows = await this.prisma.$queryRaw<KeyJob[]>`
      SELECT id::text, tenant_id::text AS "tenantId", state, created_at AS "createdAt" FROM key_jobs
      WHERE kind = 'reencrypt' AND state = 'running' AND tenant_id IS NOT DISTINCT FROM ${tenantId}::uuid
      ORDER BY created_at LIMIT 1`;
    return rows[0] ?? null;
  }

  async latest(): Promise<KeyJob | null> {
    const rows = await this.prisma.$queryRaw<KeyJob[]>`
      SELECT id::text, tenant_id::text AS "tenantId", state, created_at AS "createdAt" FROM key_jobs
      WHERE kind = 'reencrypt' ORDER BY created_at DESC LIMIT 1`;
    return rows[0] ?? null;
  }

  async create(tenantId: string | null, actor: string): Promise<KeyJob> {
    const id = randomUUID();
    await this.prisma.$executeRaw`
      INSERT INTO key_jobs (id, kind, tenant_id, created_by) VALUES (${id}::uuid, 'reencrypt', ${tenantId}::uuid, ${actor})`;
    return { id, tenantId, state: 'running', createdAt: new Date() };
  }

  async finish(jobId: string): Promise<void> {
    await this.prisma.$executeRaw`UPDATE key_jobs SET state = 'done', finished_at = now(), updated_at = now() WHERE id = ${jobId}::uuid`;
  }

  async progress(jobId: string): Promise<KindProgress[]> {
    const rows = await this.prisma.$queryRaw<Array<Record<string, unknown>>>`
      SELECT tenant_id::text AS tenant_id, kind, target_key_id::text AS target_key_id, cursor, pass, rows_total, rows_done, done
      FROM reencryption_progress WHERE job_id = ${jobId}::uuid ORDER BY tenant_id, kind`;
    return rows.map((r) => ({
      tenantId: String(r['tenant_id']),
      kind: String(r['kind']),
      targetKeyId: String(r['target_key_id']),
      cursor: r['cursor'] ? (JSON.parse(String(r['cursor'])) as string[]) : null,
      pass: Number(r['pass']),
      rowsTotal: Number(r['rows_total']),
      rowsDone: Number(r['rows_done']),
      done: r['done'] === true,
    }));
  }

  /** Registers a tenant's kind with the rows to move (kept as registered when it already is: a resumed job). */
  async register(jobId: string, p: { tenantId: string; kind: string; targetKeyId: string; rowsTotal: number }): Promise<void> {
    await this.prisma.$executeRaw`
      INSERT INTO reencryption_progress (job_id, tenant_id, kind, target_key_id, rows_total, done)
      VALUES (${jobId}::uuid, ${p.tenantId}::uuid, ${p.kind}, ${p.targetKeyId}::uuid, ${p.rowsTotal}, ${p.rowsTotal === 0})
      ON CONFLICT (job_id, tenant_id, kind) DO NOTHING`;
  }

  /** The progress UPDATE that rides in a batch's statement: `written` rows more, the cursor moved past the batch. */
  advance(jobId: string, p: KindProgress, cursor: string[]): (written: Prisma.Sql) => Prisma.Sql {
    return (written) => Prisma.sql`
      UPDATE reencryption_progress SET rows_done = rows_done + ${written}, cursor = ${JSON.stringify(cursor)}, updated_at = now()
      WHERE job_id = ${jobId}::uuid AND tenant_id = ${p.tenantId}::uuid AND kind = ${p.kind}`;
  }

  /** Another pass from the start, for rows written under an older key behind the cursor while the job ran. */
  async startPass(jobId: string, p: KindProgress, remaining: number): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE reencryption_progress SET cursor = NULL, pass = pass + 1, rows_total = rows_done + ${remaining}, updated_at = now()
      WHERE job_id = ${jobId}::uuid AND tenant_id = ${p.tenantId}::uuid AND kind = ${p.kind}`;
  }

  async markDone(jobId: string, p: KindProgress): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE reencryption_progress SET done = true, rows_total = GREATEST(rows_total, rows_done), updated_at = now()
      WHERE job_id = ${jobId}::uuid AND tenant_id = ${p.tenantId}::uuid AND kind = ${p.kind}`;
  }
}
