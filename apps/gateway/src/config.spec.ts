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
  'CONSOLE_PORT',
  'CONSOLE_URL',
  'CONSOLE_SIGN_IN_LIMIT',
  'TRUST_PROXY',
  'CONSOLE_DIR',
  'ELEMENTS_PORT',
  'ELEMENTS_URL',
  'ELEMENTS_API_URL',
  'ELEMENTS_DIR',
  'ELEMENTS_DEMO',
  'OIDC_ISSUER',
  'OIDC_CLIENT_ID',
  'OIDC_CLIENT_SECRET',
  'OIDC_REDIRECT_URL',
  'OIDC_SCOPES',
  'OIDC_ACR_VALUES',
  'OIDC_PROVIDER_NAME',
  'OIDC_COOKIE_SECRET',
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
      memoryReclaimIdleMs: 10_000,
      natsServers: ['nats://127.0.0.1:4222'],
      port: 8080,
      healthPort: 9105,
      healthHost: '127.0.0.1',
      corsOrigins: true,
      console: {
        port: 8081,
        url: 'http://localhost:8081',
        signInLimit: { requests: 10, windowMs: 60_000 },
      },
      elements: { port: 8082, url: 'http://localhost:8082', apiUrl: 'http://localhost:8080', demo: false },
      headerAliasPrefixes: [],
      // no forwarding header is believed: the client is the socket's address
      trustProxy: false,
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

  it('serves the console on the port and public origin given, or not at all with CONSOLE_PORT=0', () => {
    Object.assign(process.env, { CONSOLE_PORT: '9443', CONSOLE_URL: 'https://console.example.com' });
    expect(loadGatewayConfig().console).toMatchObject({ port: 9443, url: 'https://console.example.com' });
    process.env['CONSOLE_PORT'] = '0';
    expect(loadGatewayConfig().console.port).toBe(0);
  });

  it('serves the Elements on their own port and origin, calling the API origin given, or not at all with ELEMENTS_PORT=0', () => {
    Object.assign(process.env, {
      ELEMENTS_PORT: '9444',
      ELEMENTS_URL: 'https://elements.example.com',
      ELEMENTS_API_URL: 'https://api.example.com',
      ELEMENTS_DIR: '/app/elements',
      ELEMENTS_DEMO: 'true',
    });
    expect(loadGatewayConfig().elements).toEqual({
      port: 9444,
      url: 'https://elements.example.com',
      apiUrl: 'https://api.example.com',
      dir: '/app/elements',
      demo: true,
    });
    process.env['ELEMENTS_PORT'] = '0';
    expect(loadGatewayConfig().elements.port).toBe(0);
  });

  it('takes CONSOLE_DIR as where the built console is; unset or empty, none (console-routes looks beside the bundle)', () => {
    expect(loadGatewayConfig().console.dir).toBeUndefined();
    process.env['CONSOLE_DIR'] = '';
    expect(loadGatewayConfig().console.dir).toBeUndefined();
    process.env['CONSOLE_DIR'] = '/app/console';
    expect(loadGatewayConfig().console.dir).toBe('/app/console');
  });

  it('has no single sign-on without OIDC_ISSUER', () => {
    expect(loadGatewayConfig().oidc).toBeUndefined();
    process.env['OIDC_ISSUER'] = '';
    expect(loadGatewayConfig().oidc).toBeUndefined();
  });

  it('signs in through the OpenID provider given, with the values given', () => {
    Object.assign(process.env, {
      OIDC_ISSUER: 'https://login.example.com/realms/coffer',
      OIDC_CLIENT_ID: 'coffer-console',
      OIDC_CLIENT_SECRET: 'the-client-secret',
      OIDC_REDIRECT_URL: 'https://console.example.com/console/oidc/callback',
      OIDC_SCOPES: 'openid,email profile groups',
      OIDC_ACR_VALUES: 'phr  urn:example:mfa',
      OIDC_PROVIDER_NAME: 'Example SSO',
      OIDC_COOKIE_SECRET: 's'.repeat(32),
    });
    expect(loadGatewayConfig().oidc).toEqual({
      settings: {
        issuer: 'https://login.example.com/realms/coffer',
        clientId: 'coffer-console',
        clientSecret: 'the-client-secret',
        redirectUri: 'https://console.example.com/console/oidc/callback',
        scopes: ['openid', 'email', 'profile', 'groups'],
        acrValues: 'phr urn:example:mfa',
        allowInsecureHttp: false,
      },
      providerName: 'Example SSO',
      cookieSecret: 's'.repeat(32),
      cookieSecretRandom: false,
    });
  });

  it('defaults: a public client, the callback on CONSOLE_URL, openid email profile, a random cookie key per process', () => {
    Object.assign(process.env, { OIDC_ISSUER: 'https://accounts.example.com', OIDC_CLIENT_ID: 'coffer', CONSOLE_URL: 'https://console.example.com' });
    const oidc = loadGatewayConfig().oidc;
    expect(oidc).toEqual({
      settings: {
        issuer: 'https://accounts.example.com',
        clientId: 'coffer',
        redirectUri: 'https://console.example.com/console/oidc/callback',
        scopes: ['openid', 'email', 'profile'],
        allowInsecureHttp: false,
      },
      providerName: 'single sign-on',
      cookieSecret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      cookieSecretRandom: true,
    });
    // another process (replica): another key, so replicas need OIDC_COOKIE_SECRET set
    expect(loadGatewayConfig().oidc?.cookieSecret).not.toBe(oidc?.cookieSecret);
  });

  it.each(['http://127.0.0.1:9000', 'http://localhost:9000/realms/dev', 'http://[::1]:9000'])('takes plain http for a loopback issuer (%s)', (issuer) => {
    Object.assign(process.env, { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: 'coffer' });
    expect(loadGatewayConfig().oidc?.settings).toMatchObject({ issuer, allowInsecureHttp: true });
  });

  const ISSUER_PROBLEM =
    "OIDC_ISSUER must be the provider's issuer, an https:// URL without query or fragment (plain http only on 127.0.0.1, localhost or ::1), got";
  it.each([
    [{ OIDC_ISSUER: 'http://login.example.com' }, `${ISSUER_PROBLEM} "http://login.example.com"`],
    [{ OIDC_ISSUER: 'login.example.com' }, `${ISSUER_PROBLEM} "login.example.com"`],
    [{ OIDC_ISSUER: 'https://login.example.com?tenant=1' }, `${ISSUER_PROBLEM} "https://login.example.com?tenant=1"`],
    [{ OIDC_ISSUER: 'https://login.example.com#x' }, `${ISSUER_PROBLEM} "https://login.example.com#x"`],
    [{ OIDC_CLIENT_ID: '' }, 'OIDC_CLIENT_ID is required with OIDC_ISSUER'],
    [
      { OIDC_REDIRECT_URL: 'console.example.com/callback' },
      'OIDC_REDIRECT_URL must be an http(s) URL without fragment (registered at the provider), got "console.example.com/callback"',
    ],
    [{ OIDC_SCOPES: 'email profile' }, 'OIDC_SCOPES must be a space or comma list of scopes including openid, got "email profile"'],
    [{ OIDC_SCOPES: 'openid "email"' }, 'OIDC_SCOPES must be a space or comma list of scopes including openid, got "openid "email""'],
    [{ OIDC_ACR_VALUES: 'mfa "x"' }, 'OIDC_ACR_VALUES must be a space list of acr values, got "mfa "x""'],
    [{ OIDC_PROVIDER_NAME: 'x'.repeat(61) }, `OIDC_PROVIDER_NAME must be a label of up to 60 characters, got "${'x'.repeat(61)}"`],
    [{ OIDC_COOKIE_SECRET: 'short' }, 'OIDC_COOKIE_SECRET must have at least 32 characters, got 5'],
  ])('stops on bad single sign-on settings %o', (vars, message) => {
    Object.assign(process.env, { OIDC_ISSUER: 'https://login.example.com', OIDC_CLIENT_ID: 'coffer' }, vars);
    expect(() => loadGatewayConfig()).toThrow(new ConfigError(message));
  });

  it('stops on OIDC_ settings without OIDC_ISSUER (a misspelt issuer variable would leave single sign-on off unnoticed)', () => {
    process.env['OIDC_CLIENT_ID'] = 'coffer';
    expect(() => loadGatewayConfig()).toThrow(new ConfigError("OIDC_CLIENT_ID is set but OIDC_ISSUER is not (single sign-on needs the provider's issuer)"));
  });

  it.each([
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['10.0.0.0/8', ['10.0.0.0/8']],
    [' 10.0.0.0/8, 192.168.1.7 ,::1, fd00::/8,loopback', ['10.0.0.0/8', '192.168.1.7', '::1', 'fd00::/8', 'loopback']],
    ['172.16.0.0/255.240.0.0', ['172.16.0.0/255.240.0.0']],
  ])('TRUST_PROXY=%s is a hop count or the proxies trusted', (value, trustProxy) => {
    process.env['TRUST_PROXY'] = value;
    expect(loadGatewayConfig().trustProxy).toEqual(trustProxy);
  });

  it.each([
    ['true', 'every entry must be an IP address, a CIDR (10.0.0.0/8), loopback, linklocal or uniquelocal, got "true"'],
    ['*', 'every entry must be an IP address, a CIDR (10.0.0.0/8), loopback, linklocal or uniquelocal, got "*"'],
    ['lb.example.com', 'every entry must be an IP address, a CIDR (10.0.0.0/8), loopback, linklocal or uniquelocal, got "lb.example.com"'],
    ['10.0.0.0/33', 'every entry must be an IP address, a CIDR (10.0.0.0/8), loopback, linklocal or uniquelocal, got "10.0.0.0/33"'],
    ['fd00::/129', 'every entry must be an IP address, a CIDR (10.0.0.0/8), loopback, linklocal or uniquelocal, got "fd00::/129"'],
    ['10.0.0.0/255.0.255.0', 'every entry must be an IP address, a CIDR (10.0.0.0/8), loopback, linklocal or uniquelocal, got "10.0.0.0/255.0.255.0"'],
    ['-1', 'every entry must be an IP address, a CIDR (10.0.0.0/8), loopback, linklocal or uniquelocal, got "-1"'],
    ['2,10.0.0.1', 'every entry must be an IP address, a CIDR (10.0.0.0/8), loopback, linklocal or uniquelocal, got "2"'],
  ])('stops on TRUST_PROXY=%s', (value, problem) => {
    process.env['TRUST_PROXY'] = value;
    expect(() => loadGatewayConfig()).toThrow(new ConfigError(`TRUST_PROXY: a hop count (0–20) or a comma list of proxies: ${problem}`));
  });

  it('stops on a hop count beyond 20', () => {
    process.env['TRUST_PROXY'] = '21';
    expect(() => loadGatewayConfig()).toThrow(new ConfigError('TRUST_PROXY must be an integer between 0 and 20, got "21"'));
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
    // the console's pages and the proxy's answers must never share an origin
    ['CONSOLE_PORT', '8080', 'CONSOLE_PORT must differ from PORT and HEALTH_PORT (the console is served on an origin of its own), got 8080'],
    [
      'CONSOLE_URL',
      'https://console.example.com/console',
      'CONSOLE_URL must be an origin like https://console.example.com (scheme, host, optional port; no path), got "https://console.example.com/console"',
    ],
    // the fields' frames must never share an origin with anything else Coffer serves
    ['ELEMENTS_PORT', '8081', 'ELEMENTS_PORT must differ from PORT, HEALTH_PORT and CONSOLE_PORT (the fields are served on an origin of their own), got 8081'],
    [
      'ELEMENTS_URL',
      'https://elements.example.com/v1',
      'ELEMENTS_URL must be an origin like https://elements.example.com (scheme, host, optional port; no path), got "https://elements.example.com/v1"',
    ],
    [
      'ELEMENTS_API_URL',
      'api.example.com',
      'ELEMENTS_API_URL must be an origin like https://api.example.com (scheme, host, optional port; no path), got "api.example.com"',
    ],
    ['ELEMENTS_DEMO', 'yes', 'ELEMENTS_DEMO must be true or false, got "yes"'],
    ['CONSOLE_SIGN_IN_LIMIT', 'ten', 'CONSOLE_SIGN_IN_LIMIT must look like 2000/10s or 50/min, got "ten"'],
  ])('stops on %s=%s', (name, value, message) => {
    process.env[name] = value;
    expect(() => loadGatewayConfig()).toThrow(new ConfigError(message));
  });
});
