import type { ApplicationType } from '@coffer/contracts';
import { ConfigError, configOnce, envInt, envList, envString, loadHealthHost, loadProcessConfig, type ProcessConfig } from '@coffer/observability';
import { backPressureFromEnv, type BackPressureLimits } from './http/back-pressure';
import { limitsFromEnv, parseLimit, type Limit } from './rate-limit/rate-limits';
import { requestTimeoutsFromEnv, type RequestTimeouts } from './http/request-timeouts';
import { parseTrustProxy, type TrustProxy } from './http/trust-proxy';

/** Everything the gateway reads from the environment (docs/operations.md#configuration), checked at start-up. */
export interface GatewayConfig extends ProcessConfig {
  /** PORT: 1–65535, default 8080 */
  readonly port: number;
  /**
   * HEALTH_PORT: 1–65535, default 9105 (after the services' 9101–9104; not 9100, Prometheus node_exporter's usual port):
   * /healthz, /readyz and /metrics for the cluster, never the API's port
   */
  readonly healthPort: number;
  /** HEALTH_HOST: the health port's address, default 127.0.0.1 (loadHealthHost, as every service's) */
  readonly healthHost: string;
  /** CORS_ORIGINS: `*` (default: true, any origin) or a comma list of origins (`https://app.example.com`) */
  readonly corsOrigins: true | readonly string[];
  /** HEADER_ALIAS_PREFIXES: comma list of header-name prefixes (letters, digits, `-`), default none */
  readonly headerAliasPrefixes: readonly string[];
  /**
   * TRUST_PROXY: a hop count (0–20) or a comma list of proxy addresses and CIDRs whose X-Forwarded-For is believed;
   * default none (`false`: the client is the socket's address)
   */
  readonly trustProxy: TrustProxy;
  /** AUTH_CACHE_TTL_MS: 1 ms – 1 h, default 5 000 */
  readonly authCacheTtlMs: number;
  /** RATE_LIMIT_PRIVATE / _PUBLIC / _MANAGEMENT: `<n>/<window>`, defaults 2000/10s, 50/min, 200/min */
  readonly rateLimits: Readonly<Record<ApplicationType, Limit>>;
  /**
   * HTTP_MAX_IN_FLIGHT, HTTP_MAX_REACTS_IN_FLIGHT, HTTP_MAX_UNAUTHENTICATED_IN_FLIGHT, HTTP_TENANT_SHARE_PERCENT,
   * HTTP_MAX_EVENT_LOOP_DELAY_MS, HTTP_MAX_HEAP_MB, OVERLOAD_RETRY_AFTER_S
   */
  readonly backPressure: Readonly<BackPressureLimits>;
  /**
   * HTTP_HEADERS_TIMEOUT_MS, HTTP_BODY_TIMEOUT_MS, HTTP_BODY_MIN_BYTES_PER_S, HTTP_REQUEST_TIMEOUT_MS,
   * HTTP_KEEP_ALIVE_TIMEOUT_MS, HTTP_CONNECTIONS_CHECK_INTERVAL_MS
   */
  readonly requestTimeouts: Readonly<RequestTimeouts>;
  /**
   * CONSOLE_PORT (0–65535, default 8081; 0: no console), CONSOLE_URL (the console's public origin, default
   * http://localhost:<CONSOLE_PORT>), CONSOLE_IDLE_TIMEOUT_MS (1 s – 24 h, default 15 min), CONSOLE_SESSION_MAX_AGE_MS
   * (1 s – 7 d, default 8 h), CONSOLE_SIGN_IN_LIMIT (per client address and per key, default 10/min),
   * CONSOLE_MAX_SESSIONS (live sessions in all, default 10 000), CONSOLE_MAX_SESSIONS_PER_KEY (default 20) and
   * CONSOLE_DIR (where the built console is; default: next to the gateway's bundle)
   */
  readonly console: Readonly<ConsoleConfig>;
  /** ELEMENTS_PORT, ELEMENTS_URL, ELEMENTS_API_URL, ELEMENTS_DIR, ELEMENTS_DEMO (elementsFromEnv) */
  readonly elements: Readonly<ElementsConfig>;
}

export interface ElementsConfig {
  /** the hosted fields' own listener: its origin serves the Elements files and nothing else; 0: not served */
  port: number;
  /** the Elements origin's public address (scheme, host and port, no path), where the API origin's /elements redirects */
  url: string;
  /** the API origin the fields call (their CSP's only connect-src) */
  apiUrl: string;
  /** where the built Elements files are (unset: next to the gateway's bundle) */
  dir?: string;
  /** serve the demo checkout page at /elements/v1/demo/ (npm start turns it on) */
  demo: boolean;
}

export interface ConsoleConfig {
  /** the console's own listener: its origin serves the console and the API calls it makes, nothing else */
  port: number;
  /** where the API origin's /console redirects (scheme, host and port, no path) */
  url: string;
  idleTimeoutMs: number;
  maxAgeMs: number;
  signInLimit: Limit;
  maxSessions: number;
  maxSessionsPerKey: number;
  /** CONSOLE_DIR: where the built console is (unset: next to the gateway's bundle, console-routes.ts consoleDir) */
  dir?: string;
}

function originProblem(entry: string): string | null {
  let url: URL | undefined;
  try {
    url = new URL(entry);
  } catch {
    url = undefined;
  }
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.origin !== entry)
    return `every entry must be * or an origin like https://app.example.com (scheme, host, optional port; no path), got "${entry}"`;
  return null;
}

/**
 * The console on an origin of its own: another port than the API's (so a proxied answer on the API origin is another
 * origin than the console's pages) and, in production, its own host name.
 */
function consoleFromEnv(port: number, healthPort: number): ConsoleConfig {
  const consolePort = envInt('CONSOLE_PORT', 8081, 0, 65535);
  if (consolePort !== 0 && (consolePort === port || consolePort === healthPort)) {
    throw new ConfigError(`CONSOLE_PORT must differ from PORT and HEALTH_PORT (the console is served on an origin of its own), got ${consolePort}`);
  }
  const url = envString('CONSOLE_URL', `http://localhost:${consolePort}`);
  const dir = envString('CONSOLE_DIR', '');
  if (originProblem(url))
    throw new ConfigError(`CONSOLE_URL must be an origin like https://console.example.com (scheme, host, optional port; no path), got "${url}"`);
  return {
    port: consolePort,
    url,
    idleTimeoutMs: envInt('CONSOLE_IDLE_TIMEOUT_MS', 900_000, 1_000, 86_400_000),
    maxAgeMs: envInt('CONSOLE_SESSION_MAX_AGE_MS', 28_800_000, 1_000, 604_800_000),
    signInLimit: parseLimit('CONSOLE_SIGN_IN_LIMIT', envString('CONSOLE_SIGN_IN_LIMIT', '10/min')),
    maxSessions: envInt('CONSOLE_MAX_SESSIONS', 10_000, 1, 1_000_000),
    maxSessionsPerKey: envInt('CONSOLE_MAX_SESSIONS_PER_KEY', 20, 1, 10_000),
    ...(dir ? { dir } : {}),
  };
}

/**
 * The hosted card fields on an origin of their own: another port than the API's and the console's (no page that
 * Coffer serves for somebody else can share their origin and read their frames) and, in production, their own host name.
 */
function elementsFromEnv(port: number, healthPort: number, consolePort: number): ElementsConfig {
  const elementsPort = envInt('ELEMENTS_PORT', 8082, 0, 65535);
  if (elementsPort !== 0 && [port, healthPort, consolePort].includes(elementsPort)) {
    throw new ConfigError(
      `ELEMENTS_PORT must differ from PORT, HEALTH_PORT and CONSOLE_PORT (the fields are served on an origin of their own), got ${elementsPort}`,
    );
  }
  const url = envString('ELEMENTS_URL', `http://localhost:${elementsPort}`);
  if (originProblem(url))
    throw new ConfigError(`ELEMENTS_URL must be an origin like https://elements.example.com (scheme, host, optional port; no path), got "${url}"`);
  const apiUrl = envString('ELEMENTS_API_URL', `http://localhost:${port}`);
  if (originProblem(apiUrl))
    throw new ConfigError(`ELEMENTS_API_URL must be an origin like https://api.example.com (scheme, host, optional port; no path), got "${apiUrl}"`);
  const demo = envString('ELEMENTS_DEMO', 'false');
  if (demo !== 'true' && demo !== 'false') throw new ConfigError(`ELEMENTS_DEMO must be true or false, got "${demo}"`);
  const dir = envString('ELEMENTS_DIR', '');
  return { port: elementsPort, url, apiUrl, demo: demo === 'true', ...(dir ? { dir } : {}) };
}

/** Throws ConfigError naming the first bad variable. */
export function loadGatewayConfig(): GatewayConfig {
  const cors = envList('CORS_ORIGINS', '*', (e) => (e === '*' ? null : originProblem(e)));
  const port = envInt('PORT', 8080, 1, 65535);
  const healthPort = envInt('HEALTH_PORT', 9105, 1, 65535);
  const consoleConfig = consoleFromEnv(port, healthPort);
  return {
    ...loadProcessConfig(),
    port,
    healthPort,
    healthHost: loadHealthHost(),
    corsOrigins: cors.includes('*') ? true : cors,
    headerAliasPrefixes: envList('HEADER_ALIAS_PREFIXES', '', (p) =>
      /^[A-Za-z0-9][A-Za-z0-9-]*$/.test(p) ? null : `every prefix must be letters, digits and "-", got "${p}"`,
    ),
    trustProxy: parseTrustProxy(envString('TRUST_PROXY', '')),
    authCacheTtlMs: envInt('AUTH_CACHE_TTL_MS', 5_000, 1, 3_600_000),
    rateLimits: Object.freeze(limitsFromEnv()),
    backPressure: Object.freeze(backPressureFromEnv()),
    requestTimeouts: Object.freeze(requestTimeoutsFromEnv()),
    console: Object.freeze(consoleConfig),
    elements: Object.freeze(elementsFromEnv(port, healthPort, consoleConfig.port)),
  };
}

const config = configOnce(loadGatewayConfig);
/** The gateway's configuration, read once (main.ts reads it first, inside validateConfig). */
export const gatewayConfig = config.get;
