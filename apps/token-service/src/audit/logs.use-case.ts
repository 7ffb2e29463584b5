import { Injectable } from '@nestjs/common';
import { FieldErrors, offsetPage, pageOffset, parsePageRequest, type Page, type Principal } from '@coffer/contracts';
import { AuditRepository } from './audit.repository';
import { STORABLE_DATE_MESSAGE, storableDate } from '../storable-date';

export interface AuditEventView {
  id: string;
  tenant_id: string;
  actor_application_id?: string;
  /** the same application, under the names clients of the mirrored service read */
  actor_id?: string;
  actor_type?: 'application';
  /** a sentence for people: "Token read", "Reactor invoked" */
  message: string;
  operation: string;
  entity_type: string;
  entity_id: string;
  trace_id?: string;
  created_at: string;
}

const PAST_TENSE: Record<string, string> = {
  create: 'created',
  read: 'read',
  update: 'updated',
  delete: 'deleted',
  use: 'used',
  search: 'searched',
  invoke: 'invoked',
};

/** "Token created" from entity type and operation: never anything of the data. */
export function logMessage(entityType: string, operation: string): string {
  const entity = entityType.charAt(0).toUpperCase() + entityType.slice(1);
  return `${entity} ${PAST_TENSE[operation] ?? operation}`;
}

/** GET /logs (log:read): the tenant's audit events, newest first, filtered by entity and time. */
@Injectable()
export class ListLogsUseCase {
  constructor(private readonly audit: AuditRepository) {}

  async execute(principal: Principal, query: Record<string, unknown>): Promise<Page<AuditEventView>> {
    const errors = new FieldErrors();
    const page = parsePageRequest(query, errors);
    const one = (k: string) => {
      const v = query[k];
      return v === undefined ? undefined : String(Array.isArray(v) ? v[0] : v);
    };
    const date = (k: string) => {
      const v = one(k);
      if (v === undefined) return undefined;
      const d = storableDate(v);
      if (!d) errors.add(k, STORABLE_DATE_MESSAGE);
      return d ?? undefined;
    };
    const start = date('start_date');
    const end = date('end_date');
    errors.throwIfAny('The query is invalid');
    const filter = { entityType: one('entity_type'), entityId: one('entity_id'), from: start, to: end };
    const { rows, total } = await this.audit.page(principal.tenantId, filter, pageOffset(page), page.size);
    return offsetPage(
      rows.map((r) => {
        const v: AuditEventView = {
          id: r.id,
          tenant_id: r.tenantId,
          operation: r.operation,
          entity_type: r.entityType,
          entity_id: r.entityId,
          message: logMessage(r.entityType, r.operation),
          created_at: r.createdAt.toISOString(),
        };
        if (r.actorApplicationId) {
          v.actor_application_id = r.actorApplicationId;
          v.actor_id = r.actorApplicationId;
          v.actor_type = 'application';
        }
        if (r.traceId) v.trace_id = r.traceId;
        return v;
      }),
      total,
      page,
    );
  }
}
