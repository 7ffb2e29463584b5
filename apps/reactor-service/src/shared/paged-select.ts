import { Prisma, type PrismaService } from '@coffer/db';
import type { Cursor } from '@coffer/contracts';

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
