import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService } from '@coffer/db';
import type { Cursor } from '@coffer/contracts';
import { selectAfterCursor, selectOffsetPage, type ListSelect } from '../shared/paged-select';

export type ProxyRow = Prisma.ProxyModel;

export interface ProxyListFilter {
  ids?: string[];
  /** ILIKE pattern over name */
  name?: string;
}

const COLUMNS = Prisma.sql`id, tenant_id AS "tenantId", name, destination_url AS "destinationUrl", key_hash AS "keyHash",
  request_transforms AS "requestTransforms", response_transforms AS "responseTransforms", application_id AS "applicationId",
  require_auth AS "requireAuth", disable_detokenization AS "disableDetokenization",
  secrets_ciphertext AS "secretsCiphertext", secrets_key_id AS "secretsKeyId",
  created_by AS "createdBy", created_at AS "createdAt", modified_by AS "modifiedBy", modified_at AS "modifiedAt"`;

/** proxies (owned by reactor-service). Every method but `byKeyHash` is scoped by tenant. */
@Injectable()
export class ProxyRepository {
  constructor(private readonly prisma: PrismaService) {}

  create(tenantId: string, data: Omit<Prisma.ProxyUncheckedCreateInput, 'tenantId'>): Promise<ProxyRow> {
    return this.prisma.proxy.create({ data: { ...data, tenantId } });
  }

  find(tenantId: string, id: string): Promise<ProxyRow | null> {
    return this.prisma.proxy.findFirst({ where: { tenantId, id } });
  }

  /** An invocation's lookup: the key's hash is unique across tenants. */
  byKeyHash(keyHash: string): Promise<ProxyRow | null> {
    return this.prisma.proxy.findUnique({ where: { keyHash } });
  }

  private where(tenantId: string, f: ProxyListFilter): Prisma.Sql {
    const parts = [Prisma.sql`tenant_id = ${tenantId}::uuid`];
    if (f.ids) parts.push(Prisma.sql`id = ANY(${f.ids}::uuid[])`);
    if (f.name) parts.push(Prisma.sql`name ILIKE ${f.name}`);
    return Prisma.join(parts, ' AND ');
  }

  private select(tenantId: string, f: ProxyListFilter): ListSelect {
    return { table: Prisma.raw('proxies'), columns: COLUMNS, where: this.where(tenantId, f) };
  }

  page(tenantId: string, f: ProxyListFilter, offset: number, limit: number): Promise<{ rows: ProxyRow[]; total: number }> {
    return selectOffsetPage<ProxyRow>(this.prisma, this.select(tenantId, f), offset, limit);
  }

  after(tenantId: string, f: ProxyListFilter, cursor: Cursor | null, limit: number): Promise<ProxyRow[]> {
    return selectAfterCursor<ProxyRow>(this.prisma, this.select(tenantId, f), cursor, limit);
  }

  async update(tenantId: string, id: string, data: Prisma.ProxyUncheckedUpdateManyInput): Promise<ProxyRow | null> {
    const { count } = await this.prisma.proxy.updateMany({ where: { tenantId, id }, data });
    return count ? this.find(tenantId, id) : null;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const { count } = await this.prisma.proxy.deleteMany({ where: { tenantId, id } });
    return count > 0;
  }
}
