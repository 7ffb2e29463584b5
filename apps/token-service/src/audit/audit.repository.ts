import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PrismaService } from '@coffer/db';

export interface AuditEventInput {
  actorApplicationId?: string;
  operation: 'create' | 'read' | 'update' | 'delete' | 'use' | 'search' | 'invoke';
  entityType: 'token' | 'reactor';
  entityId: string;
  traceId?: string;
}

/** audit_events (owned by token-service; reactor-service writes through its own copy of this contract). Never data. */
@Injectable()
export class AuditRepository {
  constructor(private readonly prisma: PrismaService) {}

  async record(tenantId: string, events: AuditEventInput[]): Promise<void> {
    if (!events.length) return;
    await this.prisma.auditEvent.createMany({
      data: events.map((e) => ({
        id: randomUUID(),
        tenantId,
        actorApplicationId: e.actorApplicationId ?? null,
        operation: e.operation,
        entityType: e.entityType,
        entityId: e.entityId,
        traceId: e.traceId ?? null,
      })),
    });
  }
}
