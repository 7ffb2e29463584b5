export * from './idempotent-request';
export * from './idempotency-ledger';
export * from './idempotent-writes';
