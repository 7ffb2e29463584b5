import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  applyMergePatch,
  CodeReactorRequest,
  NewReactorRequest,
  type CreateReactorRequest,
  type ReactorEgressInput,
  FieldErrors,
  UpdateReactorRequest,
  badRequest,
  notFound,
  validateContract,
  type FormulaConfigurationElement,
  type Page,
  type ReactorView,
  isUuid,
  parseListWindow,
} from '@coffer/contracts';
import { Prisma, changedFields } from '@coffer/db';
import { RecordedWrites, caller, asCaller, type CallerContext } from '@coffer/operations';
import { many, namePattern } from '../shared/list-query';
import { FormulaRepository, type FormulaRow } from '../formulas/formula.repository';
import { toFormulaView } from '../formulas/formula.view';
import { ReactorRepository, type ReactorListFilter, type ReactorRow } from './reactor.repository';
import { ReactorVault } from './reactor-vault';
import { ApplicationDirectory } from './application-directory';
import { checkReactorConfiguration } from './configuration-contract';
import { toReactorView } from './reactor.view';
import { reactorDeleted, reactorEvent } from './reactor-events';

function requireObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('The request body must be a JSON object');
  return body as Record<string, unknown>;
}

@Injectable()
export class ReactorsService {
  constructor(
    private readonly reactors: ReactorRepository,
    private readonly formulas: FormulaRepository,
    private readonly vault: ReactorVault,
    private readonly applications: ApplicationDirectory,
    private readonly writes: RecordedWrites,
  ) {}

  /** A formula reactor (`formula`) or a code reactor (`code`): exactly one of the two; created as the operation's caller. */
  async create(body: unknown): Promise<ReactorView> {
    const ctx = asCaller();
    const tenantId = ctx.principal.tenantId;
    const req = validateContract(NewReactorRequest, body) as CreateReactorRequest | CodeReactorRequest;
    if (req instanceof CodeReactorRequest) return this.createWithCode(ctx, req);
    const formula = await this.formulas.findVisible(tenantId, req.formula.id);
    if (!formula) throw notFound('reactor formula');
    const configuration = req.configuration;
    const applicationId = req.application?.id ?? null;
    await this.checkContract(ctx, formula, configuration, applicationId);
    const row = await this.insert(ctx, req, configuration, { formulaId: formula.id, applicationId });
    return toReactorView(row, toFormulaView(formula), configuration);
  }

  /** The caller's tenant's reactors. */
  async list(query: Record<string, unknown>): Promise<Page<ReactorView>> {
    const { tenantId } = caller();
    const window = parseListWindow(query, isUuid);
    const filter: ReactorListFilter = { name: namePattern(query) };
    const ids = many(query['id']);
    // ids are UUIDs: one that is not cannot match anything
    if (ids.length) filter.ids = ids.filter(isUuid);
    return this.reactors.list.pageOf(tenantId, filter, window, async (rows) => {
      const views = await this.views(tenantId, rows);
      return rows.map((r) => views.get(r.id) as ReactorView);
    });
  }

  async get(id: string): Promise<ReactorView> {
    const { tenantId } = caller();
    const row = await this.find(tenantId, id);
    return (await this.views(tenantId, [row])).get(row.id) as ReactorView;
  }

  /** PUT: replaces name, configuration and application; a code reactor's `code` and `runtime` too. */
  update(id: string, body: unknown): Promise<ReactorView> {
    return this.replace(asCaller(), id, body);
  }

  /** PUT's checks and write (PATCH's too, once merged), as `ctx`'s caller. */
  private async replace(ctx: CallerContext, id: string, body: unknown): Promise<ReactorView> {
    const tenantId = ctx.principal.tenantId;
    const existing = await this.find(tenantId, id);
    const plain = requireObject(body);
    const extra = new FieldErrors();
    if (plain['formula'] !== undefined) extra.add('formula', 'cannot be changed: create a new reactor for another formula');
    if (existing.formulaId === null) return this.updateWithCode(ctx, existing, plain, extra);
    for (const field of ['code', 'runtime'])
      if (plain[field] !== undefined && plain[field] !== null) extra.add(field, "cannot be set on a formula reactor: it runs its formula's code");
    const req = validateContract(UpdateReactorRequest, plain, extra);
    const formula = await this.formulas.findVisible(tenantId, existing.formulaId);
    if (!formula) throw notFound('reactor formula');
    const configuration = plain['configuration'] as Record<string, unknown>;
    const applicationId = req.application?.id ?? null;
    await this.checkContract(ctx, formula, configuration, applicationId);
    const row = await this.store(ctx, id, configuration, { name: req.name, applicationId, egress: egressColumn(req.egress) });
    return toReactorView(row, toFormulaView(formula), configuration);
  }

  /**
   * PATCH: an RFC 7386 merge patch of the reactor as PUT takes it (`name`, `configuration`, `application`, and for
   * a code reactor `code` and `runtime`); `null` removes (an application, a configuration entry). The merged
   * reactor is validated exactly like a PUT, so a patch can never store what PUT would refuse.
   */
  async patch(id: string, body: unknown): Promise<ReactorView> {
    const ctx = asCaller();
    const tenantId = ctx.principal.tenantId;
    const existing = await this.find(tenantId, id);
    const patch = requireObject(body);
    const current: Record<string, unknown> = {
      name: existing.name,
      configuration: await this.vault.open(tenantId, existing.id, existing.configurationKeyId, existing.configurationCiphertext),
    };
    if (existing.applicationId) current['application'] = { id: existing.applicationId };
    if (existing.code !== null) current['code'] = existing.code;
    if (existing.runtime !== null) current['runtime'] = existing.runtime;
    if (existing.egress !== null) current['egress'] = existing.egress;
    return this.replace(ctx, id, applyMergePatch(structuredClone(current), patch));
  }

  async delete(id: string): Promise<void> {
    const ctx = asCaller();
    if (!isUuid(id)) throw notFound('reactor');
    await this.writes.commit(
      async () => {
        if (!(await this.reactors.delete(ctx.principal.tenantId, id))) throw notFound('reactor');
      },
      () => ({ events: [reactorDeleted(ctx.principal, ctx.traceId, id)], audit: { operation: 'delete', entityType: 'reactor', entityId: id } }),
    );
  }

  private async find(tenantId: string, id: string): Promise<ReactorRow> {
    const row = isUuid(id) ? await this.reactors.find(tenantId, id) : null;
    if (!row) throw notFound('reactor');
    return row;
  }

  private async createWithCode(ctx: CallerContext, req: CodeReactorRequest): Promise<ReactorView> {
    const configuration = (req.configuration ?? {}) as Record<string, unknown>;
    const applicationId = req.application?.id ?? null;
    await this.checkApplication(ctx, applicationId);
    const row = await this.insert(ctx, req, configuration, {
      formulaId: null,
      code: req.code,
      runtime: req.runtime ? (req.runtime as Prisma.InputJsonValue) : Prisma.DbNull,
      applicationId,
    });
    return toReactorView(row, undefined, configuration);
  }

  /** Seals the configuration under a new id and inserts the reactor (formula or code), with its event and audit record. */
  private async insert(
    ctx: CallerContext,
    req: { name: string; egress?: ReactorEgressInput | null },
    configuration: Record<string, unknown>,
    kind: Pick<Prisma.ReactorUncheckedCreateInput, 'formulaId' | 'code' | 'runtime' | 'applicationId'>,
  ): Promise<ReactorRow> {
    const tenantId = ctx.principal.tenantId;
    const id = randomUUID();
    const sealed = await this.vault.seal(tenantId, id, configuration);
    return this.writes.commit(
      () =>
        this.reactors.create(tenantId, {
          id,
          name: req.name,
          ...kind,
          egress: egressColumn(req.egress),
          configurationCiphertext: sealed.ciphertext,
          configurationKeyId: sealed.keyId,
          createdBy: ctx.principal.applicationId,
        }),
      (r) => ({
        events: [reactorEvent('reactor.created', ctx.principal, ctx.traceId, r)],
        audit: { operation: 'create', entityType: 'reactor', entityId: r.id, changes: reactorChanges(null, r) },
      }),
    );
  }

  private async updateWithCode(ctx: CallerContext, existing: ReactorRow, plain: Record<string, unknown>, errors: FieldErrors): Promise<ReactorView> {
    const req = validateContract(CodeReactorRequest, plain, errors);
    const configuration = (req.configuration ?? {}) as Record<string, unknown>;
    const applicationId = req.application?.id ?? null;
    await this.checkApplication(ctx, applicationId);
    const row = await this.store(ctx, existing.id, configuration, {
      name: req.name,
      code: req.code,
      runtime: req.runtime ? (req.runtime as Prisma.InputJsonValue) : Prisma.DbNull,
      applicationId,
      egress: egressColumn(req.egress),
    });
    return toReactorView(row, undefined, configuration);
  }

  /** PUT's write, for formula and code reactors alike: the configuration sealed again, the row updated (gone: 404). */
  private async store(
    ctx: CallerContext,
    id: string,
    configuration: Record<string, unknown>,
    fields: Pick<Prisma.ReactorUncheckedUpdateManyInput, 'name' | 'code' | 'runtime' | 'egress'> & { applicationId: string | null },
  ): Promise<ReactorRow> {
    const tenantId = ctx.principal.tenantId;
    const sealed = await this.vault.seal(tenantId, id, configuration);
    const before = await this.reactors.find(tenantId, id);
    return this.writes.commit(
      async () => {
        const row = await this.reactors.update(tenantId, id, {
          ...fields,
          configurationCiphertext: sealed.ciphertext,
          configurationKeyId: sealed.keyId,
          modifiedBy: ctx.principal.applicationId,
          modifiedAt: new Date(),
        });
        if (!row) throw notFound('reactor');
        return row;
      },
      (r) => ({
        events: [reactorEvent('reactor.updated', ctx.principal, ctx.traceId, r)],
        audit: {
          operation: 'update',
          entityType: 'reactor',
          entityId: id,
          // the configuration is sealed (it may hold credentials): only that it was stored again
          changes: { ...(reactorChanges(before, r) ?? {}), configuration: { redacted: true } },
        },
      }),
    );
  }

  private async checkApplication(ctx: CallerContext, applicationId: string | null): Promise<void> {
    if (!applicationId) return;
    const errors = new FieldErrors();
    const app = await this.applications.principalOf(ctx, applicationId);
    if (app.applicationType !== 'public' && app.applicationType !== 'private') errors.add('application.id', 'must be a public or private application');
    errors.throwIfAny();
  }

  /** The configuration against the formula's contract, and the application: public or private, same tenant. */
  private async checkContract(ctx: CallerContext, formula: FormulaRow, configuration: Record<string, unknown>, applicationId: string | null): Promise<void> {
    const errors = new FieldErrors();
    checkReactorConfiguration(configuration, formula.configuration as unknown as FormulaConfigurationElement[], errors);
    if (applicationId) {
      const app = await this.applications.principalOf(ctx, applicationId);
      if (app.applicationType !== 'public' && app.applicationType !== 'private') errors.add('application.id', 'must be a public or private application');
    }
    errors.throwIfAny();
  }

  /** Views of reactor rows: their formulas in one query, configurations decrypted. */
  private async views(tenantId: string, rows: ReactorRow[]): Promise<Map<string, ReactorView>> {
    const formulaIds = [...new Set(rows.map((r) => r.formulaId).filter((f): f is string => f !== null))];
    const formulas = formulaIds.length ? await this.formulas.findVisibleMany(tenantId, formulaIds) : [];
    const byId = new Map(formulas.map((f) => [f.id, toFormulaView(f)]));
    const out = new Map<string, ReactorView>();
    for (const row of rows) {
      const formula = row.formulaId === null ? undefined : byId.get(row.formulaId);
      if (row.formulaId !== null && !formula) throw new Error('reactor formula missing for a reactor');
      const configuration = await this.vault.open(tenantId, row.id, row.configurationKeyId, row.configurationCiphertext);
      out.set(row.id, toReactorView(row, formula, configuration));
    }
    return out;
  }
}

/** A reactor's egress list as stored (`{allow}`), or SQL NULL when it has none (its tenant's default applies). */
function egressColumn(egress: ReactorEgressInput | null | undefined): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return egress ? { allow: egress.allow } : Prisma.DbNull;
}

/** Name, formula, application, runtime and egress old and new; the code only as changed; never the configuration's values. */
function reactorChanges(before: ReactorRow | null, after: ReactorRow) {
  const view = (r: ReactorRow | null) =>
    r && { name: r.name, formula_id: r.formulaId, application_id: r.applicationId, runtime: r.runtime, egress: r.egress, code: r.code };
  return changedFields(view(before), view(after), ['name', 'formula_id', 'application_id', 'runtime', 'egress', 'code'], ['code']);
}
