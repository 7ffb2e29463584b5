import { ConfigError } from '@coffer/observability';
import { loadSessionServiceConfig } from './config';

const VARS = [
  'HEALTH_PORT',
  'DATABASE_POOL_SIZE',
  'SESSION_SWEEP_INTERVAL_MS',
  'CONSOLE_IDLE_TIMEOUT_MS',
  'CONSOLE_SESSION_MAX_AGE_MS',
  'CONSOLE_MAX_SESSIONS_PER_KEY',
  'LOG_LEVEL',
  'SHUTDOWN_TIMEOUT_MS',
  'NATS_URL',
  'NATS_USER',
  'NATS_PASSWORD',
  'NATS_TOKEN',
  'SMTP_URL',
  'SMTP_FROM',
  'CONSOLE_URL',
];

describe('session-service configuration', () => {
  const saved = { ...process.env };
  beforeEach(() => VARS.forEach((v) => delete process.env[v]));
  afterAll(() => {
    process.env = saved;
  });

  it("has today's defaults", () => {
    expect(loadSessionServiceConfig()).toEqual({
      logLevel: 'info',
      shutdownTimeoutMs: 25_000,
      memoryReclaimIdleMs: 10_000,
      natsServers: ['nats://127.0.0.1:4222'],
      healthPort: 9102,
      databasePoolSize: 10,
      sessionSweepIntervalMs: 600_000,
      consoleIdleTimeoutMs: 900_000,
      consoleSessionMaxAgeMs: 28_800_000,
      consoleMaxSessionsPerKey: 20,
      smtpFrom: 'Coffer <coffer@localhost>',
      consoleUrl: 'http://localhost:8081',
    });
  });

  it('reads the values given', () => {
    Object.assign(process.env, { SESSION_SWEEP_INTERVAL_MS: '1000', DATABASE_POOL_SIZE: '25', HEALTH_PORT: '9200' });
    expect(loadSessionServiceConfig()).toMatchObject({ sessionSweepIntervalMs: 1000, databasePoolSize: 25, healthPort: 9200 });
  });

  it('reads the relay, the sender and the console origin of invitations', () => {
    Object.assign(process.env, {
      SMTP_URL: 'smtps://u:p@relay.example.com:465',
      SMTP_FROM: 'Acme <no-reply@acme.test>',
      CONSOLE_URL: 'https://console.acme.test',
    });
    expect(loadSessionServiceConfig()).toMatchObject({
      smtpUrl: 'smtps://u:p@relay.example.com:465',
      smtpFrom: 'Acme <no-reply@acme.test>',
      consoleUrl: 'https://console.acme.test',
    });
  });

  it("reads the console sessions' limits", () => {
    Object.assign(process.env, { CONSOLE_IDLE_TIMEOUT_MS: '60000', CONSOLE_SESSION_MAX_AGE_MS: '3600000', CONSOLE_MAX_SESSIONS_PER_KEY: '3' });
    expect(loadSessionServiceConfig()).toMatchObject({ consoleIdleTimeoutMs: 60_000, consoleSessionMaxAgeMs: 3_600_000, consoleMaxSessionsPerKey: 3 });
  });

  it('treats an empty value as unset', () => {
    process.env['SHUTDOWN_TIMEOUT_MS'] = '';
    expect(loadSessionServiceConfig().shutdownTimeoutMs).toBe(25_000);
  });

  it.each([
    ['SESSION_SWEEP_INTERVAL_MS', '1m', 'SESSION_SWEEP_INTERVAL_MS must be an integer between 100 and 86400000, got "1m"'],
    ['SESSION_SWEEP_INTERVAL_MS', '0', 'SESSION_SWEEP_INTERVAL_MS must be an integer between 100 and 86400000, got "0"'],
    ['CONSOLE_IDLE_TIMEOUT_MS', '999', 'CONSOLE_IDLE_TIMEOUT_MS must be an integer between 1000 and 86400000, got "999"'],
    ['CONSOLE_SESSION_MAX_AGE_MS', '604800001', 'CONSOLE_SESSION_MAX_AGE_MS must be an integer between 1000 and 604800000, got "604800001"'],
    ['CONSOLE_MAX_SESSIONS_PER_KEY', '0', 'CONSOLE_MAX_SESSIONS_PER_KEY must be an integer between 1 and 10000, got "0"'],
    ['DATABASE_POOL_SIZE', 'ten', 'DATABASE_POOL_SIZE must be an integer between 1 and 1000, got "ten"'],
    ['SMTP_URL', 'http://relay', 'SMTP_URL must use smtp or smtps://'],
    [
      'CONSOLE_URL',
      'https://console.acme.test/app',
      'CONSOLE_URL must be an origin like https://console.example.com (scheme, host, optional port; no path), got "https://console.acme.test/app"',
    ],
  ])('stops on %s=%s', (name, value, message) => {
    process.env[name] = value;
    expect(() => loadSessionServiceConfig()).toThrow(new ConfigError(message));
  });
});
