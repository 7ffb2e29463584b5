import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { KeyringPool } from '@coffer/db';
import { createLogger } from '@coffer/observability';
import { KeyEncryptionKeyProvider, kekProviderFromEnv } from '../kek';
import { TenantKeyRepository } from './tenant-key.repository';
import { DEFAULT_DATA_KEY_CACHE_TTL_MS, TENANT_KEYRING_OPTIONS, TenantKeyring, type TenantKeyringOptions } from './tenant-keyring';

/** DATA_KEY_CACHE_TTL_MS: 1 s – 1 day, default 1 h (validated by kekProviderFromEnv's callers' config as well). */
function keyringOptions(): TenantKeyringOptions {
  const raw = process.env['DATA_KEY_CACHE_TTL_MS'];
  const n = raw ? Number(raw) : DEFAULT_DATA_KEY_CACHE_TTL_MS;
  if (!Number.isInteger(n) || n < 1000 || n > 86_400_000) throw new Error('DATA_KEY_CACHE_TTL_MS must be an integer from 1000 to 86400000');
  return { cacheTtlMs: n };
}

/**
 * One TenantKeyring per process (one key cache), for every provider that encrypts or digests: import it once in the
 * app module, next to DbModule. The key-encryption key comes from the provider KEK_PROVIDER names (env:
 * KEY_ENCRYPTION_KEYS; pkcs11: a key inside an HSM, docs/keys.md); the tenant keys are read through the keyring's
 * own small pool (KeyringPool). KeyEncryptionKeyProvider is exported for the service's readiness check.
 */
@Global()
@Module({
  providers: [
    {
      provide: KeyEncryptionKeyProvider,
      useFactory: () => {
        const logger = createLogger(process.env['SERVICE_NAME'] ?? 'keyring');
        return kekProviderFromEnv({ log: (level, message) => logger[level]({ component: 'kek-provider' }, message) });
      },
    },
    { provide: TENANT_KEYRING_OPTIONS, useFactory: keyringOptions },
    KeyringPool,
    TenantKeyRepository,
    TenantKeyring,
  ],
  exports: [TenantKeyring, KeyEncryptionKeyProvider],
})
export class KeyringModule implements OnApplicationShutdown {
  constructor(@Inject(KeyEncryptionKeyProvider) private readonly kek: KeyEncryptionKeyProvider) {}

  async onApplicationShutdown(): Promise<void> {
    await this.kek.close();
  }
}
