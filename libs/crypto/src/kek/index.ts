export * from './kek-provider';
export * from './env-kek-provider';
export * from './pkcs11-kek-provider';
export * from './kek-config';
