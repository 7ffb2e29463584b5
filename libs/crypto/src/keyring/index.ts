// A secondary entry point (@coffer/crypto/keyring): the keyring reads and writes tenant_keys through Prisma, so
// processes without a database (the gateway, which hashes API keys with @coffer/crypto) do not load the client.
export * from './tenant-key.repository';
export * from './tenant-keyring';
export * from './keyring.module';
export * from './keyring-config';
export * from './webhook-secret-seal';
