import { deferUntilCommitted } from './after-commit';
import { CHANNELS } from './pg-listener';
import type { PrismaService } from './prisma.service';

/**
 * The operator CLI, which holds no bus connection, changed who may use a tenant's keys (suspended it, deleted it,
 * reissued its management key): once the act's transaction commits, a `NOTIFY` on CHANNELS.tenantAccess with the
 * tenant id, on a connection of its own (a NOTIFY inside the transaction would serialize commits: outbox-signal.ts).
 * session-service listens and tells every gateway to drop the tenant's cached keys at once; a lost notification
 * leaves them to their cache's TTL (AUTH_CACHE_TTL_MS), as before, so its failure never fails the committed act.
 */
export function announceTenantAccessChanged(prisma: PrismaService, tenantId: string): void {
  const notify = () => prisma.root.$executeRaw`SELECT pg_notify(${CHANNELS.tenantAccess}, ${tenantId})`.catch(() => undefined);
  if (!deferUntilCommitted(notify)) void notify();
}
