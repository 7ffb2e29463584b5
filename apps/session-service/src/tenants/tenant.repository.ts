import { Injectable } from '@nestjs/common';
import { PrismaService, Prisma, type Tenant } from '@coffer/db';

@Injectable()
export class TenantRepository {
  constructor(private readonly prisma: PrismaService) {}

  find(tenantId: string): Promise<Tenant | null> {
    return this.prisma.tenant.findUnique({ where: { id: tenantId } });
  }

  /** The user id of the tenant's OWNER member, if it has one (one at most: tenant_members_owner_key). */
  async ownerOf(tenantId: string): Promise<string | undefined> {
    const owner = await this.prisma.tenantMember.findFirst({ where: { tenantId, role: 'OWNER' }, select: { userId: true } });
    return owner?.userId;
  }

  async update(tenantId: string, data: { name?: string; settings?: Prisma.InputJsonValue }): Promise<Tenant | null> {
    const { count } = await this.prisma.tenant.updateMany({ where: { id: tenantId }, data: { ...data, modifiedAt: new Date() } });
    return count ? this.find(tenantId) : null;
  }
}
