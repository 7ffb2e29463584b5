import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService } from '@coffer/db';
import type { Cursor } from '@coffer/contracts';

export type FormulaRow = Prisma.ReactorFormulaModel;

export interface FormulaListFilter {
  /** ILIKE pattern over name */
  name?: string;
}

const COLUMNS = Prisma.sql`id, tenant_id AS "tenantId", name, description, type, status, icon, code, configuration, egress,
  request_parameters AS "requestParameters", created_by AS "createdBy", created_at AS "createdAt",
  modified_by AS "modifiedBy", modified_at AS "modifiedAt"`;

export type DeleteOutcome = 'deleted' | 'missing' | 'in_use';

/**
 * reactor_formulas (owned by reactor-service). Every method takes the tenant id: a tenant sees the official formulas
 * (tenant_id null) and its own private ones, and writes only its own.
 */
@Injectable()
export class FormulaRepository {
  constructor(private readonly prisma: PrismaService) {}

  create(tenantId: string, data: Omit<Prisma.ReactorFormulaUncheckedCreateInput, 'tenantId'>): Promise<FormulaRow> {
    return this.prisma.reactorFormula.create({ data: { ...data, tenantId } });
  }

  /** Official or the tenant's own. */
  findVisible(tenantId: string, id: string): Promise<FormulaRow | null> {
    return this.prisma.reactorFormula.findFirst({ where: { id, OR: [{ tenantId }, { tenantId: null }] } });
  }

  findVisibleMany(tenantId: string, ids: string[]): Promise<FormulaRow[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.prisma.reactorFormula.findMany({ where: { id: { in: ids }, OR: [{ tenantId }, { tenantId: null }] } });
  }

  private where(tenantId: string, f: FormulaListFilter): Prisma.Sql {
    const parts = [Prisma.sql`(tenant_id = ${tenantId}::uuid OR tenant_id IS NULL)`];
    if (f.name) parts.push(Prisma.sql`name ILIKE ${f.name}`);
    return Prisma.join(parts, ' AND ');
  }

  async page(tenantId: string, f: FormulaListFilter, offset: number, limit: number): Promise<{ rows: FormulaRow[]; total: number }> {
    const where = this.where(tenantId, f);
    const [rows, count] = await Promise.all([
      limit === 0
        ? Promise.resolve([] as FormulaRow[])
        : this.prisma.$queryRaw<FormulaRow[]>`
            SELECT ${COLUMNS} FROM reactor_formulas WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`,
      this.prisma.$queryRaw<Array<{ n: bigint }>>`SELECT count(*) AS n FROM reactor_formulas WHERE ${where}`,
    ]);
    return { rows, total: Number(count[0]?.n ?? 0) };
  }

  /** Rows strictly after the cursor in (created_at desc, id desc) order; one extra to tell whether more exist. */
  after(tenantId: string, f: FormulaListFilter, cursor: Cursor | null, limit: number): Promise<FormulaRow[]> {
    const after = cursor ? Prisma.sql`AND (created_at, id) < (${new Date(cursor.createdAt)}::timestamptz, ${cursor.id}::uuid)` : Prisma.empty;
    return this.prisma.$queryRaw<FormulaRow[]>`
      SELECT ${COLUMNS} FROM reactor_formulas WHERE ${this.where(tenantId, f)} ${after}
      ORDER BY created_at DESC, id DESC LIMIT ${limit + 1}`;
  }

  /** Updates one of the tenant's own (private) formulas; official formulas are never matched. */
  async updateOwn(tenantId: string, id: string, data: Prisma.ReactorFormulaUncheckedUpdateManyInput): Promise<FormulaRow | null> {
    const { count } = await this.prisma.reactorFormula.updateMany({ where: { tenantId, id }, data });
    return count ? this.prisma.reactorFormula.findFirst({ where: { tenantId, id } }) : null;
  }

  /** The foreign key from reactors restricts the delete: a formula in use is reported, never half-deleted. */
  async deleteOwn(tenantId: string, id: string): Promise<DeleteOutcome> {
    try {
      const { count } = await this.prisma.reactorFormula.deleteMany({ where: { tenantId, id } });
      return count > 0 ? 'deleted' : 'missing';
    } catch (err) {
      if (isForeignKeyViolation(err)) return 'in_use';
      throw err;
    }
  }
}

function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string; meta?: { code?: string } };
  return e?.code === 'P2003' || e?.code === '23503' || e?.meta?.code === '23503' || /foreign key constraint|23503/i.test(e?.message ?? '');
}
