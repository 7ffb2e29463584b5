import { databasePoolSize } from '@coffer/db';
import { configOnce, envBool, envInt, envString, envUrl, loadProcessConfig, type ProcessConfig } from '@coffer/observability';
import { DEFAULT_SCHEDULE, parseSchedule } from './deliveries/retry-schedule';

/** Everything webhook-dispatcher reads from the environment (docs/operations.md#configuration). */
export interface WebhookDispatcherConfig extends ProcessConfig {
  /** DATABASE_POOL_SIZE: 1–1000, default 10 (per pool) */
  readonly databasePoolSize: number;
  /** ALLOW_PRIVATE_CALLBACKS: boolean (true/1/yes, false/0/no), default false: http and private receivers allowed */
  readonly allowPrivateCallbacks: boolean;
  /** WEBHOOK_RETRY_SCHEDULE: 1–50 delays (`ms`, `s`, `m`, `h`), default 5s,30s,2m,5m,10m,20m,30m,40m,45m; in ms */
  readonly webhookRetryScheduleMs: readonly number[];
  /** WEBHOOK_POLL_INTERVAL_MS: 10 ms – 1 h, default 60 000: the claims' safety sweep (wake-ups and due retries run them otherwise) */
  readonly webhookPollIntervalMs: number;
  /** WEBHOOK_CONCURRENCY: 1–10 000, default 128: delivery attempts under way at once in this process */
  readonly webhookConcurrency: number;
  /** WEBHOOK_TENANT_CONCURRENCY: 1–WEBHOOK_CONCURRENCY, default 16: of those, one tenant's at most */
  readonly webhookTenantConcurrency: number;
  /** WEBHOOK_RECEIVER_CONCURRENCY: 1–WEBHOOK_TENANT_CONCURRENCY, default 8: of those, one receiver's (a tenant's URL origin) at most */
  readonly webhookReceiverConcurrency: number;
  /** WEBHOOK_BREAKER_FAILURES: 1–1 000, default 5: consecutive attempts a receiver was unavailable before it is left alone */
  readonly webhookBreakerFailures: number;
  /** WEBHOOK_BREAKER_COOLDOWN_MS: 1 s – 1 h, default 30 000: how long it is left alone (its deliveries deferred, no attempt used) */
  readonly webhookBreakerCooldownMs: number;
  /**
   * WEBHOOK_ATTEMPT_TIMEOUT_MS: 1 s – 30 s, default 15 000: how long a receiver has to answer an attempt (Standard
   * Webhooks gives 15–30 s; the claims' 60-second lease must outlast an attempt)
   */
  readonly webhookAttemptTimeoutMs: number;
  /** EVENT_RELAY_INTERVAL_MS: 10 ms – 1 h, default 60 000: the outbox relay's safety sweep (a notification after each commit wakes it otherwise) */
  readonly eventRelayIntervalMs: number;
  /** EVENTS_STREAM: boolean, default true: also publish every event to the JetStream stream COFFER_EVENTS */
  readonly eventsStream: boolean;
  /** EVENTS_STREAM_MAX_AGE_HOURS: 1–87 600, default 168 (7 days): how long the stream keeps events */
  readonly eventsStreamMaxAgeHours: number;
  /** EVENTS_STREAM_REPLICAS: 1–5, default 1 (3 on the production cluster) */
  readonly eventsStreamReplicas: number;
  /** SMTP_URL: smtp:// or smtps:// URL of the relay for webhook notices (unset: notices are only logged) */
  readonly smtpUrl?: string;
  /** SMTP_FROM: the notices' sender, default `Coffer <coffer@localhost>` */
  readonly smtpFrom: string;
  /** DELIVERY_RETENTION_DAYS: 1–3 650, default 30: finished deliveries, their attempts and finished reactor jobs older than this are pruned */
  readonly deliveryRetentionDays: number;
  /** RETENTION_INTERVAL_MS: 1 s – 1 day, default 600 000 (10 min): how often pruning runs */
  readonly retentionIntervalMs: number;
}

export const DEFAULT_HEALTH_PORT = 9104;

/** The settings (all have defaults); throws ConfigError naming the first bad variable. */
export function loadWebhookDispatcherConfig(): WebhookDispatcherConfig {
  // each share is bounded by the one above it: a tenant's limit above the total would let one tenant take every slot
  const webhookConcurrency = envInt('WEBHOOK_CONCURRENCY', 128, 1, 10_000);
  const webhookTenantConcurrency = envInt('WEBHOOK_TENANT_CONCURRENCY', Math.min(16, webhookConcurrency), 1, webhookConcurrency);
  const webhookReceiverConcurrency = envInt('WEBHOOK_RECEIVER_CONCURRENCY', Math.min(8, webhookTenantConcurrency), 1, webhookTenantConcurrency);
  return {
    ...loadProcessConfig(DEFAULT_HEALTH_PORT),
    databasePoolSize: databasePoolSize(),
    allowPrivateCallbacks: envBool('ALLOW_PRIVATE_CALLBACKS', false),
    webhookRetryScheduleMs: Object.freeze(parseSchedule(envString('WEBHOOK_RETRY_SCHEDULE', DEFAULT_SCHEDULE))),
    webhookPollIntervalMs: envInt('WEBHOOK_POLL_INTERVAL_MS', 60_000, 10, 3_600_000),
    webhookConcurrency,
    webhookTenantConcurrency,
    webhookReceiverConcurrency,
    webhookBreakerFailures: envInt('WEBHOOK_BREAKER_FAILURES', 5, 1, 1_000),
    webhookBreakerCooldownMs: envInt('WEBHOOK_BREAKER_COOLDOWN_MS', 30_000, 1_000, 3_600_000),
    webhookAttemptTimeoutMs: envInt('WEBHOOK_ATTEMPT_TIMEOUT_MS', 15_000, 1_000, 30_000),
    eventRelayIntervalMs: envInt('EVENT_RELAY_INTERVAL_MS', 60_000, 10, 3_600_000),
    eventsStream: envBool('EVENTS_STREAM', true),
    eventsStreamMaxAgeHours: envInt('EVENTS_STREAM_MAX_AGE_HOURS', 168, 1, 87_600),
    eventsStreamReplicas: envInt('EVENTS_STREAM_REPLICAS', 1, 1, 5),
    ...(process.env['SMTP_URL'] ? { smtpUrl: envUrl('SMTP_URL', ['smtp', 'smtps']) } : {}),
    smtpFrom: envString('SMTP_FROM', 'Coffer <coffer@localhost>'),
    deliveryRetentionDays: envInt('DELIVERY_RETENTION_DAYS', 30, 1, 3650),
    retentionIntervalMs: envInt('RETENTION_INTERVAL_MS', 600_000, 1_000, 86_400_000),
  };
}

const config = configOnce(loadWebhookDispatcherConfig);
/** webhook-dispatcher's configuration, read once (the service bootstrap reads it first, after the database and key settings). */
export const webhookDispatcherConfig = config.get;
