import { randomUUID } from 'node:crypto';
import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Prisma, PrismaService, SqlPool, auditInsert, inTransaction, type AuditEvent } from '@coffer/db';
import { GroupCommitQueue } from '../group-commit/group-commit-queue';

export interface AuditEventInput {
  actorApplicationId?: string;
  /** `convert`: a token intent made into a token (docs/token-intents.md) */
  operation: 'create' | 'read' | 'update' | 'delete' | 'use' | 'search' | 'invoke' | 'proxy' | 'convert';
  entityType: 'token' | 'reactor' | 'proxy' | 'token_intent';
  entityId: string;
  traceId?: string;
  /** `{field: {old?, new?}}`; never data */
  changes?: Record<string, { old?: unknown; new?: unknown }>;
}

interface Pending {
  rows: Array<{
    id: string;
    tenantId: string;
    actorApplicationId: string | null;
    operation: string;
    entityType: string;
    entityId: string;
    traceId: string | null;
    changes: string | null;
  }>;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** GET /logs filters; every one optional. */
export interface AuditEventFilter {
  entityType?: string;
  entityId?: string;
  actorId?: string;
  actorType?: string;
  traceId?: string;
  operation?: string;
  /** created at or after */
  from?: Date;
  /** created at or before */
  to?: Date;
}

/**
 * The INSERT that audits a read inside the statement that reads it (TokenRepository.findAudited): one round trip and one
 * commit, where a read then a group-committed batch took two round trips in a row. `rows` names a CTE with the
 * `tenant_id`, `id` and `container` of tokens; only rows passing `allowed` are audited. Never data.
 */
export function readEventInsert(rows: Prisma.Sql, allowed: Prisma.Sql, actorApplicationId: string | undefined, traceId: string | undefined): Prisma.Sql {
  return auditInsert(
    {
      tenantId: Prisma.sql`tenant_id`,
      actorApplicationId: actorApplicationId ?? null,
      operation: 'read',
      entityType: 'token',
      entityId: Prisma.sql`id`,
      traceId: traceId ?? null,
    },
    rows,
    { where: allowed, returning: Prisma.sql`entity_id` },
  );
}

/**
 * The INSERT that audits a create inside the statement that writes the token (TokenRepository.insert): one round trip
 * and one commit for the whole create. `rows` names a CTE with the `id` of the inserted token; nothing is written
 * unless `audited` (a parameter, so the statement's text stays the same and it stays prepared either way).
 */
export function createEventInsert(rows: Prisma.Sql, tenantId: string, actorApplicationId: string | null, traceId: string | null, audited: boolean): Prisma.Sql {
  return auditInsert({ tenantId, actorApplicationId, operation: 'create', entityType: 'token', entityId: Prisma.sql`id`, traceId }, rows, {
    where: Prisma.sql`${audited}::boolean`,
  });
}

/**
 * The INSERT that audits a token's update or delete inside the statement that changes it (TokenRepository.update,
 * delete): the change and its record commit together, in one statement. `rows` names a CTE with the `id` of the
 * changed token (none: nothing changed, nothing recorded).
 */
export function changeEventInsert(
  rows: Prisma.Sql,
  tenantId: string,
  operation: 'update' | 'delete',
  by: { actorApplicationId: string | null; traceId: string | null },
): Prisma.Sql {
  return auditInsert(
    { tenantId, actorApplicationId: by.actorApplicationId, operation, entityType: 'token', entityId: Prisma.sql`id`, traceId: by.traceId },
    rows,
  );
}

/** The multi-row INSERT of recorded events (a group-committed batch, or the events of one unit of work). */
function eventsInsert(rows: Pending['rows']): Prisma.Sql {
  const t = (column: string) => Prisma.raw(`t.${column}`);
  return auditInsert(
    {
      id: t('id'),
      tenantId: t('tenant_id'),
      actorApplicationId: t('actor_application_id'),
      operation: t('operation'),
      entityType: t('entity_type'),
      entityId: t('entity_id'),
      traceId: t('trace_id'),
      changes: t('changes'),
    },
    Prisma.sql`unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => r.tenantId)}::uuid[],
      ${rows.map((r) => r.actorApplicationId)}::uuid[], ${rows.map((r) => r.operation)}::text[], ${rows.map((r) => r.entityType)}::text[],
      ${rows.map((r) => r.entityId)}::text[], ${rows.map((r) => r.traceId)}::text[], ${rows.map((r) => r.changes)}::jsonb[])
      AS t(id, tenant_id, actor_application_id, operation, entity_type, entity_id, trace_id, changes)`,
  );
}

const isUuidText = (v: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);

const MAX_BATCH = 500;
/** INSERTs in flight at once; the token-service pool (DATABASE_POOL_SIZE, 10) keeps connections for the reads */
const MAX_FLUSHES = 4;

/**
 * token-service's audit records, and those reactor-service and proxy-service send over token.audit.record (the other
 * services and the operator CLI write theirs in their own transactions through libs/db's auditRecordsInsert; every
 * statement is libs/db's auditInsert). `record` is the API; the two statement fragments above are for the reads and
 * creates whose record rides in their own statement. Never data.
 *
 * Inside a unit of work (PrismaService.transactional) `record` writes in that transaction: the events commit with the
 * change they describe, or not at all. Outside one, group commit (GroupCommitQueue): callers wait until their events are written, but the events recorded during one event-loop iteration
 * share one multi-row INSERT, so auditing every read costs one round trip per batch instead of one per request.
 * A batch starts at the end of the iteration, beside the batches already being written (up to MAX_FLUSHES): a read
 * waits for its own commit only, never for an earlier batch to finish first. Only when MAX_FLUSHES are running do
 * events queue, and then the next free slot writes everything queued at once.
 */
@Injectable()
export class AuditRepository implements OnApplicationShutdown {
  private readonly queue = new GroupCommitQueue<Pending>({ maxInFlight: MAX_FLUSHES, take: upToRows, run: (batch) => this.flush(batch) });

  constructor(
    private readonly sql: SqlPool,
    private readonly prisma: PrismaService,
  ) {}

  /** The tenant's events, newest first, and how many match in all. */
  async page(tenantId: string, filter: AuditEventFilter, offset: number, limit: number): Promise<{ rows: AuditEvent[]; total: number }> {
    const where: Prisma.AuditEventWhereInput = {
      tenantId,
      ...(filter.entityType ? { entityType: filter.entityType } : {}),
      ...(filter.entityId ? { entityId: filter.entityId } : {}),
      ...(filter.traceId ? { traceId: filter.traceId } : {}),
      ...(filter.operation ? { operation: filter.operation } : {}),
      // token rows name their actor by actor_application_id only (an application, or the application of a session)
      ...(filter.actorId
        ? { OR: [{ actorId: filter.actorId }, ...(isUuidText(filter.actorId) ? [{ actorId: null, actorApplicationId: filter.actorId }] : [])] }
        : {}),
      ...(filter.actorType
        ? filter.actorType === 'application'
          ? { AND: [{ OR: [{ actorType: 'application' }, { actorType: null, actorApplicationId: { not: null } }] }] }
          : { actorType: filter.actorType }
        : {}),
      ...(filter.from || filter.to ? { createdAt: { ...(filter.from ? { gte: filter.from } : {}), ...(filter.to ? { lte: filter.to } : {}) } } : {}),
    };
    const [rows, total] = await Promise.all([
      this.prisma.auditEvent.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: offset, take: limit }),
      this.prisma.auditEvent.count({ where }),
    ]);
    return { rows, total };
  }

  /**
   * Resolves once the events are written: inside a unit of work, in its transaction (they commit with it); outside,
   * committed by the next group commit.
   */
  record(tenantId: string, events: AuditEventInput[]): Promise<void> {
    if (!events.length) return Promise.resolve();
    const rows = events.map((e) => ({
      id: randomUUID(),
      tenantId,
      actorApplicationId: e.actorApplicationId ?? null,
      operation: e.operation,
      entityType: e.entityType,
      entityId: e.entityId,
      traceId: e.traceId ?? null,
      changes: e.changes ? JSON.stringify(e.changes) : null,
    }));
    if (inTransaction()) return this.sql.query(eventsInsert(rows)).then(() => undefined);
    return new Promise<void>((resolve, reject) => this.queue.add({ rows, resolve, reject }));
  }

  private async flush(batch: Pending[]): Promise<void> {
    try {
      await this.sql.query(eventsInsert(batch.flatMap((b) => b.rows)));
      for (const b of batch) b.resolve();
    } catch (err) {
      for (const b of batch) b.reject(err);
    }
  }

  onApplicationShutdown(): Promise<void> {
    return this.queue.drained();
  }
}

/** The oldest records, about MAX_BATCH rows (a caller's rows are never split). */
function upToRows(queue: Pending[]): { batch: Pending[]; rest: Pending[] } {
  let n = 0;
  for (let size = 0; n < queue.length && size < MAX_BATCH; n++) size += queue[n].rows.length;
  return { batch: queue.slice(0, n), rest: queue.slice(n) };
}
