import { actorOf, newEvent, type CofferEvent, type Principal } from '@coffer/contracts';
import { redactedUrl } from '@coffer/egress';
import type { ProxyRow } from './proxy.repository';

/** A proxy as events show it: never its key, configuration or transforms. */
export function proxyEvent(type: 'proxy.created' | 'proxy.updated', principal: Principal, traceId: string | undefined, row: ProxyRow): CofferEvent {
  return newEvent(type, principal.tenantId, traceId, actorOf(principal), {
    proxy: {
      id: row.id,
      name: row.name,
      // origin and path: a query often carries a credential, and events reach every subscribed receiver
      destination_url: redactedUrl(row.destinationUrl),
      require_auth: row.requireAuth,
      created_at: row.createdAt.toISOString(),
      created_by: row.createdBy ?? undefined,
      modified_by: row.modifiedBy ?? undefined,
      modified_at: row.modifiedAt?.toISOString(),
    },
  });
}

export function proxyDeleted(principal: Principal, traceId: string | undefined, id: string): CofferEvent {
  return newEvent('proxy.deleted', principal.tenantId, traceId, actorOf(principal), { proxy: { id } });
}
