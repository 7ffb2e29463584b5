import { databasePoolSize } from '@coffer/db';
import { ELEMENTS_ORIGIN_PATTERN } from '@coffer/contracts';
import { ConfigError, configOnce, envInt, envString, envUrl, loadProcessConfig, type ProcessConfig } from '@coffer/observability';

/** Everything session-service reads from the environment (docs/operations.md#configuration). */
export interface SessionServiceConfig extends ProcessConfig {
  /** DATABASE_POOL_SIZE: 1–1000, default 10 (per pool) */
  readonly databasePoolSize: number;
  /** SESSION_SWEEP_INTERVAL_MS: 100 ms – 1 day, default 600 000 (10 min): expired sessions are refused at once; this only deletes them */
  readonly sessionSweepIntervalMs: number;
  /** CONSOLE_IDLE_TIMEOUT_MS: 1 s – 24 h, default 900 000 (15 min): a console session unused this long ends */
  readonly consoleIdleTimeoutMs: number;
  /** CONSOLE_SESSION_MAX_AGE_MS: 1 s – 7 days, default 28 800 000 (8 h): a console session ends this long after sign-in */
  readonly consoleSessionMaxAgeMs: number;
  /** CONSOLE_MAX_SESSIONS_PER_KEY: 1–10 000, default 20: live console sessions of one key or one person; past it the oldest ends */
  readonly consoleMaxSessionsPerKey: number;
  /** SMTP_URL: smtp:// or smtps:// URL of the relay for invitations (unset: invitations are not mailed, only logged) */
  readonly smtpUrl?: string;
  /** SMTP_FROM: the invitations' sender, default `Coffer <coffer@localhost>` */
  readonly smtpFrom: string;
  /** CONSOLE_URL: the console's public origin, which invitation links point to; default http://localhost:8081 */
  readonly consoleUrl: string;
}

export const DEFAULT_HEALTH_PORT = 9102;

/** The settings (all have defaults); throws ConfigError naming the first bad variable. */
export function loadSessionServiceConfig(): SessionServiceConfig {
  return {
    ...loadProcessConfig(DEFAULT_HEALTH_PORT),
    databasePoolSize: databasePoolSize(),
    sessionSweepIntervalMs: envInt('SESSION_SWEEP_INTERVAL_MS', 600_000, 100, 86_400_000),
    consoleIdleTimeoutMs: envInt('CONSOLE_IDLE_TIMEOUT_MS', 900_000, 1_000, 86_400_000),
    consoleSessionMaxAgeMs: envInt('CONSOLE_SESSION_MAX_AGE_MS', 28_800_000, 1_000, 604_800_000),
    consoleMaxSessionsPerKey: envInt('CONSOLE_MAX_SESSIONS_PER_KEY', 20, 1, 10_000),
    ...(process.env['SMTP_URL'] ? { smtpUrl: envUrl('SMTP_URL', ['smtp', 'smtps']) } : {}),
    smtpFrom: envString('SMTP_FROM', 'Coffer <coffer@localhost>'),
    consoleUrl: consoleUrl(),
  };
}

/** The gateway's rule for CONSOLE_URL: an origin (scheme, host, optional port; no path). */
function consoleUrl(): string {
  const url = envString('CONSOLE_URL', 'http://localhost:8081');
  if (!ELEMENTS_ORIGIN_PATTERN.test(url))
    throw new ConfigError(`CONSOLE_URL must be an origin like https://console.example.com (scheme, host, optional port; no path), got "${url}"`);
  return url;
}

const config = configOnce(loadSessionServiceConfig);
/** session-service's configuration, read once (the service bootstrap reads it first, after the database and key settings). */
export const sessionServiceConfig = config.get;
