import { Injectable } from '@nestjs/common';
import type { Principal } from '@coffer/contracts';
import { Prisma, PrismaService, auditInsert, type AuditEvent, type AuditRecordInput } from '@coffer/db';

/** What token-service records of acts on tokens and token intents. */
export type TokenAct = 'create' | 'read' | 'update' | 'delete' | 'use' | 'search' | 'convert';

/**
 * The audit records of `principal`'s `operation` on each of `entityIds` (AuditLog.append writes them): attributed to
 * its application, as every token record is (for a session, the public application that created it). Never data.
 */
export function tokenActs(
  principal: Principal,
  traceId: string | undefined,
  operation: TokenAct,
  entityType: 'token' | 'token_intent',
  ...entityIds: string[]
): AuditRecordInput[] {
  return entityIds.map((entityId) => ({ tenantId: principal.tenantId, actorApplicationId: principal.applicationId, operation, entityType, entityId, traceId }));
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

const isUuidText = (v: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);

/**
 * The audit log's pages (GET /logs), and the statement fragments of the token reads, creates and changes whose record
 * rides in their own statement. Every other record is written by libs/db's AuditLog.append.
 */
@Injectable()
export class AuditRepository {
  constructor(private readonly prisma: PrismaService) {}

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
}
