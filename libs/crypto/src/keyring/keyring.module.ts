import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { KeyringPool } from '@coffer/db';
import { createLogger, serviceName } from '@coffer/observability';
import { KeyEncryptionKeyProvider, kekProviderFromEnv } from '../kek';
import { TenantKeyRepository } from './tenant-key.repository';
import { keyringOptionsFromEnv } from './keyring-config';
import { TENANT_KEYRING_OPTIONS, TenantKeyring } from './tenant-keyring';
import { TenantKeyEviction } from './tenant-key-eviction';

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
        const logger = createLogger(serviceName('keyring'));
        return kekProviderFromEnv({ log: (level, message) => logger[level]({ component: 'kek-provider' }, message) });
      },
    },
    // DATA_KEY_CACHE_TTL_MS (keyring-config.ts): a bad value stops the service here, at start-up
    { provide: TENANT_KEYRING_OPTIONS, useFactory: () => keyringOptionsFromEnv() },
    KeyringPool,
    TenantKeyRepository,
    TenantKeyring,
    // a deleted tenant's keys leave this process's memory when the operator's act commits (needs DbModule's PgListener)
    TenantKeyEviction,
  ],
  exports: [TenantKeyring, KeyEncryptionKeyProvider],
})
export class KeyringModule implements OnApplicationShutdown {
  constructor(@Inject(KeyEncryptionKeyProvider) private readonly kek: KeyEncryptionKeyProvider) {}

  async onApplicationShutdown(): Promise<void> {
    await this.kek.close();
  }
}
