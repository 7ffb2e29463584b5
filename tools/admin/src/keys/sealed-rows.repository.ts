import { Prisma, type PrismaService } from '@coffer/db';
import { ident, keyIdSql, type SealedKind } from './sealed-kinds';

/** A sealed value as read for re-encryption: its keyset position, its data key id and its stored bytes. */
export interface SealedRow {
  keys: string[];
  keyId: string;
  stored: Uint8Array;
}

/** A value re-sealed under the target key; applied only if the row still holds `previous` (compare-and-set). */
export interface Resealed {
  keys: string[];
  previous: Uint8Array;
  stored: Buffer;
  /** the key it is now sealed under (the tenant's active data key) */
  keyId: string;
}

const keysetSql = (kind: SealedKind, alias = '') => Prisma.join(kind.keyset.map((c) => Prisma.raw(`${alias ? `${alias}.` : ''}"${c.name}"`)));
const valuesSql = (kind: SealedKind, keys: string[]) => Prisma.join(kind.keyset.map((c, i) => Prisma.sql`${keys[i]}::${Prisma.raw(c.type)}`));

/**
 * The sealed columns of the services' tables, read and rewritten in batches for re-encryption. Reads walk a tenant's
 * rows in keyset order (never OFFSET); a write is one multi-row UPDATE whose WHERE compares each row's stored
 * ciphertext with what was read, so a value a service rewrote meanwhile is left alone (and reported back, to retry).
 */
export class SealedRowsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Rows of the tenant holding a value of this kind not sealed under `targetKeyId`. */
  async countNotUnder(kind: SealedKind, tenantId: string, targetKeyId: string): Promise<number> {
    const rows = await this.prisma.$queryRaw<Array<{ n: bigint }>>`
      SELECT count(*) AS n FROM ${ident(kind.table)}
      WHERE tenant_id = ${tenantId}::uuid AND ${ident(kind.ciphertext)} IS NOT NULL AND ${keyIdSql(kind)} <> ${targetKeyId}::uuid`;
    return Number(rows[0]?.n ?? 0);
  }

  /** The next `limit` rows after `after` (keyset order) whose value is not under `targetKeyId`. */
  async nextBatch(kind: SealedKind, tenantId: string, targetKeyId: string, after: string[] | null, limit: number): Promise<SealedRow[]> {
    const position = after ? Prisma.sql`AND (${keysetSql(kind)}) > (${valuesSql(kind, after)})` : Prisma.empty;
    const rows = await this.prisma.$queryRaw<Array<Record<string, unknown>>>`
      SELECT ${this.keysAsText(kind)}, ${keyIdSql(kind)}::text AS key_id, ${ident(kind.ciphertext)} AS stored
      FROM ${ident(kind.table)}
      WHERE tenant_id = ${tenantId}::uuid AND ${ident(kind.ciphertext)} IS NOT NULL AND ${keyIdSql(kind)} <> ${targetKeyId}::uuid ${position}
      ORDER BY ${keysetSql(kind)} LIMIT ${limit}`;
    return rows.map((r) => this.toRow(kind, r));
  }

  /** The current state of rows by keyset position (to retry those a concurrent write changed). */
  async find(kind: SealedKind, tenantId: string, targetKeyId: string, keys: string[][]): Promise<SealedRow[]> {
    if (!keys.length) return [];
    const rows = await this.prisma.$queryRaw<Array<Record<string, unknown>>>`
      SELECT ${this.keysAsText(kind)}, ${keyIdSql(kind)}::text AS key_id, ${ident(kind.ciphertext)} AS stored
      FROM ${ident(kind.table)}
      WHERE tenant_id = ${tenantId}::uuid AND ${ident(kind.ciphertext)} IS NOT NULL AND ${keyIdSql(kind)} <> ${targetKeyId}::uuid
        AND (${keysetSql(kind)}) IN (${Prisma.join(keys.map((k) => Prisma.sql`(${valuesSql(kind, k)})`))})`;
    return rows.map((r) => this.toRow(kind, r));
  }

  /**
   * Writes a batch in one UPDATE, each row only if it still holds the ciphertext that was read, and in the same
   * statement (so atomically) runs `progress`, given the SQL count of rows written. Returns the positions written.
   */
  async replace(kind: SealedKind, tenantId: string, batch: Resealed[], progress: (written: Prisma.Sql) => Prisma.Sql): Promise<string[][]> {
    if (!batch.length) return [];
    const kcol = (name: string) => Prisma.raw(`"k_${name}"`);
    const columns = Prisma.join([...kind.keyset.map((c) => kcol(c.name)), Prisma.raw('previous'), Prisma.raw('stored'), Prisma.raw('key_id')]);
    const values = Prisma.join(
      batch.map((b) => Prisma.sql`(${valuesSql(kind, b.keys)}, ${Buffer.from(b.previous)}::bytea, ${b.stored}::bytea, ${b.keyId}::uuid)`),
    );
    const sameRow = Prisma.join(
      kind.keyset.map((c) => Prisma.sql`t.${ident(c.name)} = v.${kcol(c.name)}`),
      ' AND ',
    );
    const setKey = kind.keyIdColumn ? Prisma.sql`, ${ident(kind.keyIdColumn)} = v.key_id` : Prisma.empty;
    const written = await this.prisma.$queryRaw<Array<Record<string, unknown>>>`
      WITH written AS (
        UPDATE ${ident(kind.table)} AS t SET ${ident(kind.ciphertext)} = v.stored ${setKey}
        FROM (VALUES ${values}) AS v(${columns})
        WHERE t.tenant_id = ${tenantId}::uuid AND ${sameRow} AND t.${ident(kind.ciphertext)} = v.previous
        RETURNING ${this.keysAsText(kind, 't')}
      ), progress AS (${progress(Prisma.sql`(SELECT count(*) FROM written)`)})
      SELECT * FROM written`;
    return written.map((r) => kind.keyset.map((c) => String(r[c.name])));
  }

  /** Rows per data key id, for `keys status` (every tenant, or one). */
  async countByKey(kind: SealedKind, tenantId?: string): Promise<Array<{ tenantId: string; keyId: string; rows: number }>> {
    const tenant = tenantId ? Prisma.sql`AND tenant_id = ${tenantId}::uuid` : Prisma.empty;
    const rows = await this.prisma.$queryRaw<Array<{ tenant_id: string; key_id: string; n: bigint }>>`
      SELECT tenant_id::text AS tenant_id, ${keyIdSql(kind)}::text AS key_id, count(*) AS n FROM ${ident(kind.table)}
      WHERE ${ident(kind.ciphertext)} IS NOT NULL ${tenant}
      GROUP BY 1, 2 ORDER BY 1, 2`;
    return rows.map((r) => ({ tenantId: r.tenant_id, keyId: r.key_id, rows: Number(r.n) }));
  }

  private keysAsText(kind: SealedKind, alias = ''): Prisma.Sql {
    return Prisma.join(kind.keyset.map((c) => Prisma.raw(`${alias ? `${alias}.` : ''}"${c.name}"::text AS "${c.name}"`)));
  }

  private toRow(kind: SealedKind, r: Record<string, unknown>): SealedRow {
    return { keys: kind.keyset.map((c) => String(r[c.name])), keyId: String(r['key_id']), stored: r['stored'] as Uint8Array };
  }
}
