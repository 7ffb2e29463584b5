import { ConfigError } from '@coffer/observability';
import { loadProxyServiceConfig } from './config';

const VARS = [
  'HEALTH_PORT',
  'ALLOW_PRIVATE_EGRESS',
  'PROXY_ALLOW_PRIVATE_EGRESS',
  'EGRESS_ALLOW_HOSTS',
  'PROXY_DESTINATION_TIMEOUT_MS',
  'PROXY_MAX_RESPONSE_BYTES',
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
