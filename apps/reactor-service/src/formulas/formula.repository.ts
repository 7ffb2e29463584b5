import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService, isForeignKeyViolation } from '@coffer/db';
import { PagedList } from '../shared/paged-select';

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
  /** the official formulas and the tenant's own, by name */
  readonly list: PagedList<FormulaRow, FormulaListFilter>;

  constructor(private readonly prisma: PrismaService) {
    this.list = new PagedList(prisma, 'reactor_formulas', COLUMNS, (tenantId, f) => {
      const parts = [Prisma.sql`(tenant_id = ${tenantId}::uuid OR tenant_id IS NULL)`];
      if (f.name) parts.push(Prisma.sql`name ILIKE ${f.name}`);
      return Prisma.join(parts, ' AND ');
    });
  }

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
