import { Global, Module } from '@nestjs/common';
import { KeyringPool } from '@coffer/db';
import { KeyEncryptionKeys } from '../key-encryption-keys';
import { TenantKeyRepository } from './tenant-key.repository';
import { TenantKeyring } from './tenant-keyring';

/**
 * One TenantKeyring per process (one key cache), for every provider that encrypts or digests: import it once in the
 * app module, next to DbModule. The key-encryption keys come from KEY_ENCRYPTION_KEYS (validated at start-up); the
 * keys themselves are read through the keyring's own small pool (KeyringPool).
 */
@Global()
@Module({
  providers: [{ provide: KeyEncryptionKeys, useFactory: () => KeyEncryptionKeys.fromEnv() }, KeyringPool, TenantKeyRepository, TenantKeyring],
  exports: [TenantKeyring],
})
export class KeyringModule {}
