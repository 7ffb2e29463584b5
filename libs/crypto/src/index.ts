export * from './primitives';
export * from './key-encryption-keys';
