import { generateSecret, open, seal, sha256Hex } from './primitives';
import { KeyEncryptionKeys } from './key-encryption-keys';
import { randomBytes } from 'node:crypto';

describe('primitives', () => {
  const key = randomBytes(32);

  it('seals and opens with the same AAD', () => {
    const sealed = seal(key, Buffer.from('4242424242424242'), Buffer.from('tenant/token'));
    expect(sealed.includes(Buffer.from('4242424242424242'))).toBe(false);
    expect(open(key, sealed, Buffer.from('tenant/token')).toString()).toBe('4242424242424242');
  });

  it('refuses a ciphertext moved to another owner (AAD)', () => {
    const sealed = seal(key, Buffer.from('x'), Buffer.from('tenant-a/token'));
    expect(() => open(key, sealed, Buffer.from('tenant-b/token'))).toThrow();
  });

  it('never gives two seals the same IV, across refills of the IV pool, and each still opens', () => {
    // 341 IVs per pool: 2,000 seals take several refills, and one sealed before a refill must keep its own IV
    const sealed = Array.from({ length: 2000 }, (_, i) => seal(key, Buffer.from(`v${i}`), Buffer.from('aad')));
    const ivs = new Set(sealed.map((s) => s.subarray(1, 13).toString('hex')));
    expect(ivs.size).toBe(sealed.length);
    sealed.forEach((s, i) => expect(open(key, s, Buffer.from('aad')).toString()).toBe(`v${i}`));
  });

  it('generates 256-bit secrets with a prefix and hashes them', () => {
    const a = generateSecret('key');
    expect(a).toMatch(/^key_[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(generateSecret('key'));
    expect(sha256Hex(a)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('hashes a key as the stored key hashes were made (SHA-256 of its UTF-8 bytes, hex)', () => {
    expect(sha256Hex('key_prod_Zoë€')).toBe('5b36045b5412718be7c289393bdfc35391a993ea691839bb5fc01818d968eb2f');
  });
});

describe('KeyEncryptionKeys', () => {
  it('parses a list and wraps with the first', () => {
    const keks = KeyEncryptionKeys.parse(`${KeyEncryptionKeys.generateEntry('a')},${KeyEncryptionKeys.generateEntry('b')}`);
    const dek = randomBytes(32);
    const { kekId, wrapped } = keks.wrap(dek, 'ctx');
    expect(kekId).toBe('a');
    expect(keks.unwrap(kekId, wrapped, 'ctx').equals(dek)).toBe(true);
  });

  it('names the variable when the value is bad', () => {
    expect(() => KeyEncryptionKeys.parse('nonsense')).toThrow(/KEY_ENCRYPTION_KEYS entry 1 is invalid/);
    expect(() => KeyEncryptionKeys.parse(undefined)).toThrow(/KEY_ENCRYPTION_KEYS is not set/);
  });
});
