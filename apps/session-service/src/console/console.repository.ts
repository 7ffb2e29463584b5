import { Injectable } from '@nestjs/common';
import { PrismaService, Prisma } from '@coffer/db';

export type UserRow = Prisma.UserModel;
export type MemberRow = Prisma.TenantMemberModel;
export type InvitationRow = Prisma.TenantInvitationModel;
export type ConsoleSessionRow = Prisma.ConsoleSessionModel;

/** One of a person's memberships, with what sign-in needs of its tenant (deleted tenants are left out). */
export interface Membership {
  memberId: string;
  tenantId: string;
  role: string;
  joinedAt: Date;
  tenantName: string;
  settings: Prisma.JsonValue;
  suspendedAt: Date | null;
}

/** A person's session as authenticate sees it: the membership (null once removed) and its tenant's standing. */
export interface SessionMember {
  memberId: string;
  role: string;
  email: string;
  suspendedAt: Date | null;
  deletedAt: Date | null;
}

/** What the person's ID token says of them, as kept on the user row (the email lower case). */
export interface UserProfile {
  email?: string;
  emailVerified?: boolean;
  firstName?: string;
  lastName?: string;
  picture?: string;
}

/**
 * The tables console sign-in reads and writes (session-service owns them): users, tenant_members, tenant_invitations
 * and console_sessions. Users are found by issuer and subject only, never by email. Console sessions are found by the
 * SHA-256 of their cookie; the cookie itself is never stored.
 */
@Injectable()
export class ConsoleRepository {
  constructor(private readonly prisma: PrismaService) {}

  // ------------------------------------------------------------ users, members, invitations

  findUser(issuer: string, subject: string): Promise<UserRow | null> {
    return this.prisma.user.findUnique({ where: { issuer_subject: { issuer, subject } } });
  }

  /** The user of (issuer, subject), created on first sign-in (a random id), its profile refreshed on every one. */
  upsertUser(id: string, issuer: string, subject: string, profile: UserProfile & { email: string; emailVerified: boolean }, at: Date): Promise<UserRow> {
    const fields = profileFields(profile);
    return this.prisma.user.upsert({
      where: { issuer_subject: { issuer, subject } },
      create: { id, issuer, subject, ...fields, email: profile.email, lastSignInAt: at },
      update: { ...fields, lastSignInAt: at },
    });
  }

  async updateUser(id: string, profile: UserProfile, at: Date): Promise<UserRow> {
    return this.prisma.user.update({ where: { id }, data: { ...profileFields(profile), lastSignInAt: at } });
  }

  findInvitation(tokenHash: string): Promise<InvitationRow | null> {
    return this.prisma.tenantInvitation.findUnique({ where: { tokenHash } });
  }

  /** Single use: true for the one acceptance that deleted it. */
  async consumeInvitation(id: string): Promise<boolean> {
    const { count } = await this.prisma.tenantInvitation.deleteMany({ where: { id } });
    return count === 1;
  }

  async hasOwner(tenantId: string): Promise<boolean> {
    return (await this.prisma.tenantMember.count({ where: { tenantId, role: 'OWNER' } })) > 0;
  }

  findMember(tenantId: string, userId: string): Promise<MemberRow | null> {
    return this.prisma.tenantMember.findUnique({ where: { tenantId_userId: { tenantId, userId } } });
  }

  createMember(data: { id: string; tenantId: string; userId: string; role: string; createdBy?: string | null; createdAt: Date }): Promise<MemberRow> {
    return this.prisma.tenantMember.create({ data });
  }

  /** The person's memberships of tenants that are not deleted, the most recently joined first. */
  async memberships(userId: string): Promise<Membership[]> {
    const rows = await this.prisma.$queryRaw<
      Array<{ id: string; tenant_id: string; role: string; created_at: Date; name: string; settings: Prisma.JsonValue; suspended_at: Date | null }>
    >`
      SELECT m.id, m.tenant_id, m.role, m.created_at, t.name, t.settings, t.suspended_at
      FROM tenant_members m JOIN tenants t ON t.id = m.tenant_id
      WHERE m.user_id = ${userId}::uuid AND t.deleted_at IS NULL
      ORDER BY m.created_at DESC, m.id`;
    return rows.map((r) => ({
      memberId: r.id,
      tenantId: r.tenant_id,
      role: r.role,
      joinedAt: r.created_at,
      tenantName: r.name,
      settings: r.settings,
      suspendedAt: r.suspended_at,
    }));
  }

  /** The membership a person's console session stands on, with its tenant's standing; null once removed. */
  async sessionMember(tenantId: string, userId: string): Promise<SessionMember | null> {
    const rows = await this.prisma.$queryRaw<Array<{ id: string; role: string; email: string; suspended_at: Date | null; deleted_at: Date | null }>>`
      SELECT m.id, m.role, u.email, t.suspended_at, t.deleted_at
      FROM tenant_members m JOIN users u ON u.id = m.user_id JOIN tenants t ON t.id = m.tenant_id
      WHERE m.tenant_id = ${tenantId}::uuid AND m.user_id = ${userId}::uuid`;
    const r = rows[0];
    return r ? { memberId: r.id, role: r.role, email: r.email, suspendedAt: r.suspended_at, deletedAt: r.deleted_at } : null;
  }

  // ------------------------------------------------------------ console sessions

  createSession(data: {
    idHash: string;
    csrfHash: string;
    tenantId: string;
    userId?: string;
    keyHash?: string;
    createdAt: Date;
    expiresAt: Date;
  }): Promise<ConsoleSessionRow> {
    return this.prisma.consoleSession.create({ data: { ...data, lastSeenAt: data.createdAt } });
  }

  findSession(idHash: string): Promise<ConsoleSessionRow | null> {
    return this.prisma.consoleSession.findUnique({ where: { idHash } });
  }

  async touchSession(idHash: string, at: Date): Promise<void> {
    await this.prisma.consoleSession.updateMany({ where: { idHash }, data: { lastSeenAt: at } });
  }

  /** Deletes these sessions; the hashes of those that were there. */
  async deleteSessions(idHashes: string[]): Promise<string[]> {
    if (!idHashes.length) return [];
    const rows = await this.prisma.$queryRaw<Array<{ id_hash: string }>>`
      DELETE FROM console_sessions WHERE id_hash = ANY(${idHashes}::text[]) RETURNING id_hash`;
    return rows.map((r) => r.id_hash);
  }

  /** Every session of a person (all tenants) or of a key. */
  async sessionsOf(owner: { userId: string } | { keyHash: string }): Promise<string[]> {
    const rows = await this.prisma.consoleSession.findMany({ where: owner, select: { idHash: true } });
    return rows.map((r) => r.idHash);
  }

  /** Ends a person's (or a key's) oldest sessions until at most `keep` are left; the hashes of those ended. */
  async endOldest(owner: { userId: string } | { keyHash: string }, keep: number): Promise<string[]> {
    const surplus = await this.prisma.consoleSession.findMany({
      where: owner,
      orderBy: [{ createdAt: 'desc' }, { idHash: 'asc' }],
      skip: Math.max(0, keep),
      select: { idHash: true },
    });
    return this.deleteSessions(surplus.map((r) => r.idHash));
  }

  /** A few sessions past their end (absolute, or idle since `idleSince`): deleted at each sign-in, no timer needed. */
  async deleteEnded(at: Date, idleSince: Date, limit: number): Promise<string[]> {
    const rows = await this.prisma.$queryRaw<Array<{ id_hash: string }>>`
      DELETE FROM console_sessions WHERE id_hash IN (
        SELECT id_hash FROM console_sessions WHERE expires_at <= ${at} OR last_seen_at <= ${idleSince}
        ORDER BY expires_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
      ) RETURNING id_hash`;
    return rows.map((r) => r.id_hash);
  }
}

/** The fields the token named (an absent claim keeps what is stored). */
function profileFields(p: UserProfile): UserProfile {
  const out: UserProfile = {};
  if (p.email !== undefined) out.email = p.email;
  if (p.emailVerified !== undefined) out.emailVerified = p.emailVerified;
  if (p.firstName !== undefined) out.firstName = p.firstName;
  if (p.lastName !== undefined) out.lastName = p.lastName;
  if (p.picture !== undefined) out.picture = p.picture;
  return out;
}
