import { KeyringPool } from '@coffer/db';
import { TenantKeyRepository, TenantKeyring, keyringOptionsFromEnv } from '@coffer/crypto/keyring';
import { kekProviderForCli } from '../key-custody';

/**
 * The keyring of this process (a CLI without Nest, so built by hand) under the configured key-encryption key
 * (KEK_PROVIDER: env or the HSM) and the services' keyring settings, closed after `fn`.
 */
export async function withKeyring<T>(fn: (keyring: TenantKeyring) => Promise<T>): Promise<T> {
  const options = keyringOptionsFromEnv();
  const provider = await kekProviderForCli();
  const pool = new KeyringPool();
  try {
    return await fn(new TenantKeyring(new TenantKeyRepository(pool), provider, options));
  } finally {
    await pool.end();
    await provider.close();
  }
}
