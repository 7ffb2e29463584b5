import { KeyringPool } from '@coffer/db';
import { KeyEncryptionKeys } from '@coffer/crypto';
import { TenantKeyRepository, TenantKeyring } from '@coffer/crypto/keyring';

/** The keyring of this process (a CLI without Nest, so built by hand), closed after `fn`. */
export async function withKeyring<T>(fn: (keyring: TenantKeyring) => Promise<T>): Promise<T> {
  const pool = new KeyringPool();
  try {
    return await fn(new TenantKeyring(new TenantKeyRepository(pool), KeyEncryptionKeys.fromEnv()));
  } finally {
    await pool.end();
  }
}
