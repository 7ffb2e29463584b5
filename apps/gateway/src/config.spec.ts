import { ConfigError } from '@coffer/observability';
import { loadGatewayConfig } from './config';

const VARS = [
  'PORT',
  'HEALTH_PORT',
  'CORS_ORIGINS',
  'HEADER_ALIAS_PREFIXES',
  'AUTH_CACHE_TTL_MS',
  'RATE_LIMIT_PRIVATE',
  'RATE_LIMIT_PUBLIC',
  'RATE_LIMIT_MANAGEMENT',
  'HTTP_MAX_IN_FLIGHT',
  'HTTP_MAX_REACTS_IN_FLIGHT',
  'HTTP_MAX_UNAUTHENTICATED_IN_FLIGHT',
  'HTTP_TENANT_SHARE_PERCENT',
  'HTTP_HEADERS_TIMEOUT_MS',
  'HTTP_BODY_TIMEOUT_MS',
  'HTTP_BODY_MIN_BYTES_PER_S',
  'HTTP_REQUEST_TIMEOUT_MS',
  'HTTP_KEEP_ALIVE_TIMEOUT_MS',
  'HTTP_CONNECTIONS_CHECK_INTERVAL_MS',
  'HTTP_MAX_EVENT_LOOP_DELAY_MS',
  'HTTP_MAX_HEAP_MB',
  'OVERLOAD_RETRY_AFTER_S',
  'LOG_LEVEL',
  'HEALTH_HOST',
  'SHUTDOWN_TIMEOUT_MS',
  'NATS_URL',
  'NATS_USER',
  'NATS_PASSWORD',
  'NATS_TOKEN',
];

describe('gateway configuration', () => {
  const saved = { ...process.env };
  beforeEach(() => VARS.forEach((v) => delete process.env[v]));
  afterAll(() => {
    process.env = saved;
  });

  it("has today's defaults", () => {
    expect(loadGatewayConfig()).toEqual({
      logLevel: 'info',
      shutdownTimeoutMs: 25_000,
      natsServers: ['nats://127.0.0.1:4222'],
      port: 8080,
      healthPort: 9105,
      healthHost: '127.0.0.1',
      corsOrigins: true,
      console: { idleTimeoutMs: 900_000, maxAgeMs: 28_800_000 },
      headerAliasPrefixes: [],
      authCacheTtlMs: 5_000,
      rateLimits: {
        private: { requests: 2000, windowMs: 10_000 },
        public: { requests: 50, windowMs: 60_000 },
        management: { requests: 200, windowMs: 60_000 },
      },
      backPressure: {
        maxInFlight: 64,
        maxReactsInFlight: 64,
        maxUnauthenticatedInFlight: 16,
        tenantSharePercent: 50,
        maxEventLoopDelayMs: 1000,
        maxHeapUsedBytes: 0,
        retryAfterSeconds: 1,
      },
      requestTimeouts: {
        headersTimeoutMs: 10_000,
        bodyTimeoutMs: 10_000,
        bodyMinBytesPerSecond: 16_384,
        requestTimeoutMs: 120_000,
        keepAliveTimeoutMs: 72_000,
        connectionsCheckIntervalMs: 1_000,
      },
    });
  });

  it('reads the values given', () => {
    Object.assign(process.env, { CORS_ORIGINS: 'https://a.example, http://localhost:3000', HEADER_ALIAS_PREFIXES: 'BT, X-Y', AUTH_CACHE_TTL_MS: '250' });
    expect(loadGatewayConfig()).toMatchObject({
      corsOrigins: ['https://a.example', 'http://localhost:3000'],
      headerAliasPrefixes: ['BT', 'X-Y'],
      authCacheTtlMs: 250,
    });
  });

  it.each([
    ['AUTH_CACHE_TTL_MS', '5s', 'AUTH_CACHE_TTL_MS must be an integer between 1 and 3600000, got "5s"'],
    // 0 would mean "never expires" to the cache, not "off"
    ['AUTH_CACHE_TTL_MS', '0', 'AUTH_CACHE_TTL_MS must be an integer between 1 and 3600000, got "0"'],
    ['HEALTH_PORT', '0', 'HEALTH_PORT must be an integer between 1 and 65535, got "0"'],
    ['PORT', '80a', 'PORT must be an integer between 1 and 65535, got "80a"'],
    [
      'CORS_ORIGINS',
      'example.com',
      'CORS_ORIGINS: every entry must be * or an origin like https://app.example.com (scheme, host, optional port; no path), got "example.com"',
    ],
    [
      'CORS_ORIGINS',
      'https://a.example/',
      'CORS_ORIGINS: every entry must be * or an origin like https://app.example.com (scheme, host, optional port; no path), got "https://a.example/"',
    ],
    ['HEADER_ALIAS_PREFIXES', 'B T', 'HEADER_ALIAS_PREFIXES: every prefix must be letters, digits and "-", got "B T"'],
    ['RATE_LIMIT_PUBLIC', '50', 'RATE_LIMIT_PUBLIC must look like 2000/10s or 50/min, got "50"'],
    ['HTTP_MAX_IN_FLIGHT', 'lots', 'HTTP_MAX_IN_FLIGHT must be an integer between 0 and 1000000, got "lots"'],
    ['HTTP_TENANT_SHARE_PERCENT', '0', 'HTTP_TENANT_SHARE_PERCENT must be an integer between 1 and 100, got "0"'],
    ['HTTP_BODY_MIN_BYTES_PER_S', '10', 'HTTP_BODY_MIN_BYTES_PER_S must be an integer between 1024 and 104857600, got "10"'],
    // the outer bound would cut off a 1 MiB body sent at the minimum rate (10 s + 10 s + 64 s)
    [
      'HTTP_REQUEST_TIMEOUT_MS',
      '60000',
      'HTTP_REQUEST_TIMEOUT_MS must be at least 84000 (HTTP_HEADERS_TIMEOUT_MS + HTTP_BODY_TIMEOUT_MS + 1 MiB at HTTP_BODY_MIN_BYTES_PER_S), got "60000"',
    ],
    ['LOG_LEVEL', 'loud', 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"'],
  ])('stops on %s=%s', (name, value, message) => {
    process.env[name] = value;
    expect(() => loadGatewayConfig()).toThrow(new ConfigError(message));
  });
});
