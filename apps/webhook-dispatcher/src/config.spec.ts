import { ConfigError } from '@coffer/observability';
import { loadWebhookDispatcherConfig } from './config';

const VARS = [
  'HEALTH_PORT',
  'DATABASE_POOL_SIZE',
  'ALLOW_PRIVATE_CALLBACKS',
  'WEBHOOK_RETRY_SCHEDULE',
  'WEBHOOK_POLL_INTERVAL_MS',
  'EVENT_RELAY_INTERVAL_MS',
  'WEBHOOK_CONCURRENCY',
  'WEBHOOK_TENANT_CONCURRENCY',
  'WEBHOOK_RECEIVER_CONCURRENCY',
  'WEBHOOK_BREAKER_FAILURES',
  'WEBHOOK_BREAKER_COOLDOWN_MS',
  'WEBHOOK_ATTEMPT_TIMEOUT_MS',
  'EVENTS_STREAM',
  'EVENTS_STREAM_MAX_AGE_HOURS',
  'EVENTS_STREAM_REPLICAS',
  'SMTP_URL',
  'SMTP_FROM',
  'DELIVERY_RETENTION_DAYS',
  'RETENTION_INTERVAL_MS',
  'LOG_LEVEL',
  'SHUTDOWN_TIMEOUT_MS',
  'NATS_URL',
  'NATS_USER',
  'NATS_PASSWORD',
  'NATS_TOKEN',
];

describe('webhook-dispatcher configuration', () => {
  const saved = { ...process.env };
  beforeEach(() => VARS.forEach((v) => delete process.env[v]));
  afterAll(() => {
    process.env = saved;
  });

  it("has today's defaults", () => {
    expect(loadWebhookDispatcherConfig()).toEqual({
      logLevel: 'info',
      shutdownTimeoutMs: 25_000,
      memoryReclaimIdleMs: 10_000,
      natsServers: ['nats://127.0.0.1:4222'],
      healthPort: 9104,
      databasePoolSize: 10,
      allowPrivateCallbacks: false,
      webhookRetryScheduleMs: [5_000, 30_000, 120_000, 300_000, 600_000, 1_200_000, 1_800_000, 2_400_000, 2_700_000],
      webhookPollIntervalMs: 60_000,
      webhookConcurrency: 128,
      webhookTenantConcurrency: 16,
      webhookReceiverConcurrency: 8,
      webhookBreakerFailures: 5,
      webhookBreakerCooldownMs: 30_000,
      // Standard Webhooks: a receiver gets 15 to 30 seconds to answer
      webhookAttemptTimeoutMs: 15_000,
      eventRelayIntervalMs: 60_000,
      eventsStream: true,
      eventsStreamMaxAgeHours: 168,
      eventsStreamReplicas: 1,
      smtpFrom: 'Coffer <coffer@localhost>',
      deliveryRetentionDays: 30,
      retentionIntervalMs: 600_000,
    });
  });

  it('reads the values given (ALLOW_PRIVATE_CALLBACKS=1 is on)', () => {
    Object.assign(process.env, { ALLOW_PRIVATE_CALLBACKS: '1', WEBHOOK_RETRY_SCHEDULE: '200ms,1s', WEBHOOK_POLL_INTERVAL_MS: '250' });
    expect(loadWebhookDispatcherConfig()).toMatchObject({ allowPrivateCallbacks: true, webhookRetryScheduleMs: [200, 1000], webhookPollIntervalMs: 250 });
  });

  it("bounds a tenant's share by the total and a receiver's by the tenant's; the defaults shrink with a smaller total", () => {
    Object.assign(process.env, { WEBHOOK_CONCURRENCY: '4' });
    expect(loadWebhookDispatcherConfig()).toMatchObject({ webhookConcurrency: 4, webhookTenantConcurrency: 4, webhookReceiverConcurrency: 4 });
    Object.assign(process.env, { WEBHOOK_TENANT_CONCURRENCY: '5' });
    expect(() => loadWebhookDispatcherConfig()).toThrow(new ConfigError('WEBHOOK_TENANT_CONCURRENCY must be an integer between 1 and 4, got "5"'));
    Object.assign(process.env, { WEBHOOK_TENANT_CONCURRENCY: '2', WEBHOOK_RECEIVER_CONCURRENCY: '3' });
    expect(() => loadWebhookDispatcherConfig()).toThrow(new ConfigError('WEBHOOK_RECEIVER_CONCURRENCY must be an integer between 1 and 2, got "3"'));
  });

  it.each([
    ['WEBHOOK_CONCURRENCY', '0', 'WEBHOOK_CONCURRENCY must be an integer between 1 and 10000, got "0"'],
    ['WEBHOOK_BREAKER_FAILURES', 'five', 'WEBHOOK_BREAKER_FAILURES must be an integer between 1 and 1000, got "five"'],
    // the claims' lease (60 s) must outlast an attempt
    ['WEBHOOK_ATTEMPT_TIMEOUT_MS', '60000', 'WEBHOOK_ATTEMPT_TIMEOUT_MS must be an integer between 1000 and 30000, got "60000"'],
    ['WEBHOOK_BREAKER_COOLDOWN_MS', '500', 'WEBHOOK_BREAKER_COOLDOWN_MS must be an integer between 1000 and 3600000, got "500"'],
    ['ALLOW_PRIVATE_CALLBACKS', 'enabled', 'ALLOW_PRIVATE_CALLBACKS must be true or false, got "enabled"'],
    ['WEBHOOK_POLL_INTERVAL_MS', '1s', 'WEBHOOK_POLL_INTERVAL_MS must be an integer between 10 and 3600000, got "1s"'],
    ['SMTP_URL', 'http://relay', 'SMTP_URL must use smtp or smtps://'],
    ['WEBHOOK_RETRY_SCHEDULE', '5 seconds', 'WEBHOOK_RETRY_SCHEDULE must be a comma list like 5s,30s,2m — got "5 seconds"'],
  ])('stops on %s=%s', (name, value, message) => {
    process.env[name] = value;
    expect(() => loadWebhookDispatcherConfig()).toThrow(new ConfigError(message));
  });
});
