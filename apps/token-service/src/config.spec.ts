import { ConfigError } from '@coffer/observability';
import { loadTokenServiceConfig } from './config';

const VARS = [
  'HEALTH_PORT',
  'DATABASE_POOL_SIZE',
  'DATABASE_STATEMENT_TIMEOUT_MS',
  'DATABASE_LOCK_TIMEOUT_MS',
  'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS',
  'DATABASE_KEYRING_POOL_SIZE',
  'TOKEN_SWEEP_INTERVAL_MS',
  'LOG_LEVEL',
  'SHUTDOWN_TIMEOUT_MS',
  'NATS_URL',
  'NATS_USER',
  'NATS_PASSWORD',
  'NATS_TOKEN',
  'EXPRESSION_TEMPLATE_MS',
  'EXPRESSION_WRITE_BUDGET_MS',
  'EXPRESSION_READ_BUDGET_MS',
  'AUDIT_SEAL_INTERVAL_MS',
  'AUDIT_SEAL_SWEEP_INTERVAL_MS',
  'AUDIT_RETENTION_DAYS',
  'AUDIT_PRUNE_INTERVAL_MS',
];

describe('token-service configuration', () => {
  const saved = { ...process.env };
  beforeEach(() => VARS.forEach((v) => delete process.env[v]));
  afterAll(() => {
    process.env = saved;
  });

  it("has today's defaults", () => {
    expect(loadTokenServiceConfig()).toEqual({
      logLevel: 'info',
      shutdownTimeoutMs: 25_000,
      memoryReclaimIdleMs: 10_000,
      natsServers: ['nats://127.0.0.1:4222'],
      healthPort: 9101,
      databasePoolSize: 10,
      tokenSweepIntervalMs: 60_000,
      databaseTimeouts: { statementTimeoutMs: 30_000, lockTimeoutMs: 10_000, idleInTransactionTimeoutMs: 60_000 },
      databaseKeyringPoolSize: 2,
      expressionTemplateMs: 50,
      expressionWriteBudgetMs: 100,
      expressionReadBudgetMs: 100,
      auditSealIntervalMs: 1000,
      auditSealSweepIntervalMs: 60_000,
      auditRetentionDays: 365,
      auditPruneIntervalMs: 3_600_000,
    });
  });

  it('refuses a read budget smaller than the write budget', () => {
    Object.assign(process.env, { EXPRESSION_WRITE_BUDGET_MS: '300', EXPRESSION_READ_BUDGET_MS: '200' });
    expect(() => loadTokenServiceConfig()).toThrow(new ConfigError('EXPRESSION_READ_BUDGET_MS (200) must be at least EXPRESSION_WRITE_BUDGET_MS (300)'));
  });

  it('reads the values given', () => {
    Object.assign(process.env, { TOKEN_SWEEP_INTERVAL_MS: '1000', DATABASE_POOL_SIZE: '25', HEALTH_PORT: '9200' });
    expect(loadTokenServiceConfig()).toMatchObject({ tokenSweepIntervalMs: 1000, databasePoolSize: 25, healthPort: 9200 });
  });

  it('treats an empty value as unset', () => {
    process.env['SHUTDOWN_TIMEOUT_MS'] = '';
    expect(loadTokenServiceConfig().shutdownTimeoutMs).toBe(25_000);
  });

  it.each([
    ['TOKEN_SWEEP_INTERVAL_MS', '1m', 'TOKEN_SWEEP_INTERVAL_MS must be an integer between 100 and 86400000, got "1m"'],
    ['AUDIT_RETENTION_DAYS', '0', 'AUDIT_RETENTION_DAYS must be an integer between 1 and 36500, got "0"'],
    ['TOKEN_SWEEP_INTERVAL_MS', '0', 'TOKEN_SWEEP_INTERVAL_MS must be an integer between 100 and 86400000, got "0"'],
    ['DATABASE_POOL_SIZE', 'ten', 'DATABASE_POOL_SIZE must be an integer between 1 and 1000, got "ten"'],
    ['DATABASE_STATEMENT_TIMEOUT_MS', '30s', 'DATABASE_STATEMENT_TIMEOUT_MS must be an integer between 0 and 3600000, got "30s"'],
    ['DATABASE_LOCK_TIMEOUT_MS', '-1', 'DATABASE_LOCK_TIMEOUT_MS must be an integer between 0 and 3600000, got "-1"'],
    ['DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS', '3600001', 'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS must be an integer between 0 and 3600000, got "3600001"'],
    ['DATABASE_KEYRING_POOL_SIZE', '0', 'DATABASE_KEYRING_POOL_SIZE must be an integer between 1 and 100, got "0"'],
    ['EXPRESSION_TEMPLATE_MS', '0', 'EXPRESSION_TEMPLATE_MS must be an integer between 1 and 1000, got "0"'],
    ['EXPRESSION_WRITE_BUDGET_MS', '20000', 'EXPRESSION_WRITE_BUDGET_MS must be an integer between 1 and 10000, got "20000"'],
  ])('stops on %s=%s', (name, value, message) => {
    process.env[name] = value;
    expect(() => loadTokenServiceConfig()).toThrow(new ConfigError(message));
  });
});
