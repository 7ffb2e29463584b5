import { Prisma } from '../generated/prisma/client';

/** A column of an audit row, as SQL over the rows it is made from (`t.tenant_id`), or a value (sent as a parameter). */
type Column = Prisma.Sql | string | null;

/** What each audit row says; a column left out is NULL (`id` a fresh uuid, `created_at` now()). */
export interface AuditRowColumns {
  id?: Column;
  tenantId: Column;
  actorApplicationId?: Column;
  actorType?: Column;
  actorId?: Column;
  actorName?: Column;
  operation: Column;
  entityType: Column;
  entityId: Column;
  traceId?: Column;
  changes?: Column;
  source?: Column;
  createdAt?: Column;
}

/** The columns in the order of the statement, with the SQL type a value is sent as. */
const COLUMNS: Array<[keyof AuditRowColumns, string, string]> = [
  ['id', 'id', 'uuid'],
  ['tenantId', 'tenant_id', 'uuid'],
  ['actorApplicationId', 'actor_application_id', 'uuid'],
  ['actorType', 'actor_type', 'text'],
  ['actorId', 'actor_id', 'text'],
  ['actorName', 'actor_name', 'text'],
  ['operation', 'operation', 'text'],
  ['entityType', 'entity_type', 'text'],
  ['entityId', 'entity_id', 'text'],
  ['traceId', 'trace_id', 'text'],
  ['changes', 'changes', 'jsonb'],
  ['source', 'source', 'text'],
  ['createdAt', 'created_at', 'timestamptz'],
];
const DEFAULTS: Partial<Record<keyof AuditRowColumns, Prisma.Sql>> = { id: Prisma.sql`gen_random_uuid()`, createdAt: Prisma.sql`now()` };
const COLUMN_LIST = Prisma.raw(COLUMNS.map(([, name]) => name).join(', '));

/** Every column read from the alias of `from` (`t.tenant_id`, …): for sources that name them all, such as an unnest. */
export function auditColumnsOf(alias: string): Required<Omit<AuditRowColumns, 'createdAt'>> {
  const columns = COLUMNS.filter(([key]) => key !== 'createdAt').map(([key, name]) => [key, Prisma.raw(`${alias}.${name}`)]);
  return Object.fromEntries(columns) as Required<Omit<AuditRowColumns, 'createdAt'>>;
}

/**
 * The one INSERT INTO audit_events: one audit row per row of `from` (a table, a CTE's name or `unnest(…) AS t(…)`)
 * that passes `where`. Every audit write uses it — the reads and creates whose record rides in their own statement,
 * token-service's group-committed batches, the records of the other services and of the operator CLI — except the
 * refusal windows, which add to a row (refusalWindowsUpsert). Never data: only ids, names and changed fields.
 */
export function auditInsert(row: AuditRowColumns, from: Prisma.Sql, options: { where?: Prisma.Sql; returning?: Prisma.Sql } = {}): Prisma.Sql {
  const values = COLUMNS.map(([key, , type]) => {
    const v = row[key];
    if (v === undefined) return DEFAULTS[key] ?? Prisma.sql`NULL::${Prisma.raw(type)}`;
    return v instanceof Prisma.Sql ? v : Prisma.sql`${v}::${Prisma.raw(type)}`;
  });
  return Prisma.sql`INSERT INTO audit_events (${COLUMN_LIST}) SELECT ${Prisma.join(values)} FROM ${from}${options.where ? Prisma.sql` WHERE ${options.where}` : Prisma.empty}${
    options.returning ? Prisma.sql` RETURNING ${options.returning}` : Prisma.empty
  }`;
}
