import { ConfigError } from '@coffer/observability';
import { readStartupConfig } from './service-bootstrap';

const KEK = `test:${Buffer.alloc(32, 7).toString('base64')}`;
const VARS = ['DATABASE_URL', 'KEY_ENCRYPTION_KEYS', 'HEALTH_HOST', 'SHUTDOWN_TIMEOUT_MS'];

describe("a service's start-up configuration", () => {
  const saved = { ...process.env };
  beforeEach(() => VARS.forEach((v) => delete process.env[v]));
  afterAll(() => {
    process.env = saved;
  });

  it('with a database: DATABASE_URL and KEY_ENCRYPTION_KEYS first, then its own settings', () => {
    const config = jest.fn(() => ({ healthPort: 9199 }));
    const startup = () => readStartupConfig({ config, usesDatabase: true });
    expect(startup).toThrow('DATABASE_URL is not set');
    process.env['DATABASE_URL'] = 'mysql://u:secret@h/db';
    expect(startup).toThrow(new ConfigError('DATABASE_URL must use postgres or postgresql://'));
    process.env['DATABASE_URL'] = 'postgres://u:secret@h/db';
    expect(startup).toThrow(/KEY_ENCRYPTION_KEYS/);
    expect(config).not.toHaveBeenCalled();
    process.env['KEY_ENCRYPTION_KEYS'] = KEK;
    expect(startup()).toEqual({ healthPort: 9199, healthHost: expect.any(String), shutdownTimeoutMs: 25_000 });
  });

  it('without a database: its own settings only, and their error is the one reported', () => {
    expect(readStartupConfig({ config: () => ({ healthPort: 9106 }), usesDatabase: false })).toMatchObject({ healthPort: 9106 });
    const bad = () => {
      throw new ConfigError('HEALTH_PORT must be an integer between 1 and 65535');
    };
    expect(() => readStartupConfig({ config: bad, usesDatabase: false })).toThrow('HEALTH_PORT must be');
  });
});
