import { Injectable } from '@nestjs/common';
import { PrismaService, Prisma, type Session } from '@coffer/db';

@Injectable()
export class SessionRepository {
  constructor(private readonly prisma: PrismaService) {}

  create(tenantId: string, data: Omit<Prisma.SessionUncheckedCreateInput, 'tenantId'>): Promise<Session> {
    return this.prisma.session.create({ data: { ...data, tenantId } });
  }

  findByKeyHash(keyHash: string): Promise<Session | null> {
    return this.prisma.session.findUnique({ where: { keyHash } });
  }

  findByNonceHash(tenantId: string, nonceHash: string): Promise<Session | null> {
    return this.prisma.session.findFirst({ where: { tenantId, nonceHash } });
  }

  /** Single use: only the first authorize of a pending, live session succeeds (compare-and-set). */
  async authorize(
    tenantId: string,
    id: string,
    data: { permissions: string[]; rules: Prisma.InputJsonValue | typeof Prisma.DbNull; authorizedBy: string; expiresAt: Date },
  ): Promise<boolean> {
    const { count } = await this.prisma.session.updateMany({
      where: { tenantId, id, authorizedAt: null, expiresAt: { gt: new Date() } },
      data: { ...data, authorizedAt: new Date() },
    });
    return count === 1;
  }

  async delete(tenantId: string, id: string): Promise<void> {
    await this.prisma.session.deleteMany({ where: { tenantId, id } });
  }

  /** Ends every session created by, or authorized by, an application (deleted, or its key regenerated). */
  async deleteByApplication(tenantId: string, applicationId: string): Promise<number> {
    const { count } = await this.prisma.session.deleteMany({
      where: { tenantId, OR: [{ applicationId }, { authorizedBy: applicationId }] },
    });
    return count;
  }

  /** Sweeper: removes expired sessions in batches (safe with several replicas). */
  deleteExpired(limit: number): Promise<Array<{ id: string; tenant_id: string }>> {
    return this.prisma.$queryRaw`
      DELETE FROM sessions WHERE id IN (
        SELECT id FROM sessions WHERE expires_at <= now() ORDER BY expires_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
      ) RETURNING id, tenant_id`;
  }
}
