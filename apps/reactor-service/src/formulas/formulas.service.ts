import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  FieldErrors,
  ProblemError,
  ReactorFormulaRequest,
  checkFormulaElements,
  conflict,
  notFound,
  validateContract,
  type Page,
  type ReactorFormulaView,
  isUuid,
  parseListWindow,
} from '@coffer/contracts';
import { Prisma, changedFields } from '@coffer/db';
import { RecordedWrites, caller, asCaller } from '@coffer/operations';
import { formulaDeleted, formulaEvent } from '../reactors/reactor-events';
import { namePattern } from '../shared/list-query';
import { FormulaRepository } from './formula.repository';
import { toFormulaView } from './formula.view';

/**
 * What a tenant may write of a formula: private ones only; `status` is the server's (private → verified). `req` is
 * already validated against ReactorFormulaRequest (create: by the gateway's pipe; update: by {@link parseFormula});
 * checkFormulaElements here only normalizes the elements (their errors were reported by ReactorFormulaRequest.check).
 */
function toFormulaData(req: ReactorFormulaRequest): Omit<Prisma.ReactorFormulaUncheckedCreateInput, 'id' | 'tenantId'> {
  const elements = checkFormulaElements(req as unknown as Record<string, unknown>, new FieldErrors());
  return {
    name: req.name,
    description: req.description ?? null,
    type: 'private',
    status: 'verified',
    icon: req.icon ?? null,
    code: req.code,
    configuration: elements.configuration as unknown as Prisma.InputJsonValue,
    requestParameters: elements.request_parameters as unknown as Prisma.InputJsonValue,
    // its reactors' hosts unless they list their own; SQL NULL: none (the tenant's default)
    egress: req.egress ? { allow: req.egress.allow } : Prisma.DbNull,
  };
}

/** PUT /reactor-formulas/{id}: validated by the gateway's pipe, and here again with the same class for any other caller. */
function parseFormula(body: unknown): Omit<Prisma.ReactorFormulaUncheckedCreateInput, 'id' | 'tenantId'> {
  return toFormulaData(validateContract(ReactorFormulaRequest, body));
}

@Injectable()
export class FormulasService {
  constructor(
    private readonly formulas: FormulaRepository,
    private readonly writes: RecordedWrites,
  ) {}

  /** A private formula of the caller's tenant. */
  async create(req: ReactorFormulaRequest): Promise<ReactorFormulaView> {
    const { principal, traceId } = asCaller();
    const data = toFormulaData(req);
    const row = await this.writes.commit(
      () => this.formulas.create(principal.tenantId, { ...data, id: randomUUID(), createdBy: principal.applicationId }),
      (created) => ({
        events: [formulaEvent('reactor-formula.created', principal, traceId, created)],
        audit: { operation: 'create', entityType: 'reactor_formula', entityId: created.id, changes: formulaChanges(null, created) },
      }),
    );
    return toFormulaView(row);
  }

  async list(query: Record<string, unknown>): Promise<Page<ReactorFormulaView>> {
    const { tenantId } = caller();
    const window = parseListWindow(query, isUuid);
    return this.formulas.list.pageOf(tenantId, { name: namePattern(query) }, window, (rows) => rows.map(toFormulaView));
  }

  async get(id: string): Promise<ReactorFormulaView> {
    return toFormulaView(await this.visible(caller().tenantId, id));
  }

  async update(id: string, body: unknown): Promise<ReactorFormulaView> {
    const { principal, traceId } = asCaller();
    const existing = await this.visible(principal.tenantId, id);
    if (existing.tenantId === null) throw officialIsReadOnly();
    const data = parseFormula(body);
    const row = await this.writes.commit(
      async () => {
        const updated = await this.formulas.updateOwn(principal.tenantId, id, { ...data, modifiedBy: principal.applicationId, modifiedAt: new Date() });
        if (!updated) throw notFound('reactor formula');
        return updated;
      },
      (updated) => ({
        events: [formulaEvent('reactor-formula.updated', principal, traceId, updated)],
        audit: { operation: 'update', entityType: 'reactor_formula', entityId: id, changes: formulaChanges(existing, updated) },
      }),
    );
    return toFormulaView(row);
  }

  async delete(id: string): Promise<void> {
    const { principal, traceId } = asCaller();
    const existing = await this.visible(principal.tenantId, id);
    if (existing.tenantId === null) throw officialIsReadOnly();
    await this.writes.commit(
      async () => {
        const outcome = await this.formulas.deleteOwn(principal.tenantId, id);
        if (outcome === 'missing') throw notFound('reactor formula');
        if (outcome === 'in_use') throw conflict('The reactor formula is used by a reactor; delete or change those reactors first');
      },
      () => ({ events: [formulaDeleted(principal, traceId, id)], audit: { operation: 'delete', entityType: 'reactor_formula', entityId: id } }),
    );
  }

  /** The tenant's own formula or an official one. */
  private async visible(tenantId: string, id: string) {
    const row = isUuid(id) ? await this.formulas.findVisible(tenantId, id) : null;
    if (!row) throw notFound('reactor formula');
    return row;
  }
}

/** Official formulas are visible to every tenant but belong to the operator: 403, not 404 (the caller can read it). */
function officialIsReadOnly(): ProblemError {
  return new ProblemError(403, 'Official reactor formulas are provisioned by the operator and cannot be changed or deleted');
}

/** What a formula write changed: its descriptive fields and egress old and new, its code only as changed. */
function formulaChanges(before: object | null, after: object) {
  return changedFields(before, after, ['name', 'description', 'icon', 'status', 'egress', 'configuration', 'requestParameters', 'code'], ['code']);
}
