import { Injectable } from '@nestjs/common';
import { isUuid } from '@coffer/contracts';
import { PrismaService, Prisma } from '@coffer/db';

export type MemberRow = Prisma.TenantMemberModel;
export type UserRow = Prisma.UserModel;
/** A member and its user (null only if the user row is gone: the view then shows the id alone). */
export type MemberWithUser = MemberRow & { user: UserRow | null };

/** `GET /tenants/self/members` filters; an empty `userIds` list matches nothing (every id given was impossible). */
export interface MemberFilter {
  userIds?: string[];
}

/** Ownership changes of one tenant queue behind each other (a transaction-scoped advisory lock; the key's first half). */
const OWNERSHIP_LOCK = 0x6d656d62; // "memb"

/**
 * tenant_members (owned by session-service), with the users they name. Every method is scoped by tenant. There is no
 * relation between the two tables in the schema: the users of a page are read in a second statement.
 */
@Injectable()
export class MemberRepository {
  constructor(private readonly prisma: PrismaService) {}

  async find(tenantId: string, id: string): Promise<MemberWithUser | null> {
    if (!isUuid(id)) return null; // an id that cannot exist is simply not found
    const member = await this.prisma.tenantMember.findFirst({ where: { tenantId, id } });
    return member ? this.withUser(member) : null;
  }

  async findOwner(tenantId: string): Promise<MemberWithUser | null> {
    const member = await this.prisma.tenantMember.findFirst({ where: { tenantId, role: 'OWNER' } });
    return member ? this.withUser(member) : null;
  }

  async page(tenantId: string, skip: number, take: number, filter: MemberFilter = {}): Promise<{ rows: MemberWithUser[]; total: number }> {
    const where: Prisma.TenantMemberWhereInput = { tenantId, ...(filter.userIds ? { userId: { in: filter.userIds } } : {}) };
    return this.prisma.transactional(async () => {
      const members = await this.prisma.tenantMember.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip, take });
      const users = await this.users(members.map((m) => m.userId));
      return { rows: members.map((m) => ({ ...m, user: users.get(m.userId) ?? null })), total: await this.prisma.tenantMember.count({ where }) };
    });
  }

  /**
   * A member's new role, unless it is the owner (checked by the statement itself, so that a transfer committed in
   * between is seen): null when nothing was updated.
   */
  async setRoleUnlessOwner(tenantId: string, id: string, role: string, modifiedBy: string): Promise<MemberWithUser | null> {
    if (!isUuid(id)) return null;
    const { count } = await this.prisma.tenantMember.updateMany({
      where: { tenantId, id, role: { not: 'OWNER' } },
      data: { role, modifiedBy, modifiedAt: new Date() },
    });
    return count ? this.find(tenantId, id) : null;
  }

  /** The role of a transfer (the owner's demotion first: one OWNER per tenant, tenant_members_owner_key). */
  async setRole(tenantId: string, id: string, role: string, modifiedBy: string): Promise<MemberWithUser | null> {
    const { count } = await this.prisma.tenantMember.updateMany({ where: { tenantId, id }, data: { role, modifiedBy, modifiedAt: new Date() } });
    return count ? this.find(tenantId, id) : null;
  }

  /** Removes a member unless it is the owner (checked by the statement itself): false when nothing was deleted. */
  async deleteUnlessOwner(tenantId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const { count } = await this.prisma.tenantMember.deleteMany({ where: { tenantId, id, role: { not: 'OWNER' } } });
    return count > 0;
  }

  /** The console sessions of a person in one tenant (they end with the membership); their cookie hashes. */
  async deleteConsoleSessions(tenantId: string, userId: string): Promise<string[]> {
    const rows = await this.prisma.$queryRaw<Array<{ id_hash: string }>>`
      DELETE FROM console_sessions WHERE tenant_id = ${tenantId}::uuid AND user_id = ${userId}::uuid RETURNING id_hash`;
    return rows.map((r) => r.id_hash);
  }

  /** Inside a transaction: waits for any other ownership change of the tenant, then holds the lock until commit. */
  async lockOwnership(tenantId: string): Promise<void> {
    await this.prisma.$executeRaw`SELECT pg_advisory_xact_lock(${OWNERSHIP_LOCK}::int, hashtext(${tenantId}))`;
  }

  private async withUser(member: MemberRow): Promise<MemberWithUser> {
    return { ...member, user: (await this.users([member.userId])).get(member.userId) ?? null };
  }

  private async users(ids: string[]): Promise<Map<string, UserRow>> {
    if (!ids.length) return new Map();
    const users = await this.prisma.user.findMany({ where: { id: { in: [...new Set(ids)] } } });
    return new Map(users.map((u) => [u.id, u]));
  }
}
