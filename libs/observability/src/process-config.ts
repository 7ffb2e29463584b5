import fs from 'node:fs';
import net from 'node:net';
import { loadBuildCommit } from './build-info';
import { ConfigError, envInt, envList, envString } from './config';
import { logLevel, type LogLevel } from './logger';
import { memoryReclaimIdleMs } from './memory-reclaim';

/** The settings every Coffer process reads (each service's config module includes them). */
export interface ProcessConfig {
  /** HEALTH_PORT: 1–65535, each service its own default: /healthz, /readyz and /metrics */
  readonly healthPort: number;
  /** LOG_LEVEL: fatal | error | warn | info (default) | debug | trace | silent */
  readonly logLevel: LogLevel;
  /** SHUTDOWN_TIMEOUT_MS: 1 ms – 1 h, default 25 000: on SIGTERM the process exits at the latest after this long */
  readonly shutdownTimeoutMs: number;
  /** MEMORY_RECLAIM_IDLE_MS: 0 – 1 day, default 10 000: quiet this long after work, the process gives memory back (0: never) */
  readonly memoryReclaimIdleMs: number;
  /** NATS_URL: comma list of `nats://` / `tls://` URLs or `host:port`, default nats://127.0.0.1:4222 */
  readonly natsServers: readonly string[];
  /**
   * NATS_NKEY_SEED or NATS_NKEY_SEED_FILE: the service's nkey user seed (`SU…`), or a file holding it (read again at
   * each connect, so a rotated seed is picked up on reconnect). What `npm start` and the manifests use.
   */
  readonly natsNkey?: NatsNkey;
  /** NATS_USER / NATS_PASSWORD (both or neither), NATS_TOKEN: optional credentials (a bus of your own) */
  readonly natsUser?: string;
  readonly natsPassword?: string;
  readonly natsToken?: string;
  /** NATS_TLS_CA_FILE (required with a tls:// URL), NATS_TLS_CERT_FILE / NATS_TLS_KEY_FILE (both or neither) */
  readonly natsTls?: NatsTlsFiles;
}

/** PEM files for the bus connection: the CA that signs the servers' certificates, and an optional client pair. */
export interface NatsTlsFiles {
  readonly caFile: string;
  readonly certFile?: string;
  readonly keyFile?: string;
}

/** The nkey seed itself, or the file that holds it. */
export type NatsNkey = { readonly seed: string } | { readonly seedFile: string };

/** A user nkey seed: `SU`, then base32 (58 characters in all). */
const NKEY_USER_SEED = /^SU[A-Z2-7]{56}$/;

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

/** a file the process must read at connect time: checked now, so a wrong path stops it at start-up, not on the bus */
function readableFile(name: string): string | undefined {
  const file = optional(name);
  if (file === undefined) return undefined;
  try {
    fs.accessSync(file, fs.constants.R_OK);
  } catch {
    throw new ConfigError(`${name} is not a readable file: ${file}`);
  }
  return file;
}

/**
 * TLS is on when a CA is given, and a tls:// URL demands one: the services trust only the bus's own CA, never the
 * system store, so a tls:// URL without it would be a connection no one can verify the way production does.
 */
function natsTls(servers: readonly string[]): NatsTlsFiles | undefined {
  const caFile = readableFile('NATS_TLS_CA_FILE');
  const certFile = readableFile('NATS_TLS_CERT_FILE');
  const keyFile = readableFile('NATS_TLS_KEY_FILE');
  if (certFile !== undefined && keyFile === undefined) throw new ConfigError('NATS_TLS_KEY_FILE is required when NATS_TLS_CERT_FILE is set');
  if (certFile === undefined && keyFile !== undefined) throw new ConfigError('NATS_TLS_CERT_FILE is required when NATS_TLS_KEY_FILE is set');
  if (caFile === undefined) {
    if (servers.some((s) => /^tls:\/\//i.test(s))) throw new ConfigError('NATS_TLS_CA_FILE is required when NATS_URL uses tls://');
    if (certFile !== undefined) throw new ConfigError('NATS_TLS_CA_FILE is required when NATS_TLS_CERT_FILE is set');
    return undefined;
  }
  return { caFile, ...(certFile !== undefined ? { certFile, keyFile } : {}) };
}

/** Reads a seed file's seed (checked at startup and at each connect); never quotes what the file holds. */
export function readNkeySeedFile(file: string): string {
  let seed: string;
  try {
    seed = fs.readFileSync(file, 'utf8').trim();
  } catch {
    throw new ConfigError(`NATS_NKEY_SEED_FILE is not a readable file: ${file}`);
  }
  if (!NKEY_USER_SEED.test(seed)) throw new ConfigError(`NATS_NKEY_SEED_FILE does not hold an nkey user seed (SU…, 58 characters): ${file}`);
  return seed;
}

/** NATS_NKEY_SEED or NATS_NKEY_SEED_FILE (not both); the seed is never quoted in an error. */
function natsNkey(): NatsNkey | undefined {
  const seed = optional('NATS_NKEY_SEED');
  const seedFile = optional('NATS_NKEY_SEED_FILE');
  if (seed !== undefined && seedFile !== undefined) throw new ConfigError('NATS_NKEY_SEED and NATS_NKEY_SEED_FILE are both set: set one');
  if (seed !== undefined) {
    if (!NKEY_USER_SEED.test(seed.trim())) throw new ConfigError('NATS_NKEY_SEED must be an nkey user seed (SU…, 58 characters)');
    return { seed: seed.trim() };
  }
  if (seedFile === undefined) return undefined;
  readNkeySeedFile(seedFile);
  return { seedFile };
}

/** The bus settings alone (what a NATS connection needs); throws ConfigError naming the variable. */
export function loadNatsConfig(): Pick<ProcessConfig, 'natsServers' | 'natsNkey' | 'natsUser' | 'natsPassword' | 'natsToken' | 'natsTls'> {
  const natsUser = optional('NATS_USER');
  const natsPassword = optional('NATS_PASSWORD');
  if (natsUser !== undefined && natsPassword === undefined) throw new ConfigError('NATS_PASSWORD is required when NATS_USER is set');
  if (natsUser === undefined && natsPassword !== undefined) throw new ConfigError('NATS_USER is required when NATS_PASSWORD is set');
  const nkey = natsNkey();
  const natsServers = envList('NATS_URL', DEFAULT_NATS_URL, natsServerProblem);
  const tls = natsTls(natsServers);
  const natsToken = optional('NATS_TOKEN');
  // one way of authenticating: the server would take either, and a left-over password must not hide a missing seed
  if (nkey !== undefined && (natsUser !== undefined || natsToken !== undefined))
    throw new ConfigError(
      `NATS_NKEY_SEED${'seedFile' in nkey ? '_FILE' : ''} and ${natsUser !== undefined ? 'NATS_USER' : 'NATS_TOKEN'} are both set: set one`,
    );
  return {
    natsServers,
    ...(nkey !== undefined ? { natsNkey: nkey } : {}),
    ...(natsUser !== undefined ? { natsUser, natsPassword } : {}),
    ...(natsToken !== undefined ? { natsToken } : {}),
    ...(tls !== undefined ? { natsTls: tls } : {}),
  };
}

export const DEFAULT_HEALTH_HOST = '127.0.0.1';

/**
 * HEALTH_HOST: the address the health port (/healthz, /readyz, /metrics) listens on — an IP literal, default
 * 127.0.0.1. Loopback unless the operator opens it: /metrics describes the whole system (every tenant's traffic), so
 * only what runs beside the process reaches it by default; where a prober or Prometheus connects from outside
 * (Kubernetes: the pod's IP), the manifests set 0.0.0.0 and a NetworkPolicy decides who connects.
 */
export function loadHealthHost(): string {
  const host = envString('HEALTH_HOST', DEFAULT_HEALTH_HOST).trim();
  if (net.isIP(host) === 0) throw new ConfigError(`HEALTH_HOST must be an IP address (e.g. 127.0.0.1, 0.0.0.0 or ::), got "${host}"`);
  return host;
}

/** SHUTDOWN_TIMEOUT_MS: 1 ms – 1 h, default 25 000 (the forced exit after SIGTERM); throws ConfigError naming it. */
export function loadShutdownTimeoutMs(): number {
  return envInt('SHUTDOWN_TIMEOUT_MS', DEFAULT_SHUTDOWN_TIMEOUT_MS, 1, 3_600_000);
}

/**
 * SERVICE_NAME: the name of this process, which its NATS connections (`<name>-rpc`, `<name>-events`, its reply inbox),
 * its database listener and its key-encryption key's log lines carry; `fallback` when nothing named it. Internal, not
 * configuration: each process names itself at start ({@link nameThisService}; `npm start` hands it to each service).
 */
export function serviceName(fallback = 'coffer'): string {
  return process.env['SERVICE_NAME'] ?? fallback;
}

/** Names this process (SERVICE_NAME, see {@link serviceName}) unless its environment already does. */
export function nameThisService(name: string): void {
  process.env['SERVICE_NAME'] ??= name;
}

/** Reads and checks the shared settings (`defaultHealthPort`: the service's own); throws ConfigError naming the variable. */
export function loadProcessConfig(defaultHealthPort: number): ProcessConfig {
  const healthPort = envInt('HEALTH_PORT', defaultHealthPort, 1, 65535);
  const logLevelValue = logLevel();
  const shutdownTimeoutMs = loadShutdownTimeoutMs();
  // COFFER_COMMIT is checked with the rest; coffer_build_info reads it when /metrics is first scraped
  loadBuildCommit();
  return { healthPort, logLevel: logLevelValue, shutdownTimeoutMs, memoryReclaimIdleMs: memoryReclaimIdleMs(), ...loadNatsConfig() };
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
