import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService } from '@coffer/db';
import type { Cursor } from '@coffer/contracts';
import { selectAfterCursor, selectOffsetPage, type ListSelect } from '../shared/paged-select';

export type ReactorRow = Prisma.ReactorModel;

export interface ReactorListFilter {
  ids?: string[];
  /** ILIKE pattern over name */
  name?: string;
}

const COLUMNS = Prisma.sql`id, tenant_id AS "tenantId", name, formula_id AS "formulaId", code, runtime, egress, application_id AS "applicationId",
  configuration_ciphertext AS "configurationCiphertext", configuration_key_id AS "configurationKeyId",
  created_by AS "createdBy", created_at AS "createdAt", modified_by AS "modifiedBy", modified_at AS "modifiedAt"`;

/** reactors (owned by reactor-service). Every method is scoped by tenant. */
@Injectable()
export class ReactorRepository {
  constructor(private readonly prisma: PrismaService) {}

  create(tenantId: string, data: Omit<Prisma.ReactorUncheckedCreateInput, 'tenantId'>): Promise<ReactorRow> {
    return this.prisma.reactor.create({ data: { ...data, tenantId } });
  }

  find(tenantId: string, id: string): Promise<ReactorRow | null> {
    return this.prisma.reactor.findFirst({ where: { tenantId, id } });
  }

  private where(tenantId: string, f: ReactorListFilter): Prisma.Sql {
    const parts = [Prisma.sql`tenant_id = ${tenantId}::uuid`];
    if (f.ids) parts.push(Prisma.sql`id = ANY(${f.ids}::uuid[])`);
    if (f.name) parts.push(Prisma.sql`name ILIKE ${f.name}`);
    return Prisma.join(parts, ' AND ');
  }

  private select(tenantId: string, f: ReactorListFilter): ListSelect {
    return { table: Prisma.raw('reactors'), columns: COLUMNS, where: this.where(tenantId, f) };
  }

  page(tenantId: string, f: ReactorListFilter, offset: number, limit: number): Promise<{ rows: ReactorRow[]; total: number }> {
    return selectOffsetPage<ReactorRow>(this.prisma, this.select(tenantId, f), offset, limit);
  }

  /** Rows strictly after the cursor in (created_at desc, id desc) order; one extra to tell whether more exist. */
  after(tenantId: string, f: ReactorListFilter, cursor: Cursor | null, limit: number): Promise<ReactorRow[]> {
    return selectAfterCursor<ReactorRow>(this.prisma, this.select(tenantId, f), cursor, limit);
  }

  async update(tenantId: string, id: string, data: Prisma.ReactorUncheckedUpdateManyInput): Promise<ReactorRow | null> {
    const { count } = await this.prisma.reactor.updateMany({ where: { tenantId, id }, data });
    return count ? this.find(tenantId, id) : null;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const { count } = await this.prisma.reactor.deleteMany({ where: { tenantId, id } });
    return count > 0;
  }
}
