import {
  databaseIdleInTransactionTimeoutMs,
  databaseKeyringPoolSize,
  databaseLockTimeoutMs,
  databasePoolSize,
  databaseStatementTimeoutMs,
  type DatabaseConfig,
} from '@coffer/db';
import { ConfigError, configOnce, envInt, loadProcessConfig, type ProcessConfig } from '@coffer/observability';

/** Everything token-service reads from the environment (docs/operations.md#configuration). */
export interface TokenServiceConfig extends ProcessConfig {
  /** DATABASE_POOL_SIZE: 1–1000, default 10 (per pool) */
  readonly databasePoolSize: number;
  /** TOKEN_SWEEP_INTERVAL_MS: 100 ms – 1 day, default 60 000 */
  readonly tokenSweepIntervalMs: number;
  /** DATABASE_STATEMENT_TIMEOUT_MS (30 000), DATABASE_LOCK_TIMEOUT_MS (10 000), DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS (60 000): 0 – 1 h, 0 = none */
  readonly databaseTimeouts: Pick<DatabaseConfig, 'statementTimeoutMs' | 'lockTimeoutMs' | 'idleInTransactionTimeoutMs'>;
  /** DATABASE_KEYRING_POOL_SIZE: 1–100, default 2 (the keyring's own pool) */
  readonly databaseKeyringPoolSize: number;
  /** EXPRESSION_TEMPLATE_MS: 1–1000, default 50 — what one liquidjs render may take (docs/availability.md) */
  readonly expressionTemplateMs: number;
  /** EXPRESSION_WRITE_BUDGET_MS: 1–10 000, default 100 — all expressions of one create, tokenize or update */
  readonly expressionWriteBudgetMs: number;
  /** EXPRESSION_READ_BUDGET_MS: 1–10 000, default 100, at least the write budget — all masks of one read */
  readonly expressionReadBudgetMs: number;
  /** AUDIT_SEAL_INTERVAL_MS: 50 ms – 1 min, default 1000 — how soon after they were written new audit records are sealed */
  readonly auditSealIntervalMs: number;
  /** AUDIT_SEAL_SWEEP_INTERVAL_MS: 1 s – 1 day, default 60 000 — the sealer's safety sweep, for a lost wake-up */
  readonly auditSealSweepIntervalMs: number;
  /** AUDIT_RETENTION_DAYS: 1–36 500, default 365 — audit records older are pruned (per-tenant override: admin audit retention) */
  readonly auditRetentionDays: number;
  /** AUDIT_PRUNE_INTERVAL_MS: 1 s – 1 day, default 3 600 000 — how often the pruner runs */
  readonly auditPruneIntervalMs: number;
}

export const DEFAULT_HEALTH_PORT = 9101;

/** The settings (all have defaults); throws ConfigError naming the first bad variable. */
export function loadTokenServiceConfig(): TokenServiceConfig {
  const expressionWriteBudgetMs = envInt('EXPRESSION_WRITE_BUDGET_MS', 100, 1, 10_000);
  const expressionReadBudgetMs = envInt('EXPRESSION_READ_BUDGET_MS', 100, 1, 10_000);
  // a token whose expressions fit a write must be shown unredacted when read alone
  if (expressionReadBudgetMs < expressionWriteBudgetMs)
    throw new ConfigError(`EXPRESSION_READ_BUDGET_MS (${expressionReadBudgetMs}) must be at least EXPRESSION_WRITE_BUDGET_MS (${expressionWriteBudgetMs})`);
  return {
    ...loadProcessConfig(DEFAULT_HEALTH_PORT),
    databasePoolSize: databasePoolSize(),
    tokenSweepIntervalMs: envInt('TOKEN_SWEEP_INTERVAL_MS', 60_000, 100, 86_400_000),
    expressionTemplateMs: envInt('EXPRESSION_TEMPLATE_MS', 50, 1, 1000),
    expressionWriteBudgetMs,
    expressionReadBudgetMs,
    auditSealIntervalMs: envInt('AUDIT_SEAL_INTERVAL_MS', 1000, 50, 60_000),
    auditSealSweepIntervalMs: envInt('AUDIT_SEAL_SWEEP_INTERVAL_MS', 60_000, 1000, 86_400_000),
    auditRetentionDays: envInt('AUDIT_RETENTION_DAYS', 365, 1, 36_500),
    auditPruneIntervalMs: envInt('AUDIT_PRUNE_INTERVAL_MS', 3_600_000, 1000, 86_400_000),
    databaseTimeouts: databaseTimeouts(),
    databaseKeyringPoolSize: databaseKeyringPoolSize(),
  };
}

function databaseTimeouts(): TokenServiceConfig['databaseTimeouts'] {
  return {
    statementTimeoutMs: databaseStatementTimeoutMs(),
    lockTimeoutMs: databaseLockTimeoutMs(),
    idleInTransactionTimeoutMs: databaseIdleInTransactionTimeoutMs(),
  };
}

const config = configOnce(loadTokenServiceConfig);
/** token-service's configuration, read once (the service bootstrap reads it first, after the database and key settings). */
export const tokenServiceConfig = config.get;
