import type { KeyringPool, TenantKey } from '@coffer/db';
import { KeyEncryptionKeys } from '../key-encryption-keys';
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
  }
  async retireDataKeys(tenantId: string) {
    for (const r of this.rows) if (r.tenantId === tenantId && r.purpose === 'data') r.active = false;
  }
  async rewrap() {
    /* not used here */
  }
}

function keyring() {
  const store = new MemoryTenantKeys();
  return { store, keyring: new TenantKeyring(store as unknown as TenantKeyRepository, keks()) };
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
