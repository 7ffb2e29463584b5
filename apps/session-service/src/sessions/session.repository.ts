import { Injectable } from '@nestjs/common';
import { PrismaService, Prisma, SqlPool } from '@coffer/db';

/** What authorizing a session reads of it. */
export interface PendingSession {
  id: string;
  applicationId: string;
  createdAt: Date;
  expiresAt: Date;
  authorizedAt: Date | null;
}

@Injectable()
export class SessionRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly sql: SqlPool,
  ) {}

  /** The INSERT of a pending session (no permissions yet), for RecordedWrites.commitStatement; returns its id. */
  insertPending(s: { tenantId: string; id: string; applicationId: string; keyHash: string; nonceHash: string; expiresAt: Date }): Prisma.Sql {
    return Prisma.sql`
      INSERT INTO sessions (id, tenant_id, application_id, key_hash, nonce_hash, permissions, expires_at)
      VALUES (${s.id}::uuid, ${s.tenantId}::uuid, ${s.applicationId}::uuid, ${s.keyHash}, ${s.nonceHash}, '{}', ${s.expiresAt}::timestamptz)
      RETURNING id`;
  }

  /** The session a nonce names in the tenant (any state: the caller tells expired and authorized apart). */
  async findByNonceHash(tenantId: string, nonceHash: string): Promise<PendingSession | null> {
    const [row] = await this.sql.query<{ id: string; application_id: string; created_at: Date; expires_at: Date; authorized_at: Date | null }>(
      Prisma.sql`SELECT id, application_id, created_at, expires_at, authorized_at FROM sessions WHERE tenant_id = ${tenantId}::uuid AND nonce_hash = ${nonceHash}`,
      'session_by_nonce',
    );
    return row
      ? { id: row.id, applicationId: row.application_id, createdAt: row.created_at, expiresAt: row.expires_at, authorizedAt: row.authorized_at }
      : null;
  }

  /**
   * The UPDATE that authorizes a session, for RecordedWrites.commitStatement: single use, only the first authorize of
   * a pending, live session changes it (compare-and-set); returns its id, or nothing.
   */
  authorizePending(tenantId: string, id: string, data: { permissions: string[]; rules: unknown[] | null; authorizedBy: string; expiresAt: Date }): Prisma.Sql {
    const now = new Date();
    return Prisma.sql`
      UPDATE sessions SET permissions = ${data.permissions}::text[], rules = ${data.rules ? JSON.stringify(data.rules) : null}::jsonb,
        authorized_by = ${data.authorizedBy}::uuid, expires_at = ${data.expiresAt}::timestamptz, authorized_at = ${now}::timestamptz
      WHERE tenant_id = ${tenantId}::uuid AND id = ${id}::uuid AND authorized_at IS NULL AND expires_at > ${now}::timestamptz
      RETURNING id`;
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
