import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService } from '@coffer/db';
import { PagedList, tenantIdsAndName } from '../shared/paged-select';

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
  /** the tenant's proxies, by id and name */
  readonly list: PagedList<ProxyRow, ProxyListFilter>;

  constructor(private readonly prisma: PrismaService) {
    this.list = new PagedList(prisma, 'proxies', COLUMNS, tenantIdsAndName);
  }

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

  async update(tenantId: string, id: string, data: Prisma.ProxyUncheckedUpdateManyInput): Promise<ProxyRow | null> {
    const { count } = await this.prisma.proxy.updateMany({ where: { tenantId, id }, data });
    return count ? this.find(tenantId, id) : null;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const { count } = await this.prisma.proxy.deleteMany({ where: { tenantId, id } });
    return count > 0;
  }
}
