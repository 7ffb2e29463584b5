import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService, SqlPool, auditInsert, auditSignal, isForeignKeyViolation } from '@coffer/db';
import { notFound } from '@coffer/contracts';
import { PagedList, tenantIdsAndName } from '../shared/paged-select';

export type ReactorRow = Prisma.ReactorModel;

/** What running a reactor needs of it and of its formula (ReactorRepository.findRunnable). */
export interface RunnableReactor {
  id: string;
  formulaId: string | null;
  code: string | null;
  egress: Prisma.JsonValue | null;
  applicationId: string | null;
  configurationCiphertext: Uint8Array;
  configurationKeyId: string;
  /** its formula when the tenant may see it (its own, or an official one); null for a code reactor, or a formula gone from view */
  formula: { code: string; requestParameters: Prisma.JsonValue; egress: Prisma.JsonValue | null } | null;
}

interface RunnableRow extends Omit<RunnableReactor, 'formula'> {
  visibleFormulaId: string | null;
  formulaCode: string | null;
  formulaRequestParameters: Prisma.JsonValue;
  formulaEgress: Prisma.JsonValue | null;
}

export interface ReactorListFilter {
  ids?: string[];
  /** ILIKE pattern over name */
  name?: string;
}

const COLUMNS = Prisma.sql`id, tenant_id AS "tenantId", name, formula_id AS "formulaId", code, runtime, egress, application_id AS "applicationId",
  configuration_ciphertext AS "configurationCiphertext", configuration_key_id AS "configurationKeyId",
  created_by AS "createdBy", created_at AS "createdAt", modified_by AS "modifiedBy", modified_at AS "modifiedAt"`;

/** reactors (owned by reactor-service). Every method is scoped by tenant. */
@Injectable()
export class ReactorRepository {
  /** the tenant's reactors, by id and name */
  readonly list: PagedList<ReactorRow, ReactorListFilter>;

  constructor(
    private readonly prisma: PrismaService,
    private readonly sql: SqlPool,
  ) {
    this.list = new PagedList(prisma, 'reactors', COLUMNS, tenantIdsAndName);
  }

  /**
   * The formula was found before (visible to the tenant); a delete that commits in between makes the foreign key
   * refuse the row: the formula is gone, a 404 as if it had been missing from the start.
   */
  async create(tenantId: string, data: Omit<Prisma.ReactorUncheckedCreateInput, 'tenantId'>): Promise<ReactorRow> {
    try {
      return await this.prisma.reactor.create({ data: { ...data, tenantId } });
    } catch (err) {
      if (data.formulaId && isForeignKeyViolation(err)) throw notFound('reactor formula');
      throw err;
    }
  }

  find(tenantId: string, id: string): Promise<ReactorRow | null> {
    return this.prisma.reactor.findFirst({ where: { tenantId, id } });
  }

  /**
   * The reactor and its formula as an invocation needs them, in one statement on the plain pool (SqlPool): every
   * react runs this, and two ORM queries in a row cost it a round trip and about twice the CPU. With `invokedBy`, the
   * same statement writes the invocation's audit record when there is something to run (a reactor with its own code,
   * or with a formula the tenant may see): one round trip and one commit, before any of the code runs.
   */
  async findRunnable(tenantId: string, id: string, invokedBy?: { applicationId: string; traceId?: string }): Promise<RunnableReactor | null> {
    const [row] = await this.sql.query<RunnableRow>(
      Prisma.sql`WITH r AS (
          SELECT r.id, r.tenant_id, r.formula_id AS "formulaId", r.code, r.egress, r.application_id AS "applicationId",
            r.configuration_ciphertext AS "configurationCiphertext", r.configuration_key_id AS "configurationKeyId",
            f.id AS "visibleFormulaId", f.code AS "formulaCode", f.request_parameters AS "formulaRequestParameters", f.egress AS "formulaEgress"
          FROM reactors r
          LEFT JOIN reactor_formulas f ON f.id = r.formula_id AND (f.tenant_id = r.tenant_id OR f.tenant_id IS NULL)
          WHERE r.tenant_id = ${tenantId}::uuid AND r.id = ${id}::uuid
        ), audited AS (${auditInsert(
          {
            tenantId: Prisma.sql`r.tenant_id`,
            actorApplicationId: invokedBy?.applicationId ?? null,
            operation: 'invoke',
            entityType: 'reactor',
            entityId: Prisma.sql`r.id::text`,
            traceId: invokedBy?.traceId || null,
          },
          Prisma.sql`r`,
          { where: Prisma.sql`${invokedBy !== undefined}::boolean AND (r."visibleFormulaId" IS NOT NULL OR (r."formulaId" IS NULL AND r.code IS NOT NULL))` },
        )})
        SELECT id, "formulaId", code, egress, "applicationId", "configurationCiphertext", "configurationKeyId",
          "visibleFormulaId", "formulaCode", "formulaRequestParameters", "formulaEgress"
        FROM r`,
      'reactor-runnable',
    );
    if (!row) return null;
    if (invokedBy) auditSignal.afterCommit();
    const { visibleFormulaId, formulaCode, formulaRequestParameters, formulaEgress, ...reactor } = row;
    const formula = visibleFormulaId === null ? null : { code: formulaCode as string, requestParameters: formulaRequestParameters, egress: formulaEgress };
    return { ...reactor, formula };
  }

  async update(tenantId: string, id: string, data: Prisma.ReactorUncheckedUpdateManyInput): Promise<ReactorRow | null> {
    const { count } = await this.prisma.reactor.updateMany({ where: { tenantId, id }, data });
    return count ? this.find(tenantId, id) : null;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const { count } = await this.prisma.reactor.deleteMany({ where: { tenantId, id } });
    return count > 0;
  }
}
