import { KeyEncryptionKeys } from '../key-encryption-keys';
import { KeyEncryptionKeyProvider } from './kek-provider';

/** KEK_PROVIDER=env (the default): the keys of KEY_ENCRYPTION_KEYS, in this process's memory. */
export class EnvKeyEncryptionKeyProvider extends KeyEncryptionKeyProvider {
  readonly kind = 'env';

  constructor(readonly keys: KeyEncryptionKeys) {
    super();
  }

  primaryId(): string {
    return this.keys.primary.id;
  }

  async wrap(dataKey: Buffer, context: string) {
    return this.keys.wrap(dataKey, context);
  }

  async unwrap(kekId: string, wrapped: Uint8Array, context: string): Promise<Buffer> {
    return this.keys.unwrap(kekId, wrapped, context);
  }

  /** Whether `kekId` is one of KEY_ENCRYPTION_KEYS (the pkcs11 provider keeps them to read keys not yet re-wrapped). */
  has(kekId: string): boolean {
    return this.keys.keys.some((k) => k.id === kekId);
  }

  async ready(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    /* nothing held */
  }
}
