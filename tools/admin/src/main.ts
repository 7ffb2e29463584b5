/**
 * Operator CLI. stdout carries only the requested result (one JSON object with --json); everything else goes to
 * stderr, so scripts can pipe it.
 *
 *   tenants create --name <name> [--json]   new tenant and its first management key (shown once)
 *   tenants list [--json]
 *   keys rotate                             new data keys for every tenant (old data stays readable)
 *   keys reencrypt                          re-wrap tenant keys under the primary KEK and move token data to the active data keys
 *   formulas import <dir> [--json]          upsert the official reactor formulas of <dir>/*.json (by name)
 *   webhooks deliveries|resend …            event deliveries of a webhook (webhook-deliveries.ts)
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { KeyringPool, Prisma, PrismaService } from '@coffer/db';
import { FieldErrors, OfficialFormulaDefinition, ProblemError, checkFormulaElements, validateContract } from '@coffer/contracts';
import { ALL_MANAGEMENT_PERMISSIONS } from '@coffer/auth';
import { KeyEncryptionKeys, generateSecret, sha256Hex } from '@coffer/crypto';
import { TenantKeyRepository, TenantKeyring } from '@coffer/crypto/keyring';
import { WEBHOOK_COMMANDS, runWebhookCommand } from './webhook-deliveries';

interface CommandSpec {
  usage: string;
  summary: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** positional arguments after the command's two words */
  positionals: number;
}

const COMMON = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

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
  ...WEBHOOK_COMMANDS,
};

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

async function createTenant(prisma: PrismaService, name: string) {
  const tenantId = randomUUID();
  const managementKey = generateSecret('key');
  await prisma.$transaction([
    prisma.tenant.create({ data: { id: tenantId, name, settings: { deduplicate_tokens: false } } }),
    prisma.application.create({
      data: {
        id: randomUUID(),
        tenantId,
        name: `${name} management`,
        type: 'management',
        permissions: ALL_MANAGEMENT_PERMISSIONS,
        keys: { create: { id: randomUUID(), tenantId, keyHash: sha256Hex(managementKey) } },
      },
    }),
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
async function importFormulas(prisma: PrismaService, dir: string): Promise<{ created: string[]; updated: string[] }> {
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
        updated.push(data.name);
      } else {
        await tx.reactorFormula.create({ data: { ...data, id: randomUUID() } });
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
      const created = await createTenant(prisma, name.trim());
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
          for (const t of tenants) await keyring.rotateDataKeys(t.id);
          const result = { tenants: tenants.length, rotated: 'data keys' };
          process.stdout.write(
            json ? `${JSON.stringify(result)}\n` : `new data keys for ${tenants.length} tenant(s); run "keys reencrypt" to move existing tokens\n`,
          );
        } else {
          const result = await reencrypt(prisma, keyring);
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
      const result = await importFormulas(prisma, dir);
      process.stdout.write(json ? `${JSON.stringify(result)}\n` : `official formulas: ${result.created.length} created, ${result.updated.length} updated\n`);
      return 0;
    }
    if (group === 'webhooks') {
      const result = await runWebhookCommand(prisma, command, values);
      if (result.out) process.stdout.write(`${result.out}\n`);
      if (result.err) process.stderr.write(`${result.err}\n`);
      return result.exit;
    }
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
