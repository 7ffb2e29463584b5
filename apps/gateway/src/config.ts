import { randomBytes } from 'node:crypto';
import type { ApplicationType } from '@coffer/contracts';
import { ConfigError, configOnce, envInt, envList, envString, loadHealthHost, loadProcessConfig, type ProcessConfig } from '@coffer/observability';
import { backPressureFromEnv, type BackPressureLimits } from './http/back-pressure';
import { limitsFromEnv, parseLimit, type Limit } from './rate-limit/rate-limits';
import { requestTimeoutsFromEnv, type RequestTimeouts } from './http/request-timeouts';
import { parseTrustProxy, type TrustProxy } from './http/trust-proxy';
import type { OidcSettings } from './console/oidc/oidc-client';

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
   * http://localhost:<CONSOLE_PORT>), CONSOLE_SIGN_IN_LIMIT (per client address and per key, default 10/min) and
   * CONSOLE_DIR (where the built console is; default: next to the gateway's bundle). The sessions' timeouts and
   * limits are session-service's (they live in PostgreSQL).
   */
  readonly console: Readonly<ConsoleConfig>;
  /** ELEMENTS_PORT, ELEMENTS_URL, ELEMENTS_API_URL, ELEMENTS_DIR, ELEMENTS_DEMO (elementsFromEnv) */
  readonly elements: Readonly<ElementsConfig>;
  /**
   * The console's single sign-on (oidcFromEnv): OIDC_ISSUER (unset: off, and then no other OIDC_ variable may be set),
   * OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_REDIRECT_URL, OIDC_SCOPES, OIDC_ACR_VALUES, OIDC_PROVIDER_NAME,
   * OIDC_COOKIE_SECRET
   */
  readonly oidc?: Readonly<OidcConfig>;
}

export interface OidcConfig {
  /**
   * issuer: OIDC_ISSUER (https://, or plain http on a loopback host: allowInsecureHttp), clientId: OIDC_CLIENT_ID
   * (required with the issuer), clientSecret: OIDC_CLIENT_SECRET (unset: a public client, PKCE only), redirectUri:
   * OIDC_REDIRECT_URL (default `<CONSOLE_URL>/console/oidc/callback`), scopes: OIDC_SCOPES (space or comma list with
   * openid, default `openid email profile`), acrValues: OIDC_ACR_VALUES (space list, default none)
   */
  settings: OidcSettings;
  /** OIDC_PROVIDER_NAME: the sign-in button's label (up to 60 characters), default "single sign-on" */
  providerName: string;
  /**
   * OIDC_COOKIE_SECRET (32 characters at least): the HMAC key of the sign-in's transaction cookie. Unset: a random key
   * of this process, so a sign-in must come back to the replica that started it: set it (the same) on every replica.
   */
  cookieSecret: string;
  /** OIDC_COOKIE_SECRET was unset: cookieSecret is this process's own random key */
  cookieSecretRandom: boolean;
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
  /** sign-in attempts per client address and per key (the sessions themselves and their limits: session-service) */
  signInLimit: Limit;
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
    signInLimit: parseLimit('CONSOLE_SIGN_IN_LIMIT', envString('CONSOLE_SIGN_IN_LIMIT', '10/min')),
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

const OIDC_OPTIONAL_VARS = [
  'OIDC_CLIENT_ID',
  'OIDC_CLIENT_SECRET',
  'OIDC_REDIRECT_URL',
  'OIDC_SCOPES',
  'OIDC_ACR_VALUES',
  'OIDC_PROVIDER_NAME',
  'OIDC_COOKIE_SECRET',
];
/** An OAuth scope-token (RFC 6749 3.3), which acr values are too. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** The console's single sign-on through the installation's OpenID provider; undefined when OIDC_ISSUER is unset. */
function oidcFromEnv(consoleUrl: string): OidcConfig | undefined {
  const issuer = envString('OIDC_ISSUER', '');
  if (!issuer) {
    const stray = OIDC_OPTIONAL_VARS.find((name) => envString(name, ''));
    if (stray) throw new ConfigError(`${stray} is set but OIDC_ISSUER is not (single sign-on needs the provider's issuer)`);
    return undefined;
  }
  const issuerUrl = parseUrl(issuer);
  const loopback = issuerUrl?.protocol === 'http:' && LOOPBACK_HOSTS.includes(issuerUrl.hostname);
  if (!issuerUrl || !(issuerUrl.protocol === 'https:' || loopback) || issuerUrl.search || issuerUrl.hash || issuer.includes('#') || issuer.endsWith('?'))
    throw new ConfigError(
      `OIDC_ISSUER must be the provider's issuer, an https:// URL without query or fragment (plain http only on 127.0.0.1, localhost or ::1), got "${issuer}"`,
    );
  const clientId = envString('OIDC_CLIENT_ID', '');
  if (!clientId) throw new ConfigError('OIDC_CLIENT_ID is required with OIDC_ISSUER');
  const clientSecret = envString('OIDC_CLIENT_SECRET', '');
  const redirectUri = envString('OIDC_REDIRECT_URL', `${consoleUrl}/console/oidc/callback`);
  const redirect = parseUrl(redirectUri);
  if (!redirect || !['http:', 'https:'].includes(redirect.protocol) || redirect.hash || redirectUri.includes('#'))
    throw new ConfigError(`OIDC_REDIRECT_URL must be an http(s) URL without fragment (registered at the provider), got "${redirectUri}"`);
  const scopes = envString('OIDC_SCOPES', 'openid email profile')
    .split(/[\s,]+/)
    .filter(Boolean);
  const badScope = scopes.find((scope) => !SCOPE_TOKEN.test(scope));
  if (badScope !== undefined || !scopes.includes('openid'))
    throw new ConfigError(`OIDC_SCOPES must be a space or comma list of scopes including openid, got "${envString('OIDC_SCOPES', '')}"`);
  const acrValues = envString('OIDC_ACR_VALUES', '').split(/\s+/).filter(Boolean);
  if (acrValues.some((value) => !SCOPE_TOKEN.test(value)))
    throw new ConfigError(`OIDC_ACR_VALUES must be a space list of acr values, got "${envString('OIDC_ACR_VALUES', '')}"`);
  const providerName = envString('OIDC_PROVIDER_NAME', 'single sign-on');
  // eslint-disable-next-line no-control-regex
  if (providerName.length > 60 || /[\u0000-\u001f\u007f]/.test(providerName))
    throw new ConfigError(`OIDC_PROVIDER_NAME must be a label of up to 60 characters, got "${providerName}"`);
  const cookieSecret = envString('OIDC_COOKIE_SECRET', '');
  if (cookieSecret && cookieSecret.length < 32) throw new ConfigError(`OIDC_COOKIE_SECRET must have at least 32 characters, got ${cookieSecret.length}`);
  return {
    settings: {
      issuer,
      clientId,
      ...(clientSecret ? { clientSecret } : {}),
      redirectUri,
      scopes: [...new Set(scopes)],
      ...(acrValues.length ? { acrValues: acrValues.join(' ') } : {}),
      allowInsecureHttp: loopback,
    },
    providerName,
    cookieSecret: cookieSecret || randomBytes(32).toString('base64url'),
    cookieSecretRandom: !cookieSecret,
  };
}

/** Throws ConfigError naming the first bad variable. */
export function loadGatewayConfig(): GatewayConfig {
  const cors = envList('CORS_ORIGINS', '*', (e) => (e === '*' ? null : originProblem(e)));
  const port = envInt('PORT', 8080, 1, 65535);
  const processConfig = loadProcessConfig(9105);
  const { healthPort } = processConfig;
  const consoleConfig = consoleFromEnv(port, healthPort);
  const oidc = oidcFromEnv(consoleConfig.url);
  return {
    ...processConfig,
    port,
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
    ...(oidc ? { oidc: Object.freeze(oidc) } : {}),
  };
}

const config = configOnce(loadGatewayConfig);
/** The gateway's configuration, read once (main.ts reads it first, inside validateConfig). */
export const gatewayConfig = config.get;
