import { randomUUID } from 'node:crypto';
import { Prisma } from '../generated/prisma/client';
import { GLOBAL_AUDIT_TENANT } from './audit-chain';
import { auditColumnsOf, auditInsert } from './audit-insert';

/** Who did it, as `@coffer/contracts` Actor names it (kept structural here: this lib does not load contracts). */
export interface AuditActor {
  id: string;
  type: 'application' | 'session' | 'user' | 'operator' | 'anonymous' | 'system';
  name?: string;
}

/** One field's change: old and new for settings and names, `redacted` for a secret (never its value). */
export type FieldChange = { old?: unknown; new?: unknown } | { redacted: true };
export type AuditChanges = Record<string, FieldChange>;

/** One audit record as the code that did the act describes it. */
export interface AuditRecordInput {
  /** undefined or null: the global chain (no tenant) */
  tenantId?: string | null;
  actor?: AuditActor;
  /**
   * Token-service's acts on tokens and token intents name no actor, only the application they are attributed to (the
   * caller's, or for a session the public application that created it); an `application` actor fills it too.
   */
  actorApplicationId?: string | null;
  /** create, update, delete, regenerate, authorize, rotate, refuse, … (the act) */
  operation: string;
  /** application, application_key, session, tenant, webhook_secret, reactor, reactor_formula, authentication, … */
  entityType: string;
  entityId: string;
  traceId?: string;
  changes?: AuditChanges;
  /** a refused sign-in: the client address it came from */
  source?: string;
}

/** One refusal window: `count` refusals of `reason` from `source` in the minute starting at `windowStart`. */
export interface RefusalWindow {
  tenantId?: string | null;
  reason: string;
  source: string;
  windowStart: Date;
  count: number;
  traceId?: string;
}

/**
 * The INSERT of recorded acts (any service, the operator CLI): in the caller's transaction when the statement runs in
 * one, so the record commits with the change it describes. The row enters its tenant's hash chain when token-service's
 * sealer (audit-chain-keeper.ts) seals it. `where` makes it conditional: as a part of the write's own statement, the
 * records are written only if the write returned a row (RecordedWrites.commitStatement).
 */
export function auditRecordsInsert(records: AuditRecordInput[], where?: Prisma.Sql): Prisma.Sql {
  const col = <T>(f: (r: AuditRecordInput) => T) => records.map(f);
  return auditInsert(
    { ...auditColumnsOf('t'), changes: Prisma.sql`t.changes::jsonb` },
    Prisma.sql`unnest(${col(() => randomUUID())}::uuid[], ${col((r) => r.tenantId ?? GLOBAL_AUDIT_TENANT)}::uuid[],
      ${col((r) => (r.actor?.type === 'application' ? r.actor.id : (r.actorApplicationId ?? null)))}::uuid[], ${col((r) => r.actor?.type ?? null)}::text[],
      ${col((r) => r.actor?.id ?? null)}::text[], ${col((r) => r.actor?.name ?? null)}::text[], ${col((r) => r.operation)}::text[],
      ${col((r) => r.entityType)}::text[], ${col((r) => r.entityId)}::text[], ${col((r) => r.traceId ?? null)}::text[],
      ${col((r) => (r.changes ? JSON.stringify(r.changes) : null))}::text[], ${col((r) => r.source ?? null)}::text[])
      AS t(id, tenant_id, actor_application_id, actor_type, actor_id, actor_name, operation, entity_type, entity_id, trace_id, changes, source)`,
    { where },
  );
}

/**
 * Adds refusals to their windows: one row per (tenant or global bucket, reason, source, minute), its `count` grown
 * in place while the window is counted. A window sealed into the chain must never change: the sealer seals a window
 * three minutes after it opened (REFUSAL_SEAL_DELAY in audit-ledger.ts), and a count is added only within two and a
 * half minutes of it opening, by the same database clock; a count arriving later still is dropped rather than break
 * the chain. The half minute between is the margin for a statement that started before a seal and ends after it.
 */
export function refusalWindowsUpsert(windows: RefusalWindow[]): Prisma.Sql {
  const col = <T>(f: (w: RefusalWindow) => T) => windows.map(f);
  return Prisma.sql`
    INSERT INTO audit_events AS a (id, tenant_id, actor_type, actor_id, operation, entity_type, entity_id, trace_id, source, count, created_at)
    SELECT id, tenant_id, 'anonymous', source, 'refuse', 'authentication', reason, trace_id, source, count, window_start
    FROM unnest(${col(() => randomUUID())}::uuid[], ${col((w) => w.tenantId ?? GLOBAL_AUDIT_TENANT)}::uuid[], ${col((w) => w.reason)}::text[],
      ${col((w) => w.source)}::text[], ${col((w) => w.count)}::int[], ${col((w) => w.windowStart.toISOString())}::timestamptz[], ${col((w) => w.traceId ?? null)}::text[])
      AS t(id, tenant_id, reason, source, count, window_start, trace_id)
    ON CONFLICT (tenant_id, entity_id, source, created_at) WHERE operation = 'refuse'
    DO UPDATE SET count = a.count + EXCLUDED.count WHERE a.created_at > now() - interval '150 seconds'`;
}

/** Old and new of the fields that differ (deep, by JSON), for settings and names; `secret` fields only say they changed. */
export function changedFields(
  before: object | null | undefined,
  after: object | null | undefined,
  fields: readonly string[],
  secret: readonly string[] = [],
): AuditChanges | undefined {
  const out: AuditChanges = {};
  for (const f of fields) {
    const o = (before as Record<string, unknown> | null | undefined)?.[f];
    const n = (after as Record<string, unknown> | null | undefined)?.[f];
    if (JSON.stringify(o ?? null) === JSON.stringify(n ?? null)) continue;
    if (secret.includes(f)) out[f] = { redacted: true };
    else {
      const c: { old?: unknown; new?: unknown } = {};
      if (o !== undefined && o !== null) c.old = o;
      if (n !== undefined && n !== null) c.new = n;
      out[f] = c;
    }
  }
  return Object.keys(out).length ? out : undefined;
}
