import { Prisma, type PrismaService } from '@coffer/db';
import { cursorPage, offsetPage, type Cursor, type ListWindow, type Page } from '@coffer/contracts';
import { positionOf } from './list-query';

/** One list's SELECT: a fixed table and column list, and the tenant-scoped filter of the call. */
export interface ListSelect {
  /** a table name written in code, never from input */
  table: Prisma.Sql;
  columns: Prisma.Sql;
  where: Prisma.Sql;
}

/**
 * The SQL of both paging forms over (created_at desc, id desc), shared by the reactor and formula lists: an offset
 * page with the total, or the rows strictly after a cursor (one extra, which says whether more exist).
 */
export async function selectOffsetPage<R>(prisma: PrismaService, s: ListSelect, offset: number, limit: number): Promise<{ rows: R[]; total: number }> {
  const [rows, count] = await Promise.all([
    limit === 0
      ? Promise.resolve([] as R[])
      : prisma.$queryRaw<R[]>`
          SELECT ${s.columns} FROM ${s.table} WHERE ${s.where} ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`,
    prisma.$queryRaw<Array<{ n: bigint }>>`SELECT count(*) AS n FROM ${s.table} WHERE ${s.where}`,
  ]);
  return { rows, total: Number(count[0]?.n ?? 0) };
}

export function selectAfterCursor<R>(prisma: PrismaService, s: ListSelect, cursor: Cursor | null, limit: number): Promise<R[]> {
  const after = cursor ? Prisma.sql`AND (created_at, id) < (${new Date(cursor.createdAt)}::timestamptz, ${cursor.id}::uuid)` : Prisma.empty;
  return prisma.$queryRaw<R[]>`
    SELECT ${s.columns} FROM ${s.table} WHERE ${s.where} ${after}
    ORDER BY created_at DESC, id DESC LIMIT ${limit + 1}`;
}

/**
 * A table's list in both paging forms (selectOffsetPage, selectAfterCursor): `where` keeps the tenant's rows (or what
 * it may see) that pass the call's filter. A repository holds one as `list`.
 */
export class PagedList<R extends { id: string; createdAt: Date }, F> {
  constructor(
    private readonly prisma: PrismaService,
    /** a table name written in code, never from input */
    private readonly table: string,
    private readonly columns: Prisma.Sql,
    private readonly where: (tenantId: string, filter: F) => Prisma.Sql,
  ) {}

  page(tenantId: string, filter: F, offset: number, limit: number): Promise<{ rows: R[]; total: number }> {
    return selectOffsetPage<R>(this.prisma, this.select(tenantId, filter), offset, limit);
  }

  /**
   * The page a list query asked for (parseListWindow: an offset page with its totals, or a cursor page), its rows
   * shown by `views`, which gets the page's rows at once (a view that reads more reads it for the whole page).
   */
  async pageOf<V>(tenantId: string, filter: F, window: ListWindow, views: (rows: R[]) => V[] | Promise<V[]>): Promise<Page<V>> {
    if (window.kind === 'cursor') {
      const page = cursorPage(await this.after(tenantId, filter, window.cursor, window.req.size), window.req.size, positionOf);
      return { pagination: page.pagination, data: await views(page.data) };
    }
    const { rows, total } = await this.page(tenantId, filter, window.offset, window.req.size);
    return offsetPage(await views(rows), total, window.req);
  }

  /** Rows strictly after the cursor in (created_at desc, id desc) order; one extra to tell whether more exist. */
  after(tenantId: string, filter: F, cursor: Cursor | null, limit: number): Promise<R[]> {
    return selectAfterCursor<R>(this.prisma, this.select(tenantId, filter), cursor, limit);
  }

  private select(tenantId: string, filter: F): ListSelect {
    return { table: Prisma.raw(this.table), columns: this.columns, where: this.where(tenantId, filter) };
  }
}

/** The filter of the proxy and reactor lists: the tenant's rows, by id (any of) and by name (ILIKE pattern). */
export function tenantIdsAndName(tenantId: string, f: { ids?: string[]; name?: string }): Prisma.Sql {
  const parts = [Prisma.sql`tenant_id = ${tenantId}::uuid`];
  if (f.ids) parts.push(Prisma.sql`id = ANY(${f.ids}::uuid[])`);
  if (f.name) parts.push(Prisma.sql`name ILIKE ${f.name}`);
  return Prisma.join(parts, ' AND ');
}
