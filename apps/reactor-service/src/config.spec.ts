import { ConfigError } from '@coffer/observability';
import { readStartupConfig } from '@coffer/service-bootstrap';
import { loadReactorServiceConfig, reactorServiceConfig } from './config';

const VARS = [
  'HEALTH_PORT',
  'DATABASE_URL',
  'DATABASE_POOL_SIZE',
  'KEY_ENCRYPTION_KEYS',
  'ALLOW_PRIVATE_EGRESS',
  'EGRESS_ALLOW_HOSTS',
  'ALLOW_PRIVATE_CALLBACKS',
  'REACTOR_JOB_POLL_INTERVAL_MS',
  'REACTOR_JOB_CONCURRENCY',
  'REACTOR_JOB_LEASE_SLACK_MS',
  'SANDBOX_MAX_RUNNING_PER_TENANT',
  'SANDBOX_MAX_QUEUED_PER_TENANT',
  'SANDBOX_IDLE_EXIT_MS',
  'PROXY_TRANSFORM_WORKERS',
  'PROXY_TRANSFORM_BUDGET_MS',
  'PROXY_TRANSFORM_MAX_BYTES',
  'JOB_RETENTION_DAYS',
  'RETENTION_INTERVAL_MS',
  'LOG_LEVEL',
  'SHUTDOWN_TIMEOUT_MS',
  'NATS_URL',
  'NATS_USER',
  'NATS_PASSWORD',
  'NATS_TOKEN',
];
const KEK = `test:${Buffer.alloc(32, 7).toString('base64')}`;

describe('reactor-service configuration', () => {
  const saved = { ...process.env };
  beforeEach(() => VARS.forEach((v) => delete process.env[v]));
  afterAll(() => {
    process.env = saved;
  });

  it("has today's defaults", () => {
    expect(loadReactorServiceConfig()).toEqual({
      logLevel: 'info',
      shutdownTimeoutMs: 25_000,
      memoryReclaimIdleMs: 10_000,
      natsServers: ['nats://127.0.0.1:4222'],
      healthPort: 9103,
      databasePoolSize: 10,
      allowPrivateEgress: false,
      egressAllowHosts: [],
      allowPrivateCallbacks: false,
      reactorJobPollIntervalMs: 60_000,
      reactorJobConcurrency: 4,
      reactorJobLeaseSlackMs: 30_000,
      sandboxMaxRunningPerTenant: 4,
      sandboxMaxQueuedPerTenant: 100,
      sandboxIdleExitMs: 60_000,
      proxyTransformWorkers: 2,
      proxyTransformBudgetMs: 5_000,
      proxyTransformMaxBytes: 5 * 1024 * 1024,
      jobRetentionDays: 30,
      retentionIntervalMs: 600_000,
    });
  });

  it.each([
    ['true', true],
    ['TRUE', true],
    ['1', true],
    ['yes', true],
    ['false', false],
    ['0', false],
    ['No', false],
  ])('reads ALLOW_PRIVATE_EGRESS=%s as %p (1 and yes are on, like every boolean)', (value, expected) => {
    process.env['ALLOW_PRIVATE_EGRESS'] = value;
    process.env['ALLOW_PRIVATE_CALLBACKS'] = value;
    expect(loadReactorServiceConfig()).toMatchObject({ allowPrivateEgress: expected, allowPrivateCallbacks: expected });
  });

  it.each([
    ['ALLOW_PRIVATE_EGRESS', 'on', 'ALLOW_PRIVATE_EGRESS must be true or false, got "on"'],
    ['ALLOW_PRIVATE_CALLBACKS', 'maybe', 'ALLOW_PRIVATE_CALLBACKS must be true or false, got "maybe"'],
    [
      'EGRESS_ALLOW_HOSTS',
      'https://partner.internal/x',
      'EGRESS_ALLOW_HOSTS: "https://partner.internal/x" is not a host name or IP literal (no scheme, port or path)',
    ],
    ['REACTOR_JOB_CONCURRENCY', 'four', 'REACTOR_JOB_CONCURRENCY must be an integer between 1 and 1000, got "four"'],
    ['REACTOR_JOB_CONCURRENCY', '0', 'REACTOR_JOB_CONCURRENCY must be an integer between 1 and 1000, got "0"'],
    ['REACTOR_JOB_POLL_INTERVAL_MS', '1e3', 'REACTOR_JOB_POLL_INTERVAL_MS must be an integer between 10 and 3600000, got "1e3"'],
    ['REACTOR_JOB_LEASE_SLACK_MS', '-1', 'REACTOR_JOB_LEASE_SLACK_MS must be an integer between 0 and 86400000, got "-1"'],
    ['DATABASE_POOL_SIZE', '10.5', 'DATABASE_POOL_SIZE must be an integer between 1 and 1000, got "10.5"'],
    ['HEALTH_PORT', '70000', 'HEALTH_PORT must be an integer between 1 and 65535, got "70000"'],
    ['SANDBOX_MAX_RUNNING_PER_TENANT', '0', 'SANDBOX_MAX_RUNNING_PER_TENANT must be an integer between 1 and 1000, got "0"'],
    ['SANDBOX_MAX_QUEUED_PER_TENANT', 'many', 'SANDBOX_MAX_QUEUED_PER_TENANT must be an integer between 1 and 100000, got "many"'],
    ['PROXY_TRANSFORM_WORKERS', '0', 'PROXY_TRANSFORM_WORKERS must be an integer between 1 and 16, got "0"'],
    ['PROXY_TRANSFORM_BUDGET_MS', '15000', 'PROXY_TRANSFORM_BUDGET_MS must be an integer between 100 and 14000, got "15000"'],
    ['PROXY_TRANSFORM_MAX_BYTES', '6000000', 'PROXY_TRANSFORM_MAX_BYTES must be an integer between 1024 and 5242880, got "6000000"'],
  ])('stops on %s=%s', (name, value, message) => {
    process.env[name] = value;
    expect(() => loadReactorServiceConfig()).toThrow(new ConfigError(message));
  });

  it('at start-up also requires DATABASE_URL (a postgres URL, never quoted) and KEY_ENCRYPTION_KEYS', () => {
    const startup = () => readStartupConfig({ config: reactorServiceConfig, usesDatabase: true });
    expect(startup).toThrow('DATABASE_URL is not set');
    process.env['DATABASE_URL'] = 'mysql://u:secret@h/db';
    expect(startup).toThrow(new ConfigError('DATABASE_URL must use postgres or postgresql://'));
    process.env['DATABASE_URL'] = 'postgres://u:secret@h/db';
    expect(startup).toThrow(/KEY_ENCRYPTION_KEYS/);
    process.env['KEY_ENCRYPTION_KEYS'] = KEK;
    expect(startup()).toMatchObject({ healthPort: 9103 });
    expect(Object.isFrozen(reactorServiceConfig())).toBe(true);
  });
});
