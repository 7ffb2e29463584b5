/**
 * `audit verify | export | retention | prune` (docs/audit.md): the operator's side of the tamper-evident audit trail.
 */
import type { ParseArgsConfig } from 'node:util';
import { AuditLedger } from '@coffer/db';
import { csvRow } from '@coffer/csv';
import { UsageError, commandsOf, type Command, type CommandContext } from '../cli/command';
import { loadAdminConfig } from '../config';

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

type AuditContext = Pick<CommandContext, 'values' | 'json' | 'prisma' | 'out' | 'err' | 'transaction' | 'audit'>;

async function audit(ctx: AuditContext, command: string): Promise<number> {
  const { values, json } = ctx;
  const ledger = new AuditLedger(ctx.prisma);
  const tenant = typeof values['tenant'] === 'string' ? values['tenant'] : undefined;
  if (tenant !== undefined && !UUID.test(tenant)) throw new UsageError('--tenant must be a tenant id (a UUID)');
  if (command === 'verify') {
    const tenants = tenant ? [tenant] : await ledger.tenants();
    const reports = [];
    for (const t of tenants) reports.push(await ledger.verify(t));
    const ok = reports.every((r) => r.ok);
    if (json) ctx.out(JSON.stringify({ ok, chains: reports }));
    else {
      for (const r of reports)
        ctx.out(
          r.ok
            ? `ok      ${r.tenantId}  ${r.records} record(s), #${r.anchorSeq + 1}..#${r.headSeq}${r.unsealed ? `, ${r.unsealed} old record(s) not sealed yet` : ''}`
            : `BROKEN  ${r.tenantId}  ${r.break?.detail}`,
        );
      if (!reports.length) ctx.out('no audit chains yet');
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
    if (!tenant || (format !== 'ndjson' && format !== 'csv') || since === null || until === null)
      throw new UsageError('--tenant is required; --since/--until are ISO 8601 dates; --format is ndjson or csv');
    if (format === 'csv') ctx.out(csvRow(EXPORT_COLUMNS));
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
        ctx.out(format === 'csv' ? csvRow(EXPORT_COLUMNS.map((c) => out[c])) : JSON.stringify(out));
        n++;
      }
      afterSeq = (rows[rows.length - 1] as { seq: number }).seq;
    }
    // a read of the trail: recorded once it is done, with what it handed out
    await ctx.transaction(() => ctx.audit('audit_log.export', { tenant_id: tenant, records: n, format }));
    ctx.err(`exported ${n} record(s)`);
    return 0;
  }
  if (command === 'retention') {
    const days = typeof values['days'] === 'string' ? Number(values['days']) : undefined;
    const reset = values['default'] === true;
    if (!tenant || reset === (days !== undefined) || (days !== undefined && (!Number.isInteger(days) || days < 1 || days > 36_500)))
      throw new UsageError('--tenant and one of --days or --default are required; --days is a whole number of days, 1 to 36500');
    await ctx.transaction(async () => {
      const [before] = await ctx.prisma.$queryRaw<
        Array<{ retention_days: number | null }>
      >`SELECT retention_days FROM audit_chains WHERE tenant_id = ${tenant}::uuid`;
      await ledger.setRetention(tenant, reset ? null : (days as number));
      await ctx.audit('audit_retention.update', {
        tenant_id: tenant,
        retention_days: reset ? 'default' : days,
        previous_retention_days: before?.retention_days ?? 'default',
      });
    });
    const result = { tenant_id: tenant, retention_days: reset ? null : days };
    ctx.out(json ? JSON.stringify(result) : `audit retention of ${tenant}: ${reset ? 'the default' : `${days} day(s)`}`);
    return 0;
  }
  // prune
  const before = typeof values['before'] === 'string' ? new Date(values['before']) : undefined;
  if (before && (Number.isNaN(before.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(values['before'] as string)))
    throw new UsageError('--before must be an ISO 8601 date-time');
  const defaultDays = loadAdminConfig().auditRetentionDays;
  // Pruning runs in many short transactions (AuditLedger.prune: 1,000 rows each), so no one transaction can hold the
  // act and its record: the intent commits before the first batch, the outcome after the last. Nothing written after
  // the command began is pruned by it, its own intent included, whatever --before says.
  const began = new Date();
  const scope = { ...(tenant ? { tenant_id: tenant } : {}), ...(before ? { before: before.toISOString() } : {}) };
  await ctx.transaction(() => ctx.audit('audit_log.prune', { ...scope, state: 'started' }));
  const pruned: Record<string, number> = {};
  for (const { tenantId, days } of await ledger.retentions(defaultDays)) {
    if (tenant && tenantId !== tenant) continue;
    const cutoff = before ?? new Date(began.getTime() - days * DAY_MS);
    const n = await ledger.prune(tenantId, cutoff < began ? cutoff : began);
    if (n) pruned[tenantId] = n;
  }
  const total = Object.values(pruned).reduce((a, b) => a + b, 0);
  await ctx.transaction(() => ctx.audit('audit_log.prune', { ...scope, records: total, state: 'done' }));
  ctx.out(json ? JSON.stringify({ pruned }) : `pruned ${total} audit record(s)`);
  return 0;
}

export const auditCommands: Command[] = commandsOf(COMMANDS, (name, ctx) => audit(ctx, name.split(' ')[1] as string));
