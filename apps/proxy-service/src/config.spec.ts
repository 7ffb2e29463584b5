import { ConfigError } from '@coffer/observability';
import { loadProxyServiceConfig } from './config';

const VARS = ['PROXY_MAX_IN_FLIGHT', 'PROXY_MAX_IN_FLIGHT_BYTES', 'PROXY_TENANT_SHARE_PERCENT'];

describe("proxy-service configuration: the tenants' shares", () => {
  const saved = { ...process.env };
  beforeEach(() => VARS.forEach((v) => delete process.env[v]));
  afterAll(() => {
    process.env = saved;
  });

  it('defaults to 64 calls, 64 MiB and half of each per tenant', () => {
    expect(loadProxyServiceConfig()).toMatchObject({ maxInFlight: 64, maxInFlightBytes: 64 * 1024 * 1024, tenantSharePercent: 50 });
  });

  it('takes 0 as no limit', () => {
    process.env['PROXY_MAX_IN_FLIGHT'] = '0';
    process.env['PROXY_MAX_IN_FLIGHT_BYTES'] = '0';
    expect(loadProxyServiceConfig()).toMatchObject({ maxInFlight: 0, maxInFlightBytes: 0 });
  });

  it.each([
    ['PROXY_MAX_IN_FLIGHT', '-1', 'PROXY_MAX_IN_FLIGHT must be an integer between 0 and 10000, got "-1"'],
    ['PROXY_TENANT_SHARE_PERCENT', '0', 'PROXY_TENANT_SHARE_PERCENT must be an integer between 1 and 100, got "0"'],
    ['PROXY_MAX_IN_FLIGHT_BYTES', '1000', 'PROXY_MAX_IN_FLIGHT_BYTES must be 0 (no limit) or at least 1048576 (1 MiB)'],
  ])('stops on %s=%s', (name, value, message) => {
    process.env[name] = value;
    expect(() => loadProxyServiceConfig()).toThrow(new ConfigError(message));
  });
});
