import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { ProblemError } from '@coffer/contracts';
import { KeyEncryptionKeys } from '../key-encryption-keys';
import { EnvKeyEncryptionKeyProvider, KeyCustodyUnavailableError, KeyEncryptionKeyProvider } from '../kek';
import { hmacHex, newDataKey, open, seal } from '../primitives';
import { countKeyProviderError, startCountingKeyProviderErrors } from './key-provider-metrics';
import { TenantKeyRepository, type TenantKeyPurpose as Purpose } from './tenant-key.repository';

interface CachedKey {
  id: string;
  tenantId: string;
  /** a KeyObject, made once: Node would make one from a Buffer on every seal, open and digest (primitives.ts) */
  key: KeyObject;
  /** when it was unwrapped: after the cache lifetime it is unwrapped again (by the HSM, with pkcs11) */
  at: number;
}

export interface TenantKeyringOptions {
  /** DATA_KEY_CACHE_TTL_MS: how long an unwrapped key stays in memory (default 1 h) */
  cacheTtlMs?: number;
  /** DATA_KEY_REFRESH_MS: how long the active data key is used before it is looked up again (default 1 min) */
  refreshMs?: number;
}

/** Nest token for TenantKeyringOptions (KeyringModule provides it from the environment). */
export const TENANT_KEYRING_OPTIONS = Symbol('TENANT_KEYRING_OPTIONS');

export const DEFAULT_DATA_KEY_CACHE_TTL_MS = 3_600_000;
/** How long a process keeps using the active data key before looking again: how soon it seals under a rotated key. */
export const DEFAULT_DATA_KEY_REFRESH_MS = 60_000;

const KEY_CUSTODY_UNAVAILABLE = 'The key-encryption key is unavailable (HSM unreachable); retry the request';

/**
 * Per-tenant keys, wrapped by the key-encryption key (docs/security.md).
 * - `data` keys encrypt token data and secrets; they rotate (old ones stay readable by id).
 * - the `index` key makes fingerprints and blind indexes; it never rotates, or equal data would stop matching.
 * Unwrapped keys are cached in memory so the hot path costs one AES-GCM operation, not a key unwrap. One keyring per
 * process (KeyringModule provides it), so a process holds one cache and one view of the active keys.
 */
@Injectable()
export class TenantKeyring {
  private readonly byId = new Map<string, CachedKey>();
  private readonly active = new Map<string, { key: CachedKey; at: number }>();
  private readonly pending = new Map<string, Promise<CachedKey>>();
  private readonly keks: KeyEncryptionKeyProvider;
  private readonly cacheTtlMs: number;
  private readonly refreshMs: number;
  private lastSweep = Date.now();
  /**
   * tenants forgotten so far: a key read before a forget and unwrapped after it is used once, never kept (any tenant's
   * forget counts: they are rare, and a key not kept is only loaded again)
   */
  private forgets = 0;

  /** `keks`: the KEK provider (KeyringModule injects the one KEK_PROVIDER names); KeyEncryptionKeys is taken as `env`. */
  constructor(
    private readonly keys: TenantKeyRepository,
    @Inject(KeyEncryptionKeyProvider) keks: KeyEncryptionKeyProvider | KeyEncryptionKeys,
    @Optional() @Inject(TENANT_KEYRING_OPTIONS) options?: TenantKeyringOptions,
  ) {
    this.keks = keks instanceof KeyEncryptionKeys ? new EnvKeyEncryptionKeyProvider(keks) : keks;
    this.cacheTtlMs = options?.cacheTtlMs ?? DEFAULT_DATA_KEY_CACHE_TTL_MS;
    this.refreshMs = options?.refreshMs ?? DEFAULT_DATA_KEY_REFRESH_MS;
    startCountingKeyProviderErrors(this.keks.kind);
  }

  /**
   * Drops every key of `tenantId` this process holds unwrapped (the operator deleted or suspended the tenant, or
   * reissued its key: TenantKeyEviction), so a shredded tenant's keys do not outlive its rows in memory. Left to the
   * garbage collector: a KeyObject's memory cannot be overwritten from JavaScript. A later use unwraps them again.
   */
  forgetTenant(tenantId: string): void {
    this.forgets++;
    for (const purpose of ['data', 'index']) {
      this.active.delete(`${tenantId}:${purpose}`);
      // a load under way read the key before the forget: who uses the key from now on loads it again
      this.pending.delete(`${tenantId}:${purpose}`);
    }
    for (const [id, k] of this.byId) if (k.tenantId === tenantId) this.byId.delete(id);
  }

  /** The provider the keyring wraps and unwraps with (readiness, `keys` commands). */
  get provider(): KeyEncryptionKeyProvider {
    return this.keks;
  }

  async encryptJson(tenantId: string, aad: string, value: unknown): Promise<{ keyId: string; ciphertext: Buffer }> {
    const key = await this.activeKey(tenantId, 'data');
    const ciphertext = seal(key.key, Buffer.from(JSON.stringify(value) ?? 'null', 'utf8'), this.aad(tenantId, aad));
    return { keyId: key.id, ciphertext };
  }

  async decryptJson<T = unknown>(tenantId: string, keyId: string, ciphertext: Uint8Array, aad: string): Promise<T> {
    const key = await this.keyById(tenantId, keyId);
    return JSON.parse(open(key.key, ciphertext, this.aad(tenantId, aad)).toString('utf8')) as T;
  }

  /** Keyed digest for fingerprints and blind indexes: equal inside a tenant, unrelated across tenants. */
  async digest(tenantId: string, value: string): Promise<string> {
    const key = await this.activeKey(tenantId, 'index');
    return hmacHex(key.key, value);
  }

  async digester(tenantId: string): Promise<(value: string) => string> {
    const key = await this.activeKey(tenantId, 'index');
    return (value) => hmacHex(key.key, value);
  }

  /** Retires the tenant's data keys: new writes get a fresh key (wrapped by the primary KEK); reads keep working. */
  async rotateDataKeys(tenantId: string): Promise<void> {
    await this.keys.retireDataKeys(tenantId);
    this.active.delete(`${tenantId}:data`);
  }

  /** Re-wraps every key of the tenant under the primary KEK, so old KEKs can be removed from configuration. */
  async rewrapKeys(tenantId: string): Promise<number> {
    const rows = await this.keys.findAll(tenantId);
    let moved = 0;
    for (const row of rows) {
      if (row.kekId === this.keks.primaryId()) continue;
      const context = this.context(tenantId, row.purpose as Purpose, row.id);
      const key = await this.custody(() => this.keks.unwrap(row.kekId, row.wrappedKey, context));
      const { kekId, wrapped } = await this.custody(() => this.keks.wrap(key, context));
      await this.keys.rewrap(tenantId, row.id, kekId, wrapped);
      moved++;
    }
    return moved;
  }

  /**
   * One batch of an online KEK move (env → HSM, or to a new HSM key): up to `limit` keys of any tenant not yet
   * wrapped by the primary KEK are unwrapped, wrapped again and written back in one statement. The data keys stay the
   * same, so no ciphertext changes; a row re-wrapped concurrently by another process is skipped (compare-and-set on
   * its old kek_id). Returns how many keys moved and how many still wait.
   */
  async rewrapBatch(limit = 100): Promise<{ moved: number; remaining: number }> {
    const primary = this.keks.primaryId();
    const rows = await this.keys.findNotWrappedBy(primary, limit);
    const updates: Array<{ id: string; tenantId: string; fromKekId: string; wrappedKey: Buffer }> = [];
    for (const row of rows) {
      const context = this.context(row.tenantId, row.purpose as Purpose, row.id);
      const key = await this.custody(() => this.keks.unwrap(row.kekId, row.wrappedKey, context));
      const { wrapped } = await this.custody(() => this.keks.wrap(key, context));
      updates.push({ id: row.id, tenantId: row.tenantId, fromKekId: row.kekId, wrappedKey: wrapped });
    }
    const moved = await this.keys.rewrapMany(primary, updates);
    return { moved, remaining: await this.keys.countNotWrappedBy(primary) };
  }

  /**
   * Loads (or creates) the tenant's active data and index keys, so a write can resolve them before it opens its
   * transaction and hold that transaction only for its own statements.
   */
  async warm(tenantId: string): Promise<void> {
    await Promise.all([this.activeKey(tenantId, 'data'), this.activeKey(tenantId, 'index')]);
  }

  /**
   * The tenant's data key versions, oldest first, without key material: what `GET /tenants/self/keys` shows. The active
   * key is created first when the tenant has none yet (as its first write would), and only the one the keyring seals
   * under (the oldest active row, should two processes have created one at once) is reported active.
   */
  async dataKeyVersions(tenantId: string): Promise<Array<{ id: string; version: number; active: boolean; createdAt: Date; kekProvider: 'env' | 'pkcs11' }>> {
    await this.activeKey(tenantId, 'data');
    const rows = await this.keys.listDataKeys(tenantId);
    const active = rows.find((r) => r.active)?.id;
    return rows.map((r) => ({
      id: r.id,
      version: r.version,
      active: r.id === active,
      createdAt: r.createdAt,
      kekProvider: r.kekId.startsWith('pkcs11:') ? 'pkcs11' : 'env',
    }));
  }

  async activeDataKeyId(tenantId: string): Promise<string> {
    return (await this.activeKey(tenantId, 'data')).id;
  }

  private aad(tenantId: string, aad: string): Buffer {
    return Buffer.from(`${tenantId}\u0000${aad}`, 'utf8');
  }

  private context(tenantId: string, purpose: Purpose, keyId: string): string {
    return `coffer:${purpose}:${tenantId}:${keyId}`;
  }

  private async activeKey(tenantId: string, purpose: Purpose): Promise<CachedKey> {
    const cacheKey = `${tenantId}:${purpose}`;
    const hit = this.active.get(cacheKey);
    if (hit && (purpose === 'index' || Date.now() - hit.at < this.refreshMs)) return hit.key;
    const forgets = this.forgets;
    let inflight = this.pending.get(cacheKey);
    if (!inflight) {
      const loading: Promise<CachedKey> = this.loadOrCreate(tenantId, purpose).finally(() => {
        // a forget may have replaced it with a newer load meanwhile
        if (this.pending.get(cacheKey) === loading) this.pending.delete(cacheKey);
      });
      inflight = loading;
      this.pending.set(cacheKey, inflight);
    }
    const key = await inflight;
    if (this.forgets === forgets) this.active.set(cacheKey, { key, at: Date.now() });
    return key;
  }

  private async loadOrCreate(tenantId: string, purpose: Purpose): Promise<CachedKey> {
    let row = await this.keys.findActive(tenantId, purpose);
    if (!row) {
      // Two processes may create a key at the same moment; both rows are valid and the oldest wins from then on.
      const id = randomUUID();
      const { kekId, wrapped } = await this.custody(() => this.keks.wrap(newDataKey(), this.context(tenantId, purpose, id)));
      if (!(await this.keys.create(tenantId, { id, purpose, kekId, wrappedKey: wrapped }))) throw new ProblemError(401, 'The tenant has been deleted');
      row = await this.keys.findActive(tenantId, purpose);
    }
    if (!row) throw new Error('tenant key could not be created');
    return this.remember(tenantId, row);
  }

  private async keyById(tenantId: string, keyId: string): Promise<CachedKey> {
    const hit = this.fresh(keyId);
    if (hit) return hit;
    const row = await this.keys.find(tenantId, keyId);
    if (!row) throw new Error('data key not found for tenant');
    return this.remember(tenantId, row);
  }

  private fresh(keyId: string): CachedKey | undefined {
    const hit = this.byId.get(keyId);
    if (hit && Date.now() - hit.at < this.cacheTtlMs) return hit;
    return undefined;
  }

  private async remember(tenantId: string, row: { id: string; purpose: string; kekId: string; wrappedKey: Uint8Array }): Promise<CachedKey> {
    // a key still fresh in memory is not unwrapped again (the active key is looked up again every refreshMs)
    const hit = this.fresh(row.id);
    if (hit) return hit;
    const forgets = this.forgets;
    const key = await this.custody(() => this.keks.unwrap(row.kekId, row.wrappedKey, this.context(tenantId, row.purpose as Purpose, row.id)));
    const cached = { id: row.id, tenantId, key: createSecretKey(key), at: Date.now() };
    this.sweep();
    if (this.forgets === forgets) this.byId.set(row.id, cached);
    return cached;
  }

  /** Drops expired keys now and then, so the cache holds only keys used within its lifetime. */
  private sweep(): void {
    const now = Date.now();
    if (now - this.lastSweep < this.cacheTtlMs) return;
    this.lastSweep = now;
    for (const [id, k] of this.byId) if (now - k.at >= this.cacheTtlMs) this.byId.delete(id);
  }

  /** A KEK custodian that cannot be reached is the caller's 503 (retryable), never a 500. */
  private async custody<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      countKeyProviderError(this.keks.kind, err);
      if (err instanceof KeyCustodyUnavailableError) throw new ProblemError(503, KEY_CUSTODY_UNAVAILABLE);
      throw err;
    }
  }
}
