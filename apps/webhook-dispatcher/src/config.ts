import { validateKekConfig } from '@coffer/crypto';
import { databaseConfig, databasePoolSize } from '@coffer/db';
import { configOnce, envBool, envInt, envString, loadProcessConfig, type ProcessConfig } from '@coffer/observability';
import { DEFAULT_SCHEDULE, parseSchedule } from './deliveries/retry-schedule';

/** Everything webhook-dispatcher reads from the environment (docs/operations.md#configuration). */
export interface WebhookDispatcherConfig extends ProcessConfig {
  /** HEALTH_PORT: 1–65535, default 9104 */
  readonly healthPort: number;
  /** DATABASE_POOL_SIZE: 1–1000, default 10 (per pool) */
  readonly databasePoolSize: number;
  /** ALLOW_PRIVATE_CALLBACKS: boolean (true/1/yes, false/0/no), default false: http and private receivers allowed */
  readonly allowPrivateCallbacks: boolean;
  /** WEBHOOK_RETRY_SCHEDULE: 1–50 delays (`ms`, `s`, `m`, `h`), default 5s,30s,2m,5m,10m,20m,30m,40m,45m; in ms */
  readonly webhookRetryScheduleMs: readonly number[];
  /** WEBHOOK_POLL_INTERVAL_MS: 10 ms – 1 h, default 1 000 */
  readonly webhookPollIntervalMs: number;
}

export const DEFAULT_HEALTH_PORT = 9104;

/** The settings (all have defaults); throws ConfigError naming the first bad variable. */
export function loadWebhookDispatcherConfig(): WebhookDispatcherConfig {
  return {
    ...loadProcessConfig(),
    healthPort: envInt('HEALTH_PORT', DEFAULT_HEALTH_PORT, 1, 65535),
    databasePoolSize: databasePoolSize(),
    allowPrivateCallbacks: envBool('ALLOW_PRIVATE_CALLBACKS', false),
    webhookRetryScheduleMs: Object.freeze(parseSchedule(envString('WEBHOOK_RETRY_SCHEDULE', DEFAULT_SCHEDULE))),
    webhookPollIntervalMs: envInt('WEBHOOK_POLL_INTERVAL_MS', 1_000, 10, 3_600_000),
  };
}

const config = configOnce(loadWebhookDispatcherConfig);
/** webhook-dispatcher's configuration, read once (main.ts reads it first, inside validateConfig). */
export const webhookDispatcherConfig = config.get;

/**
 * main.ts, before anything starts: the settings plus the required secrets that libs/db and libs/crypto read
 * themselves (DATABASE_URL: a postgres:// URL; KEY_ENCRYPTION_KEYS, needed to open the bodies it delivers).
 */
export function startupConfig(): Readonly<WebhookDispatcherConfig> {
  databaseConfig(); // DATABASE_URL and the statement, lock and idle-in-transaction timeouts
  validateKekConfig();
  return webhookDispatcherConfig();
}
