import { ConfigError, envInt, envList, envString } from './config';
import { logLevel, type LogLevel } from './logger';

/** The settings every Coffer process reads (each service's config module includes them). */
export interface ProcessConfig {
  /** LOG_LEVEL: fatal | error | warn | info (default) | debug | trace | silent */
  readonly logLevel: LogLevel;
  /** SHUTDOWN_TIMEOUT_MS: 1 ms – 1 h, default 25 000: on SIGTERM the process exits at the latest after this long */
  readonly shutdownTimeoutMs: number;
  /** NATS_URL: comma list of `nats://` / `tls://` URLs or `host:port`, default nats://127.0.0.1:4222 */
  readonly natsServers: readonly string[];
  /** NATS_USER / NATS_PASSWORD (both or neither), NATS_TOKEN: optional credentials */
  readonly natsUser?: string;
  readonly natsPassword?: string;
  readonly natsToken?: string;
}

export const DEFAULT_NATS_URL = 'nats://127.0.0.1:4222';
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 25_000;

/** never quotes the entry: a NATS URL may carry credentials */
function natsServerProblem(entry: string): string | null {
  let url: URL;
  try {
    url = new URL(entry.includes('://') ? entry : `nats://${entry}`);
  } catch {
    return 'every entry must be a nats:// or tls:// URL or host:port';
  }
  if (!['nats:', 'tls:'].includes(url.protocol)) return 'every entry must use nats:// or tls://';
  if (!url.hostname) return 'an entry has no host';
  return null;
}

function optional(name: string): string | undefined {
  const v = envString(name, '');
  return v === '' ? undefined : v;
}

/** Reads and checks the shared settings; throws ConfigError naming the variable. */
export function loadProcessConfig(): ProcessConfig {
  const natsUser = optional('NATS_USER');
  const natsPassword = optional('NATS_PASSWORD');
  if (natsUser !== undefined && natsPassword === undefined) throw new ConfigError('NATS_PASSWORD is required when NATS_USER is set');
  if (natsUser === undefined && natsPassword !== undefined) throw new ConfigError('NATS_USER is required when NATS_PASSWORD is set');
  return {
    logLevel: logLevel(),
    shutdownTimeoutMs: envInt('SHUTDOWN_TIMEOUT_MS', DEFAULT_SHUTDOWN_TIMEOUT_MS, 1, 3_600_000),
    natsServers: envList('NATS_URL', DEFAULT_NATS_URL, natsServerProblem),
    ...(natsUser !== undefined ? { natsUser, natsPassword } : {}),
    ...(optional('NATS_TOKEN') !== undefined ? { natsToken: optional('NATS_TOKEN') } : {}),
  };
}

/**
 * Reads a service's configuration once: the first call builds and freezes it, later calls return the same object.
 * `validateConfig(service, config.get)` in main.ts makes a bad value stop the process (exit 78) before anything starts.
 */
export function configOnce<T extends object>(load: () => T): { get: () => Readonly<T> } {
  let value: Readonly<T> | undefined;
  return {
    get: () => (value ??= Object.freeze(load())),
  };
}
