import { KeyringPool } from '@coffer/db';
import { TenantKeyRepository, TenantKeyring } from '@coffer/crypto/keyring';
import { kekProviderForCli } from '../key-custody';

/**
 * The keyring of this process (a CLI without Nest, so built by hand) under the configured key-encryption key
 * (KEK_PROVIDER: env or the HSM), closed after `fn`.
 */
export async function withKeyring<T>(fn: (keyring: TenantKeyring) => Promise<T>): Promise<T> {
  const provider = await kekProviderForCli();
  const pool = new KeyringPool();
  try {
    return await fn(new TenantKeyring(new TenantKeyRepository(pool), provider));
  } finally {
    await pool.end();
    await provider.close();
  }
}
