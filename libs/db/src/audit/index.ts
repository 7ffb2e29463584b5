export * from './audit-chain';
export * from './audit-records';
export * from './audit-insert';
export * from './audit-ledger';
export * from './audit-log';
