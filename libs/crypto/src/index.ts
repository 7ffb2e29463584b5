export * from './primitives';
export * from './key-encryption-keys';
export * from './kek';
