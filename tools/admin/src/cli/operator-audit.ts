import { CHANNELS, auditRecordsInsert, type PrismaService } from '@coffer/db';
import type { Actor } from '@coffer/contracts';

/**
 * An operator's act as one audit record: `tenant.suspend` → operation `suspend` on entity `tenant`; the tenant (when
 * the act names one) owns the record, `entity_id` names the entity when it is not the tenant itself, else the global chain does. The details become `changes` (ids and counts only:
 * the commands never pass a secret).
 */
export async function recordOperatorAct(prisma: PrismaService, actor: Actor, action: string, details: Record<string, unknown>): Promise<void> {
  const dot = action.lastIndexOf('.');
  const entityType = dot > 0 ? action.slice(0, dot).replace(/\./g, '_') : 'operator';
  const operation = dot > 0 ? action.slice(dot + 1) : action;
  const tenantId = typeof details['tenant_id'] === 'string' ? details['tenant_id'] : null;
  const entityId = typeof details['entity_id'] === 'string' ? details['entity_id'] : (tenantId ?? 'all');
  const changes = Object.fromEntries(
    Object.entries(details)
      .filter(([k]) => k !== 'entity_id')
      .map(([k, v]) => [k, { new: v as never }]),
  );
  await prisma.$executeRaw(
    auditRecordsInsert([{ tenantId, actor: { id: actor.id, type: 'operator', name: actor.name }, operation, entityType, entityId, changes }]),
  );
  // token-service's sealer seals it at once rather than at its safety sweep (docs/operations.md, "Idle")
  await prisma.$executeRaw`SELECT pg_notify(${CHANNELS.auditEvents}, '')`;
}
