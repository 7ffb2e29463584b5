import { Injectable } from '@nestjs/common';
import { PrismaService, type TenantKey } from '@coffer/db';

export type TenantKeyPurpose = 'data' | 'index';

/**
 * tenant_keys: every service's per-tenant data and index keys, wrapped by the key-encryption key. Only the keyring
 * (TenantKeyring) uses this repository. Every query goes through the root client, never a caller's ambient
 * transaction (PrismaService.transactional): the keyring caches the keys it reads and creates, and a transaction
 * rolled back after a key was created would leave the cache pointing at a key that does not exist.
 */
@Injectable()
export class TenantKeyRepository {
  constructor(private readonly prisma: PrismaService) {}

  private get db() {
    return this.prisma.root;
  }

  /** The tenant's active key for `purpose`; when several were created at once, the oldest wins. */
  findActive(tenantId: string, purpose: TenantKeyPurpose): Promise<TenantKey | null> {
    return this.db.tenantKey.findFirst({
      where: { tenantId, purpose, active: true },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
  }

  find(tenantId: string, id: string): Promise<TenantKey | null> {
    return this.db.tenantKey.findFirst({ where: { id, tenantId } });
  }

  findAll(tenantId: string): Promise<TenantKey[]> {
    return this.db.tenantKey.findMany({ where: { tenantId } });
  }

  async create(tenantId: string, key: { id: string; purpose: TenantKeyPurpose; kekId: string; wrappedKey: Uint8Array }): Promise<void> {
    await this.db.tenantKey.create({
      data: { id: key.id, tenantId, purpose: key.purpose, kekId: key.kekId, wrappedKey: new Uint8Array(key.wrappedKey) },
    });
  }

  /** Retires the tenant's active data keys (they stay readable by id). */
  async retireDataKeys(tenantId: string): Promise<void> {
    await this.db.tenantKey.updateMany({ where: { tenantId, purpose: 'data', active: true }, data: { active: false } });
  }

  async rewrap(tenantId: string, id: string, kekId: string, wrappedKey: Uint8Array): Promise<void> {
    await this.db.tenantKey.updateMany({ where: { id, tenantId }, data: { kekId, wrappedKey: new Uint8Array(wrappedKey) } });
  }
}
