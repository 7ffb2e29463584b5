import { randomBytes } from 'node:crypto';
import { open, seal } from './primitives';

export interface KeyEncryptionKey {
  id: string;
  key: Buffer;
}

const ENTRY = /^([A-Za-z0-9_.-]{1,64}):([A-Za-z0-9+/=_-]+)$/;

/**
 * KEY_ENCRYPTION_KEYS = "<id>:<base64 32 bytes>,...": the first one wraps new data keys, all of them unwrap.
 * A KMS port would replace this class; the rest of the code only sees wrap/unwrap.
 */
export class KeyEncryptionKeys {
  private readonly byId = new Map<string, KeyEncryptionKey>();

  constructor(readonly keys: KeyEncryptionKey[]) {
    if (!keys.length) throw new Error('KEY_ENCRYPTION_KEYS holds no key');
    for (const k of keys) this.byId.set(k.id, k);
  }

  static parse(value: string | undefined, variable = 'KEY_ENCRYPTION_KEYS'): KeyEncryptionKeys {
    if (!value) throw new Error(`${variable} is not set: expected "<id>:<base64 of 32 bytes>[,...]"`);
    const keys = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((entry, i) => {
        const m = ENTRY.exec(entry);
        const key = m ? Buffer.from(m[2], 'base64') : undefined;
        if (!m || !key || key.length !== 32) throw new Error(`${variable} entry ${i + 1} is invalid: expected "<id>:<base64 of 32 bytes>"`);
        return { id: m[1], key };
      });
    return new KeyEncryptionKeys(keys);
  }

  static generateEntry(id = `kek-${new Date().toISOString().slice(0, 10)}-${randomBytes(3).toString('hex')}`): string {
    return `${id}:${randomBytes(32).toString('base64')}`;
  }

  get primary(): KeyEncryptionKey {
    return this.keys[0];
  }

  wrap(dataKey: Buffer, context: string): { kekId: string; wrapped: Buffer } {
    return { kekId: this.primary.id, wrapped: seal(this.primary.key, dataKey, Buffer.from(context)) };
  }

  unwrap(kekId: string, wrapped: Uint8Array, context: string): Buffer {
    const kek = this.byId.get(kekId);
    if (!kek) throw new Error(`key-encryption key "${kekId}" is not configured in KEY_ENCRYPTION_KEYS`);
    return open(kek.key, wrapped, Buffer.from(context));
  }
}
