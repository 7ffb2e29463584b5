import { Prisma } from './generated/prisma/client';

/**
 * A claim's condition that the row's tenant is not suspended (`admin tenants suspend`): the queued work of a
 * suspended tenant (asynchronous reactor jobs, webhook deliveries and their retries) stays queued, untouched, and is
 * claimed again once the tenant is resumed. `tenantId` is the claimed row's tenant column, qualified (e.g.
 * `Prisma.raw('d.tenant_id')`). The tenants table is session-service's; the claims only read its standing, as the
 * keyring reads whether a tenant was deleted (docs/operations.md, "Suspending a tenant").
 */
export function tenantNotSuspended(tenantId: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`NOT EXISTS (SELECT 1 FROM tenants t WHERE t.id = ${tenantId} AND t.suspended_at IS NOT NULL)`;
}
