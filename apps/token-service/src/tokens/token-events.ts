import { actorOf, newEvent, systemActor, type CofferEvent, type Principal } from '@coffer/contracts';
import type { TokenRow } from './token.repository';

/** The token as events show it: the mirrored service's fields, never data, never the mask. */
export function tokenEventView(
  row: Pick<
    TokenRow,
    | 'id'
    | 'type'
    | 'metadata'
    | 'container'
    | 'fingerprint'
    | 'fingerprint_expression'
    | 'search_indexes'
    | 'created_by'
    | 'created_at'
    | 'expires_at'
    | 'modified_by'
    | 'modified_at'
  >,
) {
  return {
    id: row.id,
    type: row.type,
    metadata: row.metadata ?? {},
    containers: [row.container],
    fingerprint: row.fingerprint,
    fingerprint_expression: row.fingerprint_expression,
    search_indexes: row.search_indexes,
    created_by: row.created_by ?? undefined,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at?.toISOString(),
    modified_by: row.modified_by ?? undefined,
    modified_at: row.modified_at?.toISOString(),
  };
}

export function tokenCreated(principal: Principal, traceId: string | undefined, row: Parameters<typeof tokenEventView>[0]): CofferEvent {
  return newEvent('token.created', principal.tenantId, traceId, actorOf(principal), { token: tokenEventView(row) });
}

export function tokenUpdated(principal: Principal, traceId: string | undefined, row: Parameters<typeof tokenEventView>[0]): CofferEvent {
  return newEvent('token.updated', principal.tenantId, traceId, actorOf(principal), { token: tokenEventView(row) });
}

export function tokenDeleted(principal: Principal, traceId: string | undefined, id: string): CofferEvent {
  return newEvent('token.deleted', principal.tenantId, traceId, actorOf(principal), { token: { id } });
}

export function tokenExpired(tenantId: string, id: string): CofferEvent {
  return newEvent('token.expired', tenantId, undefined, systemActor('expiry-sweeper'), { token: { id } });
}
