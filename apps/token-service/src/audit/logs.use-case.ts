import { Injectable } from '@nestjs/common';
import { ACTOR_TYPES, FieldErrors, type ActorType, offsetPage, pageOffset, parsePageRequest, type Page } from '@coffer/contracts';
import type { AuditEvent } from '@coffer/db';
import { caller } from '@coffer/operations';
import { AuditRepository } from './audit.repository';
import { STORABLE_DATE_MESSAGE, storableDate } from '../storable-date';

export interface AuditEventView {
  id: string;
  tenant_id: string;
  actor_application_id?: string;
  /** the same application, under the names clients of the mirrored service read */
  actor_id?: string;
  actor_type?: ActorType;
  actor_name?: string;
  /** a sentence for people: "Token read", "Reactor invoked" */
  message: string;
  operation: string;
  entity_type: string;
  entity_id: string;
  trace_id?: string;
  /** what changed: {field: {old, new}} or {field: {redacted: true}} */
  changes?: unknown;
  /** refusals: the client address and how many refusals this window holds */
  source?: string;
  count?: number;
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
  regenerate: 'key regenerated',
  authorize: 'authorized',
  rotate: 'rotated',
  refuse: 'refused',
  resend: 'sent again',
  proxy: 'sent',
  convert: 'converted',
  'sign-in': 'signed in',
  'sign-in-refused': 'refused',
  transfer: 'transferred',
};

/** "Token created" from entity type and operation: never anything of the data. */
export function logMessage(entityType: string, operation: string): string {
  const words = entityType.replace(/_/g, ' ');
  const entity = words.charAt(0).toUpperCase() + words.slice(1);
  return `${entity} ${PAST_TENSE[operation] ?? operation}`;
}

/** GET /logs (log:read): the tenant's audit events, newest first, filtered by entity and time. */
@Injectable()
export class ListLogsUseCase {
  constructor(private readonly audit: AuditRepository) {}

  async execute(query: Record<string, unknown>): Promise<Page<AuditEventView>> {
    const principal = caller();
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
    const actorType = one('actor_type');
    if (actorType !== undefined && !(ACTOR_TYPES as readonly string[]).includes(actorType))
      errors.add('actor_type', `must be one of ${ACTOR_TYPES.join(', ')}`);
    for (const k of ['entity_type', 'entity_id', 'actor_id', 'trace_id', 'operation'])
      if ((one(k)?.length ?? 0) > 200) errors.add(k, 'must be at most 200 characters');
    errors.throwIfAny('The query is invalid');
    const filter = {
      entityType: one('entity_type'),
      entityId: one('entity_id'),
      actorId: one('actor_id'),
      actorType,
      traceId: one('trace_id'),
      operation: one('operation'),
      from: start,
      to: end,
    };
    const { rows, total } = await this.audit.page(principal.tenantId, filter, pageOffset(page), page.size);
    return offsetPage(
      rows.map((r) => toAuditEventView(r)),
      total,
      page,
    );
  }
}

/** One row as GET /logs shows it (the chain's seq and hash are in the export: admin audit export): ids, names and changed settings, never sensitive data. */
export function toAuditEventView(r: AuditEvent): AuditEventView {
  const v: AuditEventView = {
    id: r.id,
    tenant_id: r.tenantId,
    operation: r.operation,
    entity_type: r.entityType,
    entity_id: r.entityId,
    message: logMessage(r.entityType, r.operation),
    created_at: r.createdAt.toISOString(),
  };
  if (r.actorApplicationId) v.actor_application_id = r.actorApplicationId;
  if (r.actorType && r.actorId) {
    v.actor_id = r.actorId;
    v.actor_type = r.actorType as NonNullable<AuditEventView['actor_type']>;
    if (r.actorName) v.actor_name = r.actorName;
  } else if (r.actorApplicationId) {
    v.actor_id = r.actorApplicationId;
    v.actor_type = 'application';
  }
  if (r.traceId) v.trace_id = r.traceId;
  if (r.changes !== null && r.changes !== undefined) v.changes = r.changes;
  if (r.source) v.source = r.source;
  if (r.operation === 'refuse') v.count = r.count;
  return v;
}
