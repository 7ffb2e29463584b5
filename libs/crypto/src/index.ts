export * from './primitives';
export * from './key-encryption-keys';
export * from './tenant-keyring';
