import { actorOf, newEvent, type CofferEvent, type EventType, type Principal } from '@coffer/contracts';

interface Described {
  id: string;
  name: string;
  createdAt: Date;
  createdBy: string | null;
  modifiedBy: string | null;
  modifiedAt: Date | null;
}

/** A reactor or formula as events show it: who made it and when, never its configuration or code. */
function eventView(row: Described, extra: Record<string, unknown> = {}) {
  return {
    id: row.id,
    name: row.name,
    ...extra,
    created_at: row.createdAt.toISOString(),
    created_by: row.createdBy ?? undefined,
    modified_by: row.modifiedBy ?? undefined,
    modified_at: row.modifiedAt?.toISOString(),
  };
}

export function reactorEvent(
  type: Extract<EventType, 'reactor.created' | 'reactor.updated'>,
  principal: Principal,
  traceId: string | undefined,
  row: Described,
): CofferEvent {
  return newEvent(type, principal.tenantId, traceId, actorOf(principal), { reactor: eventView(row) });
}

export function reactorDeleted(principal: Principal, traceId: string | undefined, id: string): CofferEvent {
  return newEvent('reactor.deleted', principal.tenantId, traceId, actorOf(principal), { reactor: { id } });
}

export function formulaEvent(
  type: Extract<EventType, 'reactor-formula.created' | 'reactor-formula.updated'>,
  principal: Principal,
  traceId: string | undefined,
  row: Described & { type: string },
): CofferEvent {
  return newEvent(type, principal.tenantId, traceId, actorOf(principal), { reactor_formula: eventView(row, { type: row.type }) });
}

export function formulaDeleted(principal: Principal, traceId: string | undefined, id: string): CofferEvent {
  return newEvent('reactor-formula.deleted', principal.tenantId, traceId, actorOf(principal), { reactor_formula: { id } });
}
