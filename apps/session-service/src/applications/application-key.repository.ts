import { Injectable } from '@nestjs/common';
import { isUuid } from '@coffer/contracts';
import { PrismaService, type Application, type ApplicationKey } from '@coffer/db';

/** application_keys (owned by session-service): only key hashes. Scoped by tenant and application, except lookup. */
@Injectable()
export class ApplicationKeyRepository {
  constructor(private readonly prisma: PrismaService) {}

  create(data: { id: string; tenantId: string; applicationId: string; keyHash: string; createdBy?: string }): Promise<ApplicationKey> {
    return this.prisma.applicationKey.create({ data });
  }

  list(tenantId: string, applicationId: string): Promise<ApplicationKey[]> {
    return this.prisma.applicationKey.findMany({ where: { tenantId, applicationId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  }

  /**
   * Adds a key unless the application already holds `limit`: the application row is locked for the count, so two
   * concurrent creates cannot both pass it. Null when the limit is reached.
   */
  createWithin(
    limit: number,
    data: { id: string; tenantId: string; applicationId: string; keyHash: string; createdBy?: string },
  ): Promise<ApplicationKey | null> {
    return this.prisma.transactional(async () => {
      await this.prisma.$queryRaw`SELECT 1 FROM applications WHERE tenant_id = ${data.tenantId}::uuid AND id = ${data.applicationId}::uuid FOR UPDATE`;
      const held = await this.prisma.applicationKey.count({ where: { tenantId: data.tenantId, applicationId: data.applicationId } });
      return held >= limit ? null : this.prisma.applicationKey.create({ data });
    });
  }

  find(tenantId: string, applicationId: string, id: string): Promise<ApplicationKey | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.prisma.applicationKey.findFirst({ where: { tenantId, applicationId, id } });
  }

  async delete(tenantId: string, applicationId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const { count } = await this.prisma.applicationKey.deleteMany({ where: { tenantId, applicationId, id } });
    return count > 0;
  }

  /** Regenerate: every key of the application goes, one new key comes, in one transaction. Returns both. */
  async replaceAll(
    tenantId: string,
    applicationId: string,
    key: { id: string; keyHash: string; createdBy?: string },
  ): Promise<{ created: ApplicationKey; deleted: Array<{ id: string }> }> {
    return this.prisma.transactional(async () => {
      const deleted = await this.prisma.$queryRaw<Array<{ id: string }>>`
        DELETE FROM application_keys WHERE tenant_id = ${tenantId}::uuid AND application_id = ${applicationId}::uuid RETURNING id::text AS id`;
      return { created: await this.prisma.applicationKey.create({ data: { ...key, tenantId, applicationId } }), deleted };
    });
  }

  /** Authentication is the one lookup that finds the tenant from the key hash. */
  async findApplicationByKeyHash(keyHash: string): Promise<Application | null> {
    const row = await this.prisma.applicationKey.findUnique({ where: { keyHash }, include: { application: true } });
    return row?.application ?? null;
  }
}
