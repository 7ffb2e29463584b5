import { Injectable } from '@nestjs/common';
import { isUuid } from '@coffer/contracts';
import { PrismaService, Prisma, type Application, type ApplicationKey } from '@coffer/db';

/** `GET /applications` filters; an empty `ids` list matches nothing (every id given was impossible). */
export interface ApplicationFilter {
  ids?: string[];
  types?: string[];
}

/** applications table (owned by session-service). Every method is scoped by tenant, except the key lookup. */
@Injectable()
export class ApplicationRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The application and, when given, its first key, in one statement. */
  create(
    tenantId: string,
    data: Omit<Prisma.ApplicationUncheckedCreateInput, 'tenantId' | 'keys'>,
    key?: { id: string; keyHash: string },
  ): Promise<Application & { keys: ApplicationKey[] }> {
    return this.prisma.application.create({
      data: { ...data, tenantId, ...(key ? { keys: { create: { ...key, tenantId, createdBy: data.createdBy } } } : {}) },
      include: { keys: true },
    });
  }

  find(tenantId: string, id: string): Promise<Application | null> {
    if (!isUuid(id)) return Promise.resolve(null); // an id that cannot exist is simply not found
    return this.prisma.application.findFirst({ where: { tenantId, id } });
  }

  async page(tenantId: string, skip: number, take: number, filter: ApplicationFilter = {}): Promise<{ rows: Application[]; total: number }> {
    const where: Prisma.ApplicationWhereInput = {
      tenantId,
      ...(filter.ids ? { id: { in: filter.ids } } : {}),
      ...(filter.types ? { type: { in: filter.types } } : {}),
    };
    return this.prisma.transactional(async () => ({
      rows: await this.prisma.application.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip, take }),
      total: await this.prisma.application.count({ where }),
    }));
  }

  async update(tenantId: string, id: string, data: Prisma.ApplicationUncheckedUpdateManyInput): Promise<Application | null> {
    if (!isUuid(id)) return null;
    const { count } = await this.prisma.application.updateMany({ where: { tenantId, id }, data });
    return count ? this.find(tenantId, id) : null;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const { count } = await this.prisma.application.deleteMany({ where: { tenantId, id } });
    return count > 0;
  }
}
