export * from './prisma.service';
export { deferUntilCommitted, inTransaction } from './after-commit';
export type { TransactionOptions } from './transaction-options';
export * from './db.module';
export * from './pool-config';
export * from './sql-pool';
export * from './keyring-pool';
export * from './event-outbox';
export * from './pg-listener';
export { announceTenantAccessChanged, onTenantAccessChanged } from './tenant-access-signal';
export * from './reconnect-backoff';
export { CommitSignal, OUTBOX_INSERT_TEXT, auditSignal, outboxSignal } from './outbox-signal';
export * from './webhook-deliveries';
export * from './tenant-standing';
export { Prisma } from './generated/prisma/client';
export type {
  Tenant,
  WebhookSecret,
  Application,
  ApplicationKey,
  Session,
  TenantKey,
  Token,
  TokenSearchIndex,
  AuditEvent,
  AuditChain,
  IdempotencyRecord,
} from './generated/prisma/client';
export * from './audit';
export * from './retention-pruner';
export * from './periodic-work';
export * from './work-loop';
export { GroupCommitQueue, upTo } from './group-commit-queue';
export { databaseProblem, isForeignKeyViolation, isUniqueViolation, sqlStateOf } from './database-errors';
