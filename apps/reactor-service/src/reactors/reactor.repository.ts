import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService } from '@coffer/db';
import { PagedList, tenantIdsAndName } from '../shared/paged-select';

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
  /** the tenant's reactors, by id and name */
  readonly list: PagedList<ReactorRow, ReactorListFilter>;

  constructor(private readonly prisma: PrismaService) {
    this.list = new PagedList(prisma, 'reactors', COLUMNS, tenantIdsAndName);
  }

  create(tenantId: string, data: Omit<Prisma.ReactorUncheckedCreateInput, 'tenantId'>): Promise<ReactorRow> {
    return this.prisma.reactor.create({ data: { ...data, tenantId } });
  }

  find(tenantId: string, id: string): Promise<ReactorRow | null> {
    return this.prisma.reactor.findFirst({ where: { tenantId, id } });
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
