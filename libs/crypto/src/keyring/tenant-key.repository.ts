import { Injectable } from '@nestjs/common';
import { KeyringPool, Prisma, type TenantKey } from '@coffer/db';

export type TenantKeyPurpose = 'data' | 'index';

/** A data key's metadata: never its wrapped bytes. */
export interface DataKeyVersion {
  id: string;
  kekId: string;
  active: boolean;
  createdAt: Date;
  version: number;
}

const COLUMNS = Prisma.sql`id, tenant_id AS "tenantId", purpose, kek_id AS "kekId", wrapped_key AS "wrappedKey", active, created_at AS "createdAt"`;

/**
 * tenant_keys: every service's per-tenant data and index keys, wrapped by the key-encryption key. Only the keyring
 * (TenantKeyring) uses this repository, and only through its own pool (KeyringPool), never a caller's connection or
 * ambient transaction: a write loads its keys while it may hold a transaction, and a load from the same pool could
 * wait forever for a connection those transactions hold; the keyring also caches what it reads and creates, and a
 * rolled-back transaction would leave the cache pointing at a key that does not exist.
 */
@Injectable()
export class TenantKeyRepository {
  constructor(private readonly db: KeyringPool) {}

  /** The tenant's active key for `purpose`; when several were created at once, the oldest wins. */
  async findActive(tenantId: string, purpose: TenantKeyPurpose): Promise<TenantKey | null> {
    const rows = await this.db.query<TenantKey>(Prisma.sql`
      SELECT ${COLUMNS} FROM tenant_keys WHERE tenant_id = ${tenantId}::uuid AND purpose = ${purpose} AND active
      ORDER BY created_at, id LIMIT 1`);
    return rows[0] ?? null;
  }

  async find(tenantId: string, id: string): Promise<TenantKey | null> {
    const rows = await this.db.query<TenantKey>(Prisma.sql`
      SELECT ${COLUMNS} FROM tenant_keys WHERE id = ${id}::uuid AND tenant_id = ${tenantId}::uuid`);
    return rows[0] ?? null;
  }

  findAll(tenantId: string): Promise<TenantKey[]> {
    return this.db.query<TenantKey>(Prisma.sql`SELECT ${COLUMNS} FROM tenant_keys WHERE tenant_id = ${tenantId}::uuid`);
  }

  /**
   * Stores a new key, only for a tenant that exists and is not deleted; false otherwise. FOR SHARE orders it against
   * `tenants delete` (which marks the tenant and destroys its keys in one transaction): a key is either created before
   * the delete, and destroyed with the others, or refused after it. A caller whose key the gateway still caches for a
   * few seconds after the delete can therefore not give the shredded tenant a fresh key.
   */
  async create(tenantId: string, key: { id: string; purpose: TenantKeyPurpose; kekId: string; wrappedKey: Uint8Array }): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>(Prisma.sql`
      INSERT INTO tenant_keys (id, tenant_id, purpose, kek_id, wrapped_key)
      SELECT ${key.id}::uuid, ${tenantId}::uuid, ${key.purpose}, ${key.kekId}, ${Buffer.from(key.wrappedKey)}
      FROM tenants WHERE id = ${tenantId}::uuid AND deleted_at IS NULL FOR SHARE
      RETURNING id`);
    return rows.length === 1;
  }

  /**
   * The tenant's data keys without their wrapped bytes (GET /tenants/self/keys): id, KEK id, whether active, when made,
   * and the version (1 for the first, counting up with each rotation, as `admin keys status` numbers them).
   */
  listDataKeys(tenantId: string): Promise<DataKeyVersion[]> {
    return this.db.query<DataKeyVersion>(Prisma.sql`
      SELECT id::text, kek_id AS "kekId", active, created_at AS "createdAt",
             (rank() OVER (ORDER BY created_at, id))::int AS version
      FROM tenant_keys WHERE tenant_id = ${tenantId}::uuid AND purpose = 'data' ORDER BY created_at, id`);
  }

  /** Retires the tenant's active data keys (they stay readable by id). */
  async retireDataKeys(tenantId: string): Promise<void> {
    await this.db.query(Prisma.sql`UPDATE tenant_keys SET active = false WHERE tenant_id = ${tenantId}::uuid AND purpose = 'data' AND active`);
  }

  async rewrap(tenantId: string, id: string, kekId: string, wrappedKey: Uint8Array): Promise<void> {
    await this.db.query(Prisma.sql`
      UPDATE tenant_keys SET kek_id = ${kekId}, wrapped_key = ${Buffer.from(wrappedKey)} WHERE id = ${id}::uuid AND tenant_id = ${tenantId}::uuid`);
  }

  /** Keys of any tenant not wrapped by `kekId`, oldest first (an online KEK move works through them in batches). */
  findNotWrappedBy(kekId: string, limit: number): Promise<TenantKey[]> {
    return this.db.query<TenantKey>(Prisma.sql`
      SELECT ${COLUMNS} FROM tenant_keys WHERE kek_id <> ${kekId} ORDER BY created_at, id LIMIT ${limit}`);
  }

  async countNotWrappedBy(kekId: string): Promise<number> {
    const rows = await this.db.query<{ n: number }>(Prisma.sql`SELECT count(*)::int AS n FROM tenant_keys WHERE kek_id <> ${kekId}`);
    return rows[0]?.n ?? 0;
  }

  /**
   * Writes re-wrapped keys in one statement. A row is updated only while it still has the kek_id it was read with,
   * so two movers running at once never overwrite each other. Returns how many rows changed.
   */
  async rewrapMany(kekId: string, rows: Array<{ id: string; tenantId: string; fromKekId: string; wrappedKey: Uint8Array }>): Promise<number> {
    if (!rows.length) return 0;
    const values = Prisma.join(rows.map((r) => Prisma.sql`(${r.id}::uuid, ${r.tenantId}::uuid, ${r.fromKekId}, ${Buffer.from(r.wrappedKey)}::bytea)`));
    const updated = await this.db.query<{ id: string }>(Prisma.sql`
      UPDATE tenant_keys AS k SET kek_id = ${kekId}, wrapped_key = v.wrapped
      FROM (VALUES ${values}) AS v(id, tenant_id, from_kek, wrapped)
      WHERE k.id = v.id AND k.tenant_id = v.tenant_id AND k.kek_id = v.from_kek
      RETURNING k.id`);
    return updated.length;
  }
}
