import { Injectable } from '@nestjs/common';
import { isUuid, type InvitationStatus } from '@coffer/contracts';
import { PrismaService, Prisma } from '@coffer/db';

export type InvitationRow = Prisma.TenantInvitationModel;

/** tenant_invitations (owned by session-service). Every method is scoped by tenant, except the link's lookup. */
@Injectable()
export class InvitationRepository {
  constructor(private readonly prisma: PrismaService) {}

  create(data: Prisma.TenantInvitationUncheckedCreateInput): Promise<InvitationRow> {
    return this.prisma.tenantInvitation.create({ data });
  }

  find(tenantId: string, id: string): Promise<InvitationRow | null> {
    if (!isUuid(id)) return Promise.resolve(null); // an id that cannot exist is simply not found
    return this.prisma.tenantInvitation.findFirst({ where: { tenantId, id } });
  }

  findByEmail(tenantId: string, email: string): Promise<InvitationRow | null> {
    return this.prisma.tenantInvitation.findFirst({ where: { tenantId, email } });
  }

  /** PENDING: expires after `now`; EXPIRED: expired at or before it. */
  async page(tenantId: string, skip: number, take: number, status: InvitationStatus | undefined, now: Date): Promise<{ rows: InvitationRow[]; total: number }> {
    const where: Prisma.TenantInvitationWhereInput = {
      tenantId,
      ...(status === 'PENDING' ? { expiresAt: { gt: now } } : status === 'EXPIRED' ? { expiresAt: { lte: now } } : {}),
    };
    return this.prisma.transactional(async () => ({
      rows: await this.prisma.tenantInvitation.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip, take }),
      total: await this.prisma.tenantInvitation.count({ where }),
    }));
  }

  /** A new link (its hash) and expiry: the old link stops working. */
  async replaceSecret(tenantId: string, id: string, tokenHash: string, expiresAt: Date, modifiedBy: string): Promise<InvitationRow | null> {
    if (!isUuid(id)) return null;
    const { count } = await this.prisma.tenantInvitation.updateMany({
      where: { tenantId, id },
      data: { tokenHash, expiresAt, modifiedBy, modifiedAt: new Date() },
    });
    return count ? this.find(tenantId, id) : null;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const { count } = await this.prisma.tenantInvitation.deleteMany({ where: { tenantId, id } });
    return count > 0;
  }

  /** Whether a member of the tenant signs in with this email (compared in lower case, as invitations store it). */
  async memberHasEmail(tenantId: string, email: string): Promise<boolean> {
    const rows = await this.prisma.$queryRaw<Array<{ found: number }>>`
      SELECT 1 AS found FROM tenant_members m JOIN users u ON u.id = m.user_id
      WHERE m.tenant_id = ${tenantId}::uuid AND lower(u.email) = ${email.toLowerCase()} LIMIT 1`;
    return rows.length > 0;
  }

  /** What a pending link names, found by its hash (never by the secret): a live tenant only. */
  async preview(tokenHash: string): Promise<{ tenantName: string; email: string; role: string } | null> {
    const rows = await this.prisma.$queryRaw<Array<{ tenant_name: string; email: string; role: string }>>`
      SELECT t.name AS tenant_name, i.email, i.role FROM tenant_invitations i JOIN tenants t ON t.id = i.tenant_id
      WHERE i.token_hash = ${tokenHash} AND i.expires_at > now() AND t.deleted_at IS NULL`;
    const row = rows[0];
    return row ? { tenantName: row.tenant_name, email: row.email, role: row.role } : null;
  }
}
