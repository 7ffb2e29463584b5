import { ConfigError } from '@coffer/observability';
import { loadProxyServiceConfig } from './config';

const VARS = [
  'HEALTH_PORT',
  'ALLOW_PRIVATE_EGRESS',
  'PROXY_ALLOW_PRIVATE_EGRESS',
  'EGRESS_ALLOW_HOSTS',
  'PROXY_DESTINATION_TIMEOUT_MS',
  'PROXY_MAX_RESPONSE_BYTES',
  'PROXY_MAX_IN_FLIGHT',
  'PROXY_MAX_IN_FLIGHT_BYTES',
  'PROXY_MAX_BYTES_PER_SECOND',
  'PROXY_TENANT_SHARE_PERCENT',
];

describe('proxy-service configuration', () => {
  const saved = { ...process.env };
  beforeEach(() => VARS.forEach((v) => delete process.env[v]));
  afterAll(() => {
    process.env = saved;
  });

  it('keeps destinations to public addresses by default', () => {
    expect(loadProxyServiceConfig().allowPrivateEgress).toBe(false);
  });

  it("has a private-egress switch of its own: the reactors' ALLOW_PRIVATE_EGRESS does not open the proxy", () => {
    process.env['ALLOW_PRIVATE_EGRESS'] = 'true';
    expect(loadProxyServiceConfig().allowPrivateEgress).toBe(false);
    process.env['PROXY_ALLOW_PRIVATE_EGRESS'] = 'true';
    expect(loadProxyServiceConfig().allowPrivateEgress).toBe(true);
  });

  it('refuses a PROXY_ALLOW_PRIVATE_EGRESS that is not a boolean, naming it', () => {
    process.env['PROXY_ALLOW_PRIVATE_EGRESS'] = 'maybe';
    expect(() => loadProxyServiceConfig()).toThrow(ConfigError);
    expect(() => loadProxyServiceConfig()).toThrow('PROXY_ALLOW_PRIVATE_EGRESS must be true or false, got "maybe"');
  });
});

describe("proxy-service configuration: the tenants' shares", () => {
  const saved = { ...process.env };
  beforeEach(() => VARS.forEach((v) => delete process.env[v]));
  afterAll(() => {
    process.env = saved;
  });

  it('defaults to 64 calls, 64 MiB held, 32 MiB a second and half of each per tenant', () => {
    expect(loadProxyServiceConfig()).toMatchObject({
      maxInFlight: 64,
      maxInFlightBytes: 64 * 1024 * 1024,
      maxBytesPerSecond: 16 * 1024 * 1024,
      tenantSharePercent: 50,
    });
  });

  it('takes 0 as no limit', () => {
    process.env['PROXY_MAX_IN_FLIGHT'] = '0';
    process.env['PROXY_MAX_IN_FLIGHT_BYTES'] = '0';
    process.env['PROXY_MAX_BYTES_PER_SECOND'] = '0';
    expect(loadProxyServiceConfig()).toMatchObject({ maxInFlight: 0, maxInFlightBytes: 0, maxBytesPerSecond: 0 });
  });

  it.each([
    ['PROXY_MAX_IN_FLIGHT', '-1', 'PROXY_MAX_IN_FLIGHT must be an integer between 0 and 10000, got "-1"'],
    ['PROXY_TENANT_SHARE_PERCENT', '0', 'PROXY_TENANT_SHARE_PERCENT must be an integer between 1 and 100, got "0"'],
    ['PROXY_MAX_IN_FLIGHT_BYTES', '1000', 'PROXY_MAX_IN_FLIGHT_BYTES must be 0 (no limit) or at least 1048576 (1 MiB)'],
    ['PROXY_MAX_BYTES_PER_SECOND', '1000', 'PROXY_MAX_BYTES_PER_SECOND must be 0 (no limit) or at least 1048576 (1 MiB)'],
    ['PROXY_MAX_BYTES_PER_SECOND', 'lots', 'PROXY_MAX_BYTES_PER_SECOND must be an integer between 0 and 4294967296, got "lots"'],
  ])('stops on %s=%s', (name, value, message) => {
    process.env[name] = value;
    expect(() => loadProxyServiceConfig()).toThrow(new ConfigError(message));
  });
});
