/**
 * `audit verify | export | retention | prune` (docs/audit.md): the operator's side of the tamper-evident audit trail.
 */
import os from 'node:os';
import type { ParseArgsConfig } from 'node:util';
import { AuditLedger, CHANNELS, PrismaService, auditRecordsInsert, type AuditActor, type AuditRecordInput } from '@coffer/db';
import { csvRow } from '@coffer/csv';
import { commandsOf, type Command } from '../cli/command';

const COMMON = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' }, actor: { type: 'string' } } as const;

const COMMANDS: Record<string, { usage: string; summary: string; options: NonNullable<ParseArgsConfig['options']>; positionals: number }> = {
  'audit verify': {
    usage: 'admin audit verify [--tenant <id>] [--json]',
    summary: "checks each tenant's audit hash chain from its anchor; exit 1 naming the first altered or missing record",
    options: { ...COMMON, tenant: { type: 'string' } },
    positionals: 0,
  },
  'audit export': {
    usage: 'admin audit export --tenant <id> [--since <iso>] [--until <iso>] [--format ndjson|csv]',
    summary: "writes the tenant's sealed audit records in chain order (with seq and hash, so a copy can be verified) to stdout",
    options: { ...COMMON, tenant: { type: 'string' }, since: { type: 'string' }, until: { type: 'string' }, format: { type: 'string' } },
    positionals: 0,
  },
  'audit retention': {
    usage: 'admin audit retention --tenant <id> (--days <n> | --default) [--json]',
    summary: "sets how many days the tenant's audit records are kept (--default: AUDIT_RETENTION_DAYS, 365 unless set)",
    options: { ...COMMON, tenant: { type: 'string' }, days: { type: 'string' }, default: { type: 'boolean' } },
    positionals: 0,
  },
  'audit prune': {
    usage: 'admin audit prune [--tenant <id>] [--before <iso>] [--json]',
    summary: 'deletes audit records past their retention now (--before: every record written before that instant), oldest first, leaving each chain verifiable',
    options: { ...COMMON, tenant: { type: 'string' }, before: { type: 'string' } },
    positionals: 0,
  },
};

/** The operator as the audit trail names them: --actor, else the operating system user. */
function operatorOf(values: Record<string, string | boolean | undefined>): AuditActor {
  const given = typeof values['actor'] === 'string' && values['actor'].trim() ? values['actor'].trim().slice(0, 200) : undefined;
  let name = given;
  if (!name) {
    try {
      name = os.userInfo().username;
    } catch {
      name = 'unknown';
    }
  }
  return { id: name, type: 'operator', name };
}

async function record(prisma: PrismaService, actor: AuditActor, ...records: Omit<AuditRecordInput, 'actor'>[]): Promise<number> {
  const n = await prisma.$executeRaw(auditRecordsInsert(records.map((r) => ({ ...r, actor }))));
  // token-service's sealer seals them at once rather than at its safety sweep (docs/operations.md, "Idle")
  await prisma.$executeRaw`SELECT pg_notify(${CHANNELS.auditEvents}, '')`;
  return n;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY_MS = 86_400_000;

const EXPORT_COLUMNS = [
  'seq',
  'id',
  'tenant_id',
  'created_at',
  'actor_type',
  'actor_id',
  'actor_name',
  'actor_application_id',
  'operation',
  'entity_type',
  'entity_id',
  'trace_id',
  'source',
  'count',
  'changes',
  'hash',
] as const;

async function audit(prisma: PrismaService, command: string, values: Record<string, string | boolean | undefined>, json: boolean): Promise<number> {
  const ledger = new AuditLedger(prisma);
  const tenant = typeof values['tenant'] === 'string' ? values['tenant'] : undefined;
  if (tenant !== undefined && !UUID.test(tenant)) {
    process.stderr.write(`audit ${command}: --tenant must be a tenant id (a UUID)\n`);
    return 2;
  }
  if (command === 'verify') {
    const tenants = tenant ? [tenant] : await ledger.tenants();
    const reports = [];
    for (const t of tenants) reports.push(await ledger.verify(t));
    const ok = reports.every((r) => r.ok);
    if (json) process.stdout.write(`${JSON.stringify({ ok, chains: reports })}\n`);
    else {
      for (const r of reports)
        process.stdout.write(
          r.ok
            ? `ok      ${r.tenantId}  ${r.records} record(s), #${r.anchorSeq + 1}..#${r.headSeq}${r.unsealed ? `, ${r.unsealed} old record(s) not sealed yet` : ''}\n`
            : `BROKEN  ${r.tenantId}  ${r.break?.detail}\n`,
        );
      if (!reports.length) process.stdout.write('no audit chains yet\n');
    }
    return ok ? 0 : 1;
  }
  if (command === 'export') {
    const format = values['format'] ?? 'ndjson';
    const date = (k: string) => {
      const v = values[k];
      if (v === undefined) return undefined;
      const d = typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) ? new Date(v) : new Date(NaN);
      return Number.isNaN(d.getTime()) ? null : d;
    };
    const since = date('since');
    const until = date('until');
    if (!tenant || (format !== 'ndjson' && format !== 'csv') || since === null || until === null) {
      process.stderr.write(`usage: ${COMMANDS['audit export']?.usage}\n  --tenant is required; --since/--until are ISO 8601 dates\n`);
      return 2;
    }
    if (format === 'csv') process.stdout.write(`${csvRow(EXPORT_COLUMNS)}\n`);
    let afterSeq = 0;
    let n = 0;
    for (;;) {
      const rows = await ledger.page(tenant, { since, until, afterSeq, limit: 1000 });
      if (!rows.length) break;
      for (const r of rows) {
        const out: Record<(typeof EXPORT_COLUMNS)[number], unknown> = {
          seq: r.seq,
          id: r.id,
          tenant_id: r.tenantId,
          created_at: r.createdAt.toISOString(),
          actor_type: r.actorType ?? (r.actorApplicationId ? 'application' : null),
          actor_id: r.actorId ?? r.actorApplicationId,
          actor_name: r.actorName,
          actor_application_id: r.actorApplicationId,
          operation: r.operation,
          entity_type: r.entityType,
          entity_id: r.entityId,
          trace_id: r.traceId,
          source: r.source,
          count: r.count,
          changes: r.changes ?? null,
          hash: r.hash,
        };
        process.stdout.write(format === 'csv' ? `${csvRow(EXPORT_COLUMNS.map((c) => out[c]))}\n` : `${JSON.stringify(out)}\n`);
        n++;
      }
      afterSeq = (rows[rows.length - 1] as { seq: number }).seq;
    }
    await record(prisma, operatorOf(values), {
      tenantId: tenant,
      operation: 'export',
      entityType: 'audit_log',
      entityId: tenant,
      changes: { records: { new: n }, format: { new: format } },
    });
    process.stderr.write(`exported ${n} record(s)\n`);
    return 0;
  }
  if (command === 'retention') {
    const days = typeof values['days'] === 'string' ? Number(values['days']) : undefined;
    const reset = values['default'] === true;
    if (!tenant || reset === (days !== undefined) || (days !== undefined && (!Number.isInteger(days) || days < 1 || days > 36_500))) {
      process.stderr.write(`usage: ${COMMANDS['audit retention']?.usage}\n  --days is a whole number of days, 1 to 36500\n`);
      return 2;
    }
    await prisma.transactional(async () => {
      const [before] = await prisma.$queryRaw<
        Array<{ retention_days: number | null }>
      >`SELECT retention_days FROM audit_chains WHERE tenant_id = ${tenant}::uuid`;
      await ledger.setRetention(tenant, reset ? null : (days as number));
      await record(prisma, operatorOf(values), {
        tenantId: tenant,
        operation: 'update',
        entityType: 'audit_retention',
        entityId: tenant,
        changes: { retention_days: { old: before?.retention_days ?? 'default', new: reset ? 'default' : days } },
      });
    });
    const result = { tenant_id: tenant, retention_days: reset ? null : days };
    process.stdout.write(json ? `${JSON.stringify(result)}\n` : `audit retention of ${tenant}: ${reset ? 'the default' : `${days} day(s)`}\n`);
    return 0;
  }
  // prune
  const defaultDays = Number(process.env['AUDIT_RETENTION_DAYS'] ?? 365);
  if (!Number.isInteger(defaultDays) || defaultDays < 1) {
    process.stderr.write('AUDIT_RETENTION_DAYS must be a whole number of days\n');
    return 2;
  }
  const before = typeof values['before'] === 'string' ? new Date(values['before']) : undefined;
  if (before && (Number.isNaN(before.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(values['before'] as string))) {
    process.stderr.write('audit prune: --before must be an ISO 8601 date-time\n');
    return 2;
  }
  const pruned: Record<string, number> = {};
  for (const { tenantId, days } of await ledger.retentions(defaultDays)) {
    if (tenant && tenantId !== tenant) continue;
    const n = await ledger.prune(tenantId, before ?? new Date(Date.now() - days * DAY_MS));
    if (n) pruned[tenantId] = n;
  }
  const total = Object.values(pruned).reduce((a, b) => a + b, 0);
  const changes: NonNullable<AuditRecordInput['changes']> = { records: { new: total } };
  if (before) changes['before'] = { new: before.toISOString() };
  await record(prisma, operatorOf(values), { tenantId: tenant ?? null, operation: 'prune', entityType: 'audit_log', entityId: tenant ?? 'all', changes });
  process.stdout.write(json ? `${JSON.stringify({ pruned })}\n` : `pruned ${total} audit record(s)\n`);
  return 0;
}

export const auditCommands: Command[] = commandsOf(COMMANDS, (name, ctx) => audit(ctx.prisma, name.split(' ')[1], ctx.values, ctx.json));
