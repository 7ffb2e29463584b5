import { CHANNELS, auditRecordsInsert, deferUntilCommitted, inTransaction, type PrismaService } from '@coffer/db';
import type { Actor } from '@coffer/contracts';

/**
 * An operator's act as one audit record: `tenant.suspend` → operation `suspend` on entity `tenant`; the tenant (when
 * the act names one) owns the record, `entity_id` names the entity when it is not the tenant itself, else the global chain does. The details become `changes` (ids and counts only:
 * the commands never pass a secret).
 *
 * Written inside the act's own transaction (CommandContext.transaction), so the act and its record commit together or
 * not at all: outside one it is refused. An act that spans many transactions (a purge, a re-encryption, a rotation)
 * records its intent before its first change and its outcome after its last (docs/keys-rotation.md, "Auditability").
 * Once the transaction committed, `line` gets the record as the CLI's stderr JSON line and the audit sealer is woken.
 */
export async function recordOperatorAct(
  prisma: PrismaService,
  actor: Actor,
  action: string,
  details: Record<string, unknown>,
  line: (text: string) => void,
): Promise<void> {
  if (!inTransaction()) throw new Error(`the audit record of ${action} must be written in the transaction of the act (CommandContext.transaction)`);
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
  const text = JSON.stringify({ audit: { at: new Date().toISOString(), actor, action, ...details } });
  deferUntilCommitted(async () => {
    line(text);
    // token-service's sealer seals it at once rather than at its safety sweep (docs/operations.md, "Idle"). After the
    // commit, on a connection of its own: a NOTIFY inside the transaction would serialize commits (libs/db
    // outbox-signal.ts), and a lost one only waits for the sweep, so its failure never fails the committed act.
    await prisma.root.$executeRaw`SELECT pg_notify(${CHANNELS.auditEvents}, '')`.catch(() => undefined);
  });
}
