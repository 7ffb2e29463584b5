import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Prisma, type PrismaService } from '@coffer/db';
import { FieldErrors, OfficialFormulaDefinition, ProblemError, checkFormulaElements, validateContract } from '@coffer/contracts';
import { type Command, UsageError } from '../cli/command';

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

/** Upserts official formulas by name (tenant_id null), all in one transaction (the command's, when it runs in one). */
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

export const formulaCommands: Command[] = [
  {
    name: 'formulas import',
    usage: 'admin formulas import <dir> [--json]',
    summary: 'upserts the official reactor formulas of <dir>/*.json (by name)',
    options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' }, actor: { type: 'string' } },
    positionals: { optional: 1 },
    async run(ctx) {
      const dir = ctx.positionals[0];
      if (!dir || !fs.existsSync(dir) || !fs.statSync(dir).isDirectory())
        throw new UsageError('formulas import needs a directory of *.json formula definitions');
      const result = await ctx.transaction(async () => {
        const r = await importFormulas(ctx.prisma, dir);
        await ctx.audit('formulas.import', { created: r.created, updated: r.updated });
        return r;
      });
      ctx.result(result, `official formulas: ${result.created.length} created, ${result.updated.length} updated`);
      return 0;
    },
  },
];
