import { Injectable } from '@nestjs/common';
import { isUuid } from '@coffer/contracts';
import { PrismaService, Prisma, type Application } from '@coffer/db';

/** applications table (owned by session-service). Every method is scoped by tenant, except the key lookup. */
@Injectable()
export class ApplicationRepository {
  constructor(private readonly prisma: PrismaService) {}

  create(tenantId: string, data: Omit<Prisma.ApplicationUncheckedCreateInput, 'tenantId'>): Promise<Application> {
    return this.prisma.application.create({ data: { ...data, tenantId } });
  }

  find(tenantId: string, id: string): Promise<Application | null> {
    if (!isUuid(id)) return Promise.resolve(null); // an id that cannot exist is simply not found
    return this.prisma.application.findFirst({ where: { tenantId, id } });
  }

  async page(tenantId: string, skip: number, take: number): Promise<{ rows: Application[]; total: number }> {
    const [rows, total] = await this.prisma.$transaction([
      this.prisma.application.findMany({
        where: { tenantId },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        skip,
        take,
      }),
      this.prisma.application.count({ where: { tenantId } }),
    ]);
    return { rows, total };
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

  /** Authentication is the one lookup that finds the tenant from the key hash. */
  findByKeyHash(keyHash: string): Promise<Application | null> {
    return this.prisma.application.findUnique({ where: { keyHash } });
  }
}
