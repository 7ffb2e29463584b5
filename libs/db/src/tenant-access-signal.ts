import { deferUntilCommitted } from './after-commit';
import { CHANNELS, type PgListener } from './pg-listener';
import type { PrismaService } from './prisma.service';

const TENANT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The receiving side: `handler` gets the tenant id of each notice. A payload that is not a tenant id is ignored, and
 * so is PgListener's call without one when its connection is (re)established (what was sent meanwhile is lost, and
 * left to the caches' TTLs).
 */
export function onTenantAccessChanged(listener: PgListener, handler: (tenantId: string) => void): Promise<void> {
  return listener.on(CHANNELS.tenantAccess, (payload) => {
    if (payload && TENANT_ID.test(payload)) handler(payload);
  });
}

/**
 * The operator CLI, which holds no bus connection, changed who may use a tenant's keys (suspended it, deleted it,
 * reissued its management key): once the act's transaction commits, a `NOTIFY` on CHANNELS.tenantAccess with the
 * tenant id, on a connection of its own (a NOTIFY inside the transaction would serialize commits: outbox-signal.ts).
 * session-service relays it to every gateway, which drops the tenant's cached keys, and every keyring drops the
 * tenant's unwrapped keys; a lost notification leaves them to their caches' TTLs, as before, so its failure never
 * fails the committed act.
 */
export function announceTenantAccessChanged(prisma: PrismaService, tenantId: string): void {
  const notify = () => prisma.root.$executeRaw`SELECT pg_notify(${CHANNELS.tenantAccess}, ${tenantId})`.catch(() => undefined);
  if (!deferUntilCommitted(notify)) void notify();
}
