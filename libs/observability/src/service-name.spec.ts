import { ConfigError } from './config';
import { loadShutdownTimeoutMs, nameThisService, serviceName } from './process-config';

describe('the process settings read outside loadProcessConfig', () => {
  const saved = { ...process.env };
  beforeEach(() => {
    delete process.env['SERVICE_NAME'];
    delete process.env['SHUTDOWN_TIMEOUT_MS'];
  });
  afterAll(() => {
    process.env = saved;
  });

  it('SHUTDOWN_TIMEOUT_MS: 25 s by default (unset or empty), the value given, a bad one refused naming it', () => {
    expect(loadShutdownTimeoutMs()).toBe(25_000);
    process.env['SHUTDOWN_TIMEOUT_MS'] = '';
    expect(loadShutdownTimeoutMs()).toBe(25_000);
    process.env['SHUTDOWN_TIMEOUT_MS'] = '5000';
    expect(loadShutdownTimeoutMs()).toBe(5_000);
    for (const bad of ['25s', '0', '3600001']) {
      process.env['SHUTDOWN_TIMEOUT_MS'] = bad;
      expect(() => loadShutdownTimeoutMs()).toThrow(new ConfigError(`SHUTDOWN_TIMEOUT_MS must be an integer between 1 and 3600000, got "${bad}"`));
    }
  });

  it('SERVICE_NAME: the fallback until the process names itself; a name already in the environment is kept', () => {
    expect(serviceName()).toBe('coffer');
    expect(serviceName('keyring')).toBe('keyring');
    nameThisService('token-service');
    expect(serviceName()).toBe('token-service');
    nameThisService('gateway');
    expect(serviceName()).toBe('token-service');
    expect(process.env['SERVICE_NAME']).toBe('token-service');
  });
});
