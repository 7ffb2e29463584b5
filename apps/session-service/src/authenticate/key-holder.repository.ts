import { Injectable } from '@nestjs/common';
import { Prisma, SqlPool } from '@coffer/db';

/** The owner of a key hash as authentication needs it, with its tenant's standing. */
export type KeyHolder = { tenantId: string; tenantGone: boolean; tenantSuspended: boolean } & (
  | { kind: 'application'; applicationId: string; applicationType: string; permissions: string[]; rules: unknown }
  | {
      kind: 'session';
      sessionId: string;
      /** the public application that created the session; `ownerExists` false once it is deleted */
      applicationId: string;
      ownerExists: boolean;
      permissions: string[];
      rules: unknown;
      expiresAt: Date;
      authorizedAt: Date | null;
      /** the application that authorized it, when it did and still exists */
      authorizer: { applicationId: string; permissions: string[]; rules: unknown } | null;
    }
);

interface Row {
  kind: 'application' | 'session';
  tenant_id: string;
  application_id: string;
  application_type: string;
  permissions: string[];
  rules: unknown;
  session_id: string | null;
  expires_at: Date | null;
  authorized_at: Date | null;
  owner_exists: boolean;
  authorizer_id: string | null;
  authorizer_permissions: string[] | null;
  authorizer_rules: unknown;
  tenant_gone: boolean;
  tenant_suspended: boolean;
}

/**
 * Who holds a key, found by its hash in one statement: an application key's application, or a session with the
 * applications it depends on (its creator, its authorizer), each with the tenant's standing. Every key the gateway
 * has not cached asks this, and a checkout page's session key is new each visit: one round trip instead of the five
 * lookups it took one at a time.
 */
@Injectable()
export class KeyHolderRepository {
  constructor(private readonly sql: SqlPool) {}

  async findByKeyHash(keyHash: string): Promise<KeyHolder | null> {
    const [row] = await this.sql.query<Row>(
      Prisma.sql`
        SELECT k.*, t.id IS NULL OR t.deleted_at IS NOT NULL AS tenant_gone, t.suspended_at IS NOT NULL AS tenant_suspended
        FROM (
          SELECT 'application' AS kind, a.tenant_id, a.id AS application_id, a.type AS application_type, a.permissions, a.rules,
            NULL::uuid AS session_id, NULL::timestamptz AS expires_at, NULL::timestamptz AS authorized_at, true AS owner_exists,
            NULL::uuid AS authorizer_id, NULL::text[] AS authorizer_permissions, NULL::jsonb AS authorizer_rules
          FROM application_keys ak JOIN applications a ON a.id = ak.application_id
          WHERE ak.key_hash = ${keyHash}
          UNION ALL
          SELECT 'session', s.tenant_id, s.application_id, 'public', s.permissions, s.rules, s.id, s.expires_at, s.authorized_at,
            o.id IS NOT NULL, z.id, z.permissions, z.rules
          FROM sessions s
          LEFT JOIN applications o ON o.tenant_id = s.tenant_id AND o.id = s.application_id
          LEFT JOIN applications z ON z.tenant_id = s.tenant_id AND z.id = s.authorized_by
          WHERE s.key_hash = ${keyHash}
        ) k LEFT JOIN tenants t ON t.id = k.tenant_id
        ORDER BY k.kind
        LIMIT 1`,
      'key_holder',
    );
    if (!row) return null;
    const tenant = { tenantId: row.tenant_id, tenantGone: row.tenant_gone, tenantSuspended: row.tenant_suspended };
    if (row.kind === 'application')
      return {
        ...tenant,
        kind: 'application',
        applicationId: row.application_id,
        applicationType: row.application_type,
        permissions: row.permissions,
        rules: row.rules,
      };
    return {
      ...tenant,
      kind: 'session',
      sessionId: row.session_id as string,
      applicationId: row.application_id,
      ownerExists: row.owner_exists,
      permissions: row.permissions,
      rules: row.rules,
      expiresAt: row.expires_at as Date,
      authorizedAt: row.authorized_at,
      authorizer: row.authorizer_id ? { applicationId: row.authorizer_id, permissions: row.authorizer_permissions ?? [], rules: row.authorizer_rules } : null,
    };
  }
}
