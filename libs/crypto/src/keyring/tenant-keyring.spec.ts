import type { KeyringPool, TenantKey } from '@coffer/db';
import { ProblemError } from '@coffer/contracts';
import { KeyEncryptionKeys } from '../key-encryption-keys';
import { EnvKeyEncryptionKeyProvider, KeyCustodyUnavailableError, KeyEncryptionKeyProvider } from '../kek';
import { keyProviderErrors } from './key-provider-metrics';
import { TenantKeyRepository, type TenantKeyPurpose } from './tenant-key.repository';
import { TenantKeyring } from './tenant-keyring';

const TENANT = '00000000-0000-4000-8000-000000000001';
const keks = () => KeyEncryptionKeys.parse(`kek-1:${Buffer.alloc(32, 7).toString('base64')}`);

/** tenant_keys in memory, counting the reads and writes the keyring makes. */
class MemoryTenantKeys {
  rows: TenantKey[] = [];
  calls = { findActive: 0, find: 0, create: 0 };

  async findActive(tenantId: string, purpose: TenantKeyPurpose) {
    this.calls.findActive++;
    return this.rows.find((r) => r.tenantId === tenantId && r.purpose === purpose && r.active) ?? null;
  }
  async find(tenantId: string, id: string) {
    this.calls.find++;
    return this.rows.find((r) => r.tenantId === tenantId && r.id === id) ?? null;
  }
  async findAll(tenantId: string) {
    return this.rows.filter((r) => r.tenantId === tenantId);
  }
  async create(tenantId: string, key: { id: string; purpose: TenantKeyPurpose; kekId: string; wrappedKey: Uint8Array }) {
    this.calls.create++;
    this.rows.push({ ...key, tenantId, active: true, createdAt: new Date(Date.now() + this.rows.length) } as TenantKey);
    return true;
  }
  async listDataKeys(tenantId: string) {
    return this.rows
      .filter((r) => r.tenantId === tenantId && r.purpose === 'data')
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
      .map((r, i) => ({ id: r.id, kekId: r.kekId, active: r.active, createdAt: r.createdAt, version: i + 1 }));
  }
  async retireDataKeys(tenantId: string) {
    for (const r of this.rows) if (r.tenantId === tenantId && r.purpose === 'data') r.active = false;
  }
  async rewrap() {
    /* not used here */
  }
}

function keyring(options?: { refreshMs?: number }, store = new MemoryTenantKeys()) {
  return { store, keyring: new TenantKeyring(store as unknown as TenantKeyRepository, keks(), options) };
}

describe('TenantKeyring', () => {
  it('creates a tenant key once, even for concurrent first uses, and then serves it from memory', async () => {
    const { store, keyring: k } = keyring();
    const sealed = await Promise.all([1, 2, 3].map((n) => k.encryptJson(TENANT, `token:${n}`, { n })));
    expect(store.calls.create).toBe(1);
    expect(new Set(sealed.map((s) => s.keyId)).size).toBe(1);
    const reads = store.calls.findActive + store.calls.find;
    for (const [i, s] of sealed.entries()) expect(await k.decryptJson(TENANT, s.keyId, s.ciphertext, `token:${i + 1}`)).toEqual({ n: i + 1 });
    expect(store.calls.findActive + store.calls.find).toBe(reads);
  });

  it("forgets a tenant's unwrapped keys (no other tenant's): the next use reads and unwraps them again", async () => {
    const OTHER = '00000000-0000-4000-8000-000000000002';
    const { store, keyring: k } = keyring();
    const mine = await k.encryptJson(TENANT, 'token:a', 'mine');
    const theirs = await k.encryptJson(OTHER, 'token:b', 'theirs');
    const reads = () => store.calls.findActive + store.calls.find;
    const before = reads();
    k.forgetTenant(TENANT);
    expect(await k.decryptJson(OTHER, theirs.keyId, theirs.ciphertext, 'token:b')).toBe('theirs');
    expect(reads()).toBe(before);
    expect(await k.decryptJson(TENANT, mine.keyId, mine.ciphertext, 'token:a')).toBe('mine');
    expect(reads()).toBe(before + 1);
    await k.encryptJson(TENANT, 'token:c', 'again');
    expect(reads()).toBe(before + 2);
    // once its rows are gone (a deleted tenant), nothing of it is left to use
    store.rows = store.rows.filter((r) => r.tenantId !== TENANT);
    k.forgetTenant(TENANT);
    await expect(k.decryptJson(TENANT, mine.keyId, mine.ciphertext, 'token:a')).rejects.toThrow();
  });

  // the operator deleted or suspended the tenant (or reissued its key) while a load of its active key was under way:
  // what that load read may be from before, so a use that starts after the forget must not share it
  it('does not share with a use that starts after a forget the load of a key that was under way before it', async () => {
    const { store, keyring: k } = keyring();
    await k.encryptJson(TENANT, 'token:a', 'warm');
    k.forgetTenant(TENANT);
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    const findActive = store.findActive.bind(store);
    store.findActive = async (tenantId, purpose) => {
      await held;
      return findActive(tenantId, purpose);
    };
    const before = store.calls.findActive;
    const first = k.encryptJson(TENANT, 'token:b', 'before');
    k.forgetTenant(TENANT);
    const second = k.encryptJson(TENANT, 'token:c', 'after');
    await new Promise((r) => setImmediate(r));
    release();
    await Promise.all([first, second]);
    expect(store.calls.findActive - before).toBe(2);
    // and the second load, which no forget followed, is kept
    await k.encryptJson(TENANT, 'token:d', 'kept');
    expect(store.calls.findActive - before).toBe(2);
  });

  it('lists data key versions without key material, creating the first key of a tenant that has none', async () => {
    const { store, keyring: k } = keyring();
    const first = await k.dataKeyVersions(TENANT);
    expect(first).toEqual([{ id: expect.any(String), version: 1, active: true, createdAt: expect.any(Date), kekProvider: 'env' }]);
    await k.rotateDataKeys(TENANT);
    await k.activeDataKeyId(TENANT);
    const second = await k.dataKeyVersions(TENANT);
    expect(second.map((v) => [v.version, v.active])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(store.rows.filter((r) => r.purpose === 'data')).toHaveLength(2);
    for (const v of second) expect(Object.keys(v).sort()).toEqual(['active', 'createdAt', 'id', 'kekProvider', 'version']);
  });

  it('binds ciphertext to the tenant and the associated data', async () => {
    const { keyring: k } = keyring();
    const s = await k.encryptJson(TENANT, 'token:a', 'secret');
    await expect(k.decryptJson(TENANT, s.keyId, s.ciphertext, 'token:b')).rejects.toThrow();
  });

  it('after a rotation encrypts under a new data key and still decrypts the old', async () => {
    const { store, keyring: k } = keyring();
    const before = await k.encryptJson(TENANT, 'x', 1);
    await k.rotateDataKeys(TENANT);
    const after = await k.encryptJson(TENANT, 'x', 2);
    expect(after.keyId).not.toBe(before.keyId);
    expect(store.calls.create).toBe(2);
    expect(await k.decryptJson(TENANT, before.keyId, before.ciphertext, 'x')).toBe(1);
  });

  it.each([
    [undefined, 60_000],
    [2_000, 2_000],
  ])('sees a rotation made by another process once the active key is refreshMs (%s) old, not before', async (refreshMs, wait) => {
    let now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockImplementation(() => now);
    try {
      const { store, keyring: service } = keyring(refreshMs === undefined ? undefined : { refreshMs });
      const before = await service.encryptJson(TENANT, 'x', 1);
      // the operator CLI rotates with a keyring of its own, on the same table
      const { keyring: cli } = keyring(undefined, store);
      await cli.rotateDataKeys(TENANT);
      await cli.activeDataKeyId(TENANT);
      now += wait - 1;
      expect((await service.encryptJson(TENANT, 'x', 2)).keyId).toBe(before.keyId);
      now += 1;
      const after = await service.encryptJson(TENANT, 'x', 3);
      expect(after.keyId).not.toBe(before.keyId);
      expect(after.keyId).toBe(await cli.activeDataKeyId(TENANT));
    } finally {
      clock.mockRestore();
    }
  });
});

describe('TenantKeyRepository', () => {
  it("reads through the keyring's own pool, never PrismaService (whose connections a write's transaction may hold)", async () => {
    const row = { id: 'k' } as TenantKey;
    const pool = { query: jest.fn().mockResolvedValue([row]) };
    await expect(new TenantKeyRepository(pool as unknown as KeyringPool).findActive(TENANT, 'data')).resolves.toBe(row);
    expect(pool.query).toHaveBeenCalledTimes(1);
    expect(pool.query.mock.calls[0][0].values).toEqual([TENANT, 'data']);
  });
});

describe('TenantKeyring.warm', () => {
  it('loads both active keys at once, so a write finds them cached', async () => {
    const { store, keyring: k } = keyring();
    await k.warm(TENANT);
    expect(store.calls.create).toBe(2);
    const reads = store.calls.findActive;
    await k.encryptJson(TENANT, 'x', 1);
    await k.digest(TENANT, 'x');
    expect(store.calls.findActive).toBe(reads);
  });
});

/** A KEK provider that counts its calls and can be switched off, as an HSM that went away. */
class CountingProvider extends KeyEncryptionKeyProvider {
  readonly kind = 'test';
  readonly inner = new EnvKeyEncryptionKeyProvider(keks());
  calls = { wrap: 0, unwrap: 0 };
  down = false;
  primaryId() {
    return this.inner.primaryId();
  }
  async wrap(dataKey: Buffer, context: string) {
    if (this.down) throw new KeyCustodyUnavailableError('down');
    this.calls.wrap++;
    return this.inner.wrap(dataKey, context);
  }
  async unwrap(kekId: string, wrapped: Uint8Array, context: string) {
    if (this.down) throw new KeyCustodyUnavailableError('down');
    this.calls.unwrap++;
    return this.inner.unwrap(kekId, wrapped, context);
  }
  async ready() {
    return !this.down;
  }
  async close() {
    /* nothing */
  }
}

describe('TenantKeyring with a KEK provider', () => {
  const OTHER = '00000000-0000-4000-8000-000000000002';

  it('unwraps each key once: warm reads and writes never reach the provider, not even the minutely active-key refresh', async () => {
    const store = new MemoryTenantKeys();
    const kek = new CountingProvider();
    const k = new TenantKeyring(store as unknown as TenantKeyRepository, kek);
    const s = await k.encryptJson(TENANT, 'a', 1);
    const before = { ...kek.calls };
    for (let i = 0; i < 50; i++) await k.decryptJson(TENANT, s.keyId, s.ciphertext, 'a');
    await k.encryptJson(TENANT, 'b', 2);
    expect(kek.calls).toEqual(before);
  });

  it('keeps serving cached keys while the provider is down; a cold key is a 503 problem, and works again when it is back', async () => {
    const store = new MemoryTenantKeys();
    const kek = new CountingProvider();
    const writer = new TenantKeyring(store as unknown as TenantKeyRepository, kek);
    const warm = await writer.encryptJson(TENANT, 'a', 'warm');
    const cold = await writer.encryptJson(OTHER, 'a', 'cold');
    // a second process that has only read TENANT's key so far
    const reader = new TenantKeyring(store as unknown as TenantKeyRepository, kek);
    await reader.decryptJson(TENANT, warm.keyId, warm.ciphertext, 'a');
    kek.down = true;
    expect(await reader.decryptJson(TENANT, warm.keyId, warm.ciphertext, 'a')).toBe('warm');
    const err = await reader.decryptJson(OTHER, cold.keyId, cold.ciphertext, 'a').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProblemError);
    expect((err as ProblemError).problem).toMatchObject({ status: 503, title: 'Service Unavailable' });
    kek.down = false;
    expect(await reader.decryptJson(OTHER, cold.keyId, cold.ciphertext, 'a')).toBe('cold');
  });

  it('counts what the provider fails in coffer_key_provider_errors_total{provider,reason}', async () => {
    const count = async (reason: string) =>
      (await keyProviderErrors.get()).values.find((v) => v.labels['provider'] === 'test' && v.labels['reason'] === reason)?.value ?? 0;
    const store = new MemoryTenantKeys();
    const kek = new CountingProvider();
    const writer = new TenantKeyring(store as unknown as TenantKeyRepository, kek);
    const sealed = await writer.encryptJson(TENANT, 'a', 'x');
    // both series exist from the start, at 0 until an error: an alert's increase() sees the first one
    expect((await keyProviderErrors.get()).values.filter((v) => v.labels['provider'] === 'test').map((v) => v.labels['reason'])).toEqual(
      expect.arrayContaining(['unavailable', 'failed']),
    );
    const before = { unavailable: await count('unavailable'), failed: await count('failed') };
    kek.down = true;
    await new TenantKeyring(store as unknown as TenantKeyRepository, kek).decryptJson(TENANT, sealed.keyId, sealed.ciphertext, 'a').catch(() => undefined);
    kek.down = false;
    kek.unwrap = async () => {
      throw new Error('the wrapped key does not open');
    };
    await new TenantKeyring(store as unknown as TenantKeyRepository, kek).decryptJson(TENANT, sealed.keyId, sealed.ciphertext, 'a').catch(() => undefined);
    expect({ unavailable: await count('unavailable'), failed: await count('failed') }).toEqual({
      unavailable: before.unavailable + 1,
      failed: before.failed + 1,
    });
  });

  it('forgets an unwrapped key after its cache lifetime, and unwraps it again', async () => {
    jest.useFakeTimers({ now: Date.now() });
    try {
      const store = new MemoryTenantKeys();
      const kek = new CountingProvider();
      const k = new TenantKeyring(store as unknown as TenantKeyRepository, kek, { cacheTtlMs: 10_000 });
      const s = await k.encryptJson(TENANT, 'a', 1);
      const unwraps = kek.calls.unwrap;
      jest.setSystemTime(Date.now() + 9_000);
      await k.decryptJson(TENANT, s.keyId, s.ciphertext, 'a');
      expect(kek.calls.unwrap).toBe(unwraps);
      jest.setSystemTime(Date.now() + 2_000);
      await k.decryptJson(TENANT, s.keyId, s.ciphertext, 'a');
      expect(kek.calls.unwrap).toBe(unwraps + 1);
    } finally {
      jest.useRealTimers();
    }
  });
});
