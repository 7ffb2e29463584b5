import { ConfigError, envList, envOneOf } from './config';
import { loadProcessConfig } from './process-config';
import { logLevel } from './logger';

const VARS = ['LOG_LEVEL', 'SHUTDOWN_TIMEOUT_MS', 'NATS_URL', 'NATS_USER', 'NATS_PASSWORD', 'NATS_TOKEN', 'X_LIST', 'X_ONE'];

describe('the settings every process reads', () => {
  const saved = { ...process.env };
  const env = (values: Record<string, string>) => Object.assign(process.env, values);
  beforeEach(() => VARS.forEach((v) => delete process.env[v]));
  afterAll(() => {
    process.env = saved;
  });

  it('has a default for each', () => {
    expect(loadProcessConfig()).toEqual({ logLevel: 'info', shutdownTimeoutMs: 25_000, natsServers: ['nats://127.0.0.1:4222'] });
  });

  it('reads the values given', () => {
    env({ LOG_LEVEL: 'WARN', SHUTDOWN_TIMEOUT_MS: '5000', NATS_URL: 'nats://a:4222, tls://b:4222,c:4222', NATS_USER: 'u', NATS_PASSWORD: 'p' });
    expect(loadProcessConfig()).toEqual({
      logLevel: 'warn',
      shutdownTimeoutMs: 5000,
      natsServers: ['nats://a:4222', 'tls://b:4222', 'c:4222'],
      natsUser: 'u',
      natsPassword: 'p',
    });
  });

  it.each([
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"'],
    [{ SHUTDOWN_TIMEOUT_MS: '25s' }, 'SHUTDOWN_TIMEOUT_MS must be an integer between 1 and 3600000, got "25s"'],
    [{ NATS_URL: 'http://x:4222' }, 'NATS_URL: every entry must use nats:// or tls://'],
    [{ NATS_USER: 'u' }, 'NATS_PASSWORD is required when NATS_USER is set'],
    [{ NATS_PASSWORD: 'p' }, 'NATS_USER is required when NATS_PASSWORD is set'],
  ])('stops on %p', (values, message) => {
    env(values);
    expect(() => loadProcessConfig()).toThrow(new ConfigError(message));
  });

  it('never quotes a NATS URL (it may carry a password)', () => {
    env({ NATS_URL: 'http://user:secret@x:4222' });
    expect(() => loadProcessConfig()).toThrow(/^(?!.*secret)/);
  });

  it('logLevel, envOneOf and envList', () => {
    expect(logLevel()).toBe('info');
    env({ X_ONE: 'B', X_LIST: ' a, ,b ' });
    expect(envOneOf('X_ONE', ['a', 'b'] as const, 'a')).toBe('b');
    expect(envList('X_LIST', '', () => null)).toEqual(['a', 'b']);
    expect(() => envList('X_LIST', '', (e) => (e === 'b' ? 'no b' : null))).toThrow('X_LIST: no b');
  });
});
