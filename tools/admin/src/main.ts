/**
 * Operator CLI. stdout carries only the requested result (one JSON object with --json); everything else goes to
 * stderr, so scripts can pipe it.
 *
 *   tenants create --name <name> [--json]   new tenant and its first management key (shown once)
 *   tenants list [--json]
 *   keys rotate                             new data keys for every tenant (old data stays readable)
 *   keys reencrypt                          re-wrap tenant keys under the primary KEK and move token data to the active data keys
 *   formulas import <dir> [--json]          upsert the official reactor formulas of <dir>/*.json (by name)
 *   audit verify [--tenant <id>] [--json]   checks the audit hash chains; exit 1 naming the first altered or missing record
 *   audit export --tenant <id> [--since <iso>] [--until <iso>] [--format ndjson|csv]
 *   audit retention --tenant <id> (--days <n> | --default) [--json]
 *   audit prune [--tenant <id>] [--before <iso>] [--json]
 *                                           deletes audit records past their retention now (token-service also does,
 *                                           hourly); --before: every sealed record written before that instant
 *
 * Every command that changes something is recorded in the audit trail as actor `operator` (--actor <name>, default:
 * the operating system user).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { AuditLedger, GLOBAL_AUDIT_TENANT, KeyringPool, Prisma, PrismaService, auditRecordsInsert, type AuditActor, type AuditRecordInput } from '@coffer/db';
import { FieldErrors, OfficialFormulaDefinition, ProblemError, checkFormulaElements, validateContract } from '@coffer/contracts';
import { ALL_MANAGEMENT_PERMISSIONS } from '@coffer/auth';
import { KeyEncryptionKeys, generateSecret, sha256Hex } from '@coffer/crypto';
import { TenantKeyRepository, TenantKeyring } from '@coffer/crypto/keyring';

interface CommandSpec {
  usage: string;
  summary: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** positional arguments after the command's two words */
  positionals: number;
}

const COMMON = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' }, actor: { type: 'string' } } as const;

/** Every command, its arguments and its help; anything else is refused with usage and exit code 2. */
const COMMANDS: Record<string, CommandSpec> = {
  'tenants create': {
    usage: 'admin tenants create --name <name> [--json]',
    summary: 'creates a tenant and its first management key (the key is shown once)',
    options: { ...COMMON, name: { type: 'string' } },
    positionals: 0,
  },
  'tenants list': { usage: 'admin tenants list [--json]', summary: 'lists the tenants, oldest first', options: COMMON, positionals: 0 },
  'keys rotate': {
    usage: 'admin keys rotate [--json]',
    summary: 'new data keys for every tenant; data under the old keys stays readable',
    options: COMMON,
    positionals: 0,
  },
  'keys reencrypt': {
    usage: 'admin keys reencrypt [--json]',
    summary: "re-wraps the tenants' keys under the primary key-encryption key and moves token data to the active data keys",
    options: COMMON,
    positionals: 0,
  },
  'formulas import': {
    usage: 'admin formulas import <dir> [--json]',
    summary: 'upserts the official reactor formulas of <dir>/*.json (by name)',
    options: COMMON,
    positionals: 1,
  },
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

function record(prisma: PrismaService, actor: AuditActor, ...records: Omit<AuditRecordInput, 'actor'>[]) {
  return prisma.$executeRaw(auditRecordsInsert(records.map((r) => ({ ...r, actor }))));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY_MS = 86_400_000;

function csvCell(v: unknown): string {
  const s = v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

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
    if (format === 'csv') process.stdout.write(`${EXPORT_COLUMNS.join(',')}\n`);
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
        process.stdout.write(format === 'csv' ? `${EXPORT_COLUMNS.map((c) => csvCell(out[c])).join(',')}\n` : `${JSON.stringify(out)}\n`);
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

const USAGE = ['usage:', ...Object.values(COMMANDS).map((c) => `  ${c.usage}`), 'Each command takes --help.'].join('\n');

type Parsed = { command: string; values: Record<string, string | boolean | undefined>; positionals: string[] };

/** The command line, parsed by node:util's parseArgs (strict: an unknown or malformed flag is refused). */
function parseCommandLine(argv: string[]): Parsed | { exit: number; out?: string; err?: string } {
  const [group, action, ...rest] = argv;
  if (group === undefined || group === '--help' || group === '-h') return group === undefined ? { exit: 2, err: USAGE } : { exit: 0, out: USAGE };
  const command = `${group} ${action ?? ''}`.trim();
  const spec = COMMANDS[command];
  if (!spec) return { exit: 2, err: `admin: unknown command "${command}"\n${USAGE}` };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: rest, options: spec.options, strict: true, allowPositionals: true });
  } catch (err) {
    return { exit: 2, err: `admin ${command}: ${err instanceof Error ? err.message : String(err)}\nusage: ${spec.usage}` };
  }
  if (parsed.values['help']) return { exit: 0, out: `usage: ${spec.usage}\n  ${spec.summary}` };
  if (parsed.positionals.length > spec.positionals)
    return { exit: 2, err: `admin ${command}: unexpected argument "${parsed.positionals[spec.positionals]}"\nusage: ${spec.usage}` };
  return { command, values: parsed.values as Parsed['values'], positionals: parsed.positionals };
}

async function createTenant(prisma: PrismaService, name: string, actor: AuditActor) {
  const tenantId = randomUUID();
  const applicationId = randomUUID();
  const managementKey = generateSecret('key');
  await prisma.$transaction([
    prisma.tenant.create({ data: { id: tenantId, name, settings: { deduplicate_tokens: false } } }),
    prisma.application.create({
      data: {
        id: applicationId,
        tenantId,
        name: `${name} management`,
        type: 'management',
        permissions: ALL_MANAGEMENT_PERMISSIONS,
        keys: { create: { id: randomUUID(), tenantId, keyHash: sha256Hex(managementKey) } },
      },
    }),
    record(
      prisma,
      actor,
      { tenantId, operation: 'create', entityType: 'tenant', entityId: tenantId, changes: { name: { new: name } } },
      {
        tenantId,
        operation: 'create',
        entityType: 'application',
        entityId: applicationId,
        changes: { name: { new: `${name} management` }, type: { new: 'management' }, key: { redacted: true } },
      },
    ),
  ]);
  return { tenant_id: tenantId, management_key: managementKey };
}

async function reencrypt(prisma: PrismaService, keyring: TenantKeyring): Promise<{ rewrapped: number; tokens: number }> {
  let rewrapped = 0;
  let tokens = 0;
  for (const t of await prisma.tenant.findMany({ select: { id: true } })) {
    rewrapped += await keyring.rewrapKeys(t.id);
    const active = await keyring.activeDataKeyId(t.id);
    for (;;) {
      const rows = await prisma.token.findMany({
        where: { tenantId: t.id, NOT: { dataKeyId: active } },
        select: { id: true, dataKeyId: true, dataCiphertext: true },
        take: 500,
      });
      if (!rows.length) break;
      for (const row of rows) {
        const data = await keyring.decryptJson(t.id, row.dataKeyId, row.dataCiphertext, `token:${row.id}`);
        const sealed = await keyring.encryptJson(t.id, `token:${row.id}`, data);
        await prisma.token.updateMany({
          where: { tenantId: t.id, id: row.id, dataKeyId: row.dataKeyId },
          data: { dataCiphertext: new Uint8Array(sealed.ciphertext), dataKeyId: sealed.keyId },
        });
        tokens++;
      }
    }
  }
  return { rewrapped, tokens };
}

/**
 * One official formula per <dir>/*.json: {name, description, status, icon?, code | code_file, configuration,
 * request_parameters}; `code_file` is relative to the JSON file. Validated like the API validates private formulas.
 */
function readCatalog(dir: string): Array<{ file: string; data: Omit<Prisma.ReactorFormulaUncheckedCreateInput, 'id'> }> {
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  if (!files.length) throw new Error(`no *.json formula definitions in ${dir}`);
  const problems: string[] = [];
  const out: Array<{ file: string; data: Omit<Prisma.ReactorFormulaUncheckedCreateInput, 'id'> }> = [];
  for (const file of files) {
    const full = path.join(dir, file);
    try {
      const def = JSON.parse(fs.readFileSync(full, 'utf8')) as Record<string, unknown>;
      if (typeof def !== 'object' || def === null || Array.isArray(def)) throw new Error('must hold a JSON object');
      if (def['code'] === undefined && typeof def['code_file'] === 'string')
        def['code'] = fs.readFileSync(path.resolve(path.dirname(full), def['code_file']), 'utf8');
      const errors = new FieldErrors();
      const elements = checkFormulaElements(def, errors);
      const valid = validateContract(OfficialFormulaDefinition, def, errors);
      out.push({
        file,
        data: {
          tenantId: null,
          name: valid.name,
          description: valid.description ?? null,
          type: 'official',
          status: valid.status,
          icon: valid.icon ?? null,
          code: valid.code,
          configuration: elements.configuration as unknown as Prisma.InputJsonValue,
          requestParameters: elements.request_parameters as unknown as Prisma.InputJsonValue,
          // SQL NULL: no list of its own (its reactors get their tenant's default)
          egress: valid.egress ? { allow: valid.egress.allow } : Prisma.DbNull,
        },
      });
    } catch (err) {
      const detail = err instanceof ProblemError ? JSON.stringify(err.problem.errors ?? err.problem.detail) : err instanceof Error ? err.message : String(err);
      problems.push(`${file}: ${detail}`);
    }
  }
  if (problems.length) throw new Error(`invalid formula definitions (nothing imported):\n  ${problems.join('\n  ')}`);
  return out;
}

/** Upserts official formulas by name (tenant_id null), all in one transaction. */
async function importFormulas(prisma: PrismaService, dir: string, actor: AuditActor): Promise<{ created: string[]; updated: string[] }> {
  const catalog = readCatalog(dir);
  const names = catalog.map((c) => c.data.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new Error(`formula name "${dup}" is defined twice`);
  return prisma.$transaction(async (tx) => {
    const created: string[] = [];
    const updated: string[] = [];
    for (const { data } of catalog) {
      const existing = await tx.reactorFormula.findFirst({ where: { tenantId: null, name: data.name }, orderBy: { createdAt: 'asc' } });
      if (existing) {
        await tx.reactorFormula.update({ where: { id: existing.id }, data: { ...data, modifiedAt: new Date() } });
        await tx.$executeRaw(
          auditRecordsInsert([
            {
              actor,
              tenantId: GLOBAL_AUDIT_TENANT,
              operation: 'update',
              entityType: 'reactor_formula',
              entityId: existing.id,
              changes: { name: { new: data.name } },
            },
          ]),
        );
        updated.push(data.name);
      } else {
        const id = randomUUID();
        await tx.reactorFormula.create({ data: { ...data, id } });
        await tx.$executeRaw(
          auditRecordsInsert([
            { actor, tenantId: GLOBAL_AUDIT_TENANT, operation: 'create', entityType: 'reactor_formula', entityId: id, changes: { name: { new: data.name } } },
          ]),
        );
        created.push(data.name);
      }
    }
    return { created, updated };
  });
}

async function main(): Promise<number> {
  const line = parseCommandLine(process.argv.slice(2));
  if ('exit' in line) {
    if (line.out) process.stdout.write(`${line.out}\n`);
    if (line.err) process.stderr.write(`${line.err}\n`);
    return line.exit;
  }
  const { command: cmd, values, positionals } = line;
  const [group, command] = cmd.split(' ');
  const json = values['json'] === true;
  const prisma = new PrismaService();
  try {
    if (group === 'tenants' && command === 'create') {
      const name = values['name'];
      if (typeof name !== 'string' || !name.trim() || name.length > 200) {
        process.stderr.write('tenants create needs --name <name> (1 to 200 characters)\n');
        return 2;
      }
      const created = await createTenant(prisma, name.trim(), operatorOf(values));
      if (json) process.stdout.write(`${JSON.stringify(created)}\n`);
      else process.stdout.write(`tenant ${created.tenant_id}\nmanagement key (shown once): ${created.management_key}\n`);
      return 0;
    }
    if (group === 'tenants' && command === 'list') {
      const tenants = await prisma.tenant.findMany({ orderBy: { createdAt: 'asc' } });
      const view = tenants.map((t) => ({ id: t.id, name: t.name, created_at: t.createdAt.toISOString() }));
      if (json) process.stdout.write(`${JSON.stringify({ data: view })}\n`);
      else for (const t of view) process.stdout.write(`${t.id}  ${t.name}  ${t.created_at}\n`);
      return 0;
    }
    if (group === 'keys' && (command === 'rotate' || command === 'reencrypt')) {
      // a CLI without Nest: the one keyring of this process, built by hand
      const keyPool = new KeyringPool();
      const keyring = new TenantKeyring(new TenantKeyRepository(keyPool), KeyEncryptionKeys.fromEnv());
      try {
        if (command === 'rotate') {
          const tenants = await prisma.tenant.findMany({ select: { id: true } });
          for (const t of tenants) {
            await keyring.rotateDataKeys(t.id);
            await record(prisma, operatorOf(values), { tenantId: t.id, operation: 'rotate', entityType: 'data_key', entityId: t.id });
          }
          const result = { tenants: tenants.length, rotated: 'data keys' };
          process.stdout.write(
            json ? `${JSON.stringify(result)}\n` : `new data keys for ${tenants.length} tenant(s); run "keys reencrypt" to move existing tokens\n`,
          );
        } else {
          const result = await reencrypt(prisma, keyring);
          await record(prisma, operatorOf(values), {
            tenantId: null,
            operation: 'reencrypt',
            entityType: 'data_key',
            entityId: 'all',
            changes: { rewrapped: { new: result.rewrapped }, tokens: { new: result.tokens } },
          });
          process.stdout.write(json ? `${JSON.stringify(result)}\n` : `re-wrapped ${result.rewrapped} key(s), re-encrypted ${result.tokens} token(s)\n`);
        }
      } finally {
        await keyPool.end();
      }
      return 0;
    }
    if (group === 'formulas' && command === 'import') {
      const dir = positionals[0];
      if (!dir || !fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
        process.stderr.write('formulas import needs a directory of *.json formula definitions\n');
        return 2;
      }
      const result = await importFormulas(prisma, dir, operatorOf(values));
      process.stdout.write(json ? `${JSON.stringify(result)}\n` : `official formulas: ${result.created.length} created, ${result.updated.length} updated\n`);
      return 0;
    }
    if (group === 'audit' && command) return await audit(prisma, command, values, json);
    process.stderr.write(`${USAGE}\n`);
    return 2;
  } finally {
    await prisma.$disconnect();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`admin: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
