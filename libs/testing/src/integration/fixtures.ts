import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { AccessRule, ApplicationType, Principal } from '@coffer/contracts';

/** A tenant row (session-service owns the table; other services only need its id to exist for their own rows). */
export async function insertTenant(sql: pg.Pool, settings: Record<string, unknown> = {}, name = 'int-test tenant'): Promise<string> {
  const id = randomUUID();
  await sql.query('INSERT INTO tenants (id, name, settings) VALUES ($1, $2, $3::jsonb)', [id, name, JSON.stringify(settings)]);
  return id;
}

/** A caller as session-service would resolve it from an API key: an application of `tenantId` with these grants. */
export function principalOf(
  tenantId: string,
  grants: { permissions?: string[]; rules?: AccessRule[]; type?: ApplicationType; applicationId?: string } = {},
): Principal {
  return {
    tenantId,
    applicationId: grants.applicationId ?? randomUUID(),
    applicationType: grants.type ?? 'private',
    permissions: grants.permissions ?? [],
    ...(grants.rules ? { rules: grants.rules } : {}),
  };
}
