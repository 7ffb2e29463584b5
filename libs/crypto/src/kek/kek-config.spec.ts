import { randomBytes } from 'node:crypto';
import { keyEncryptionKeysFromEnv } from './kek-config';

describe('KEY_ENCRYPTION_KEYS', () => {
  const k1 = randomBytes(32).toString('base64');
  const k2 = randomBytes(32).toString('base64');

  it('is required: no default key', () => {
    expect(() => keyEncryptionKeysFromEnv({})).toThrow(/^KEY_ENCRYPTION_KEYS is not set/);
    expect(() => keyEncryptionKeysFromEnv({ KEY_ENCRYPTION_KEYS: '' })).toThrow(/^KEY_ENCRYPTION_KEYS is not set/);
  });

  it('lists the keys, the first of which wraps', () => {
    const keys = keyEncryptionKeysFromEnv({ KEY_ENCRYPTION_KEYS: `new:${k1}, old:${k2}` });
    expect(keys.keys.map((k) => k.id)).toEqual(['new', 'old']);
    expect(keys.primary.id).toBe('new');
  });

  it('refuses a malformed entry, naming the variable and never quoting a key', () => {
    const short = randomBytes(16).toString('base64');
    expect(() => keyEncryptionKeysFromEnv({ KEY_ENCRYPTION_KEYS: `k1:${k1},k2:${short}` })).toThrow(
      'KEY_ENCRYPTION_KEYS entry 2 is invalid: expected "<id>:<base64 of 32 bytes>"',
    );
  });
});
