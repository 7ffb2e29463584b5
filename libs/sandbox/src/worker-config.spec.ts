import { DEFAULTS, type WorkerConfig } from './protocol';
import { workerConfigFromEnv, workerEnvironment } from './worker-config';

const config: WorkerConfig = {
  memoryLimitMb: DEFAULTS.memoryLimitMb,
  concurrency: 2,
  maxResultBytes: 1024,
  maxTimers: DEFAULTS.maxTimers,
  maxLogLines: DEFAULTS.maxLogLines,
  maxLogBytes: DEFAULTS.maxLogBytes,
  maxSvcCalls: DEFAULTS.maxSvcCalls,
  maxFetchCalls: DEFAULTS.maxFetchCalls,
  maxFetchBytes: 4096,
  maxScriptsPerIsolate: 8,
};

describe("a sandbox worker's environment", () => {
  it('is clean: only the launch settings, NODE_PATH when set, NODE_ENV (default production) and the limits', () => {
    const parent = { DATABASE_URL: 'postgres://secret', KEY_ENCRYPTION_KEYS: 'k:secret', HOME: '/root' };
    expect(workerEnvironment(config, { TS_NODE_TRANSPILE_ONLY: 'true' }, parent)).toEqual({
      TS_NODE_TRANSPILE_ONLY: 'true',
      NODE_ENV: 'production',
      COFFER_SANDBOX_CONFIG: JSON.stringify(config),
    });
    expect(workerEnvironment(config, {}, { NODE_PATH: '/app/node_modules', NODE_ENV: 'test' })).toEqual({
      NODE_PATH: '/app/node_modules',
      NODE_ENV: 'test',
      COFFER_SANDBOX_CONFIG: JSON.stringify(config),
    });
    expect(workerEnvironment(config, {}, { NODE_PATH: '' })).not.toHaveProperty('NODE_PATH');
  });

  it('hands the worker its limits: what workerConfigFromEnv reads back (none given: an empty set)', () => {
    expect(workerConfigFromEnv(workerEnvironment(config, {}, {}))).toEqual(config);
    expect(workerConfigFromEnv({})).toEqual({});
  });

  it('refuses limits that are not JSON', () => {
    expect(() => workerConfigFromEnv({ COFFER_SANDBOX_CONFIG: '{' })).toThrow(SyntaxError);
  });
});
