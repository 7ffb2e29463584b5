import { keyringOptionsFromEnv } from './keyring-config';
import { DEFAULT_DATA_KEY_CACHE_TTL_MS, DEFAULT_DATA_KEY_REFRESH_MS } from './tenant-keyring';

describe('DATA_KEY_CACHE_TTL_MS', () => {
  it('is 1 h when unset or empty', () => {
    expect(DEFAULT_DATA_KEY_CACHE_TTL_MS).toBe(3_600_000);
    expect(keyringOptionsFromEnv({})).toMatchObject({ cacheTtlMs: 3_600_000 });
    expect(keyringOptionsFromEnv({ DATA_KEY_CACHE_TTL_MS: '' })).toMatchObject({ cacheTtlMs: 3_600_000 });
  });

  it('takes 1 s to 1 day', () => {
    expect(keyringOptionsFromEnv({ DATA_KEY_CACHE_TTL_MS: '1000' })).toMatchObject({ cacheTtlMs: 1_000 });
    expect(keyringOptionsFromEnv({ DATA_KEY_CACHE_TTL_MS: '86400000' })).toMatchObject({ cacheTtlMs: 86_400_000 });
  });

  it.each(['999', '86400001', '1500.5', '10s', '-5000'])('refuses %s, naming the variable', (value) => {
    expect(() => keyringOptionsFromEnv({ DATA_KEY_CACHE_TTL_MS: value })).toThrow('DATA_KEY_CACHE_TTL_MS must be an integer from 1000 to 86400000');
  });

  it('reads the process environment by default', () => {
    const saved = process.env['DATA_KEY_CACHE_TTL_MS'];
    try {
      process.env['DATA_KEY_CACHE_TTL_MS'] = '5000';
      expect(keyringOptionsFromEnv()).toMatchObject({ cacheTtlMs: 5_000 });
    } finally {
      if (saved === undefined) delete process.env['DATA_KEY_CACHE_TTL_MS'];
      else process.env['DATA_KEY_CACHE_TTL_MS'] = saved;
    }
  });
});

describe('DATA_KEY_REFRESH_MS', () => {
  it('is 1 min when unset or empty', () => {
    expect(DEFAULT_DATA_KEY_REFRESH_MS).toBe(60_000);
    expect(keyringOptionsFromEnv({})).toEqual({ cacheTtlMs: 3_600_000, refreshMs: 60_000 });
    expect(keyringOptionsFromEnv({ DATA_KEY_REFRESH_MS: '' })).toMatchObject({ refreshMs: 60_000 });
  });

  it('takes 1 s to 1 h', () => {
    expect(keyringOptionsFromEnv({ DATA_KEY_REFRESH_MS: '1000' })).toMatchObject({ refreshMs: 1_000 });
    expect(keyringOptionsFromEnv({ DATA_KEY_REFRESH_MS: '3600000' })).toMatchObject({ refreshMs: 3_600_000 });
  });

  it.each(['999', '3600001', '2000.5', '1m', '-1000'])('refuses %s, naming the variable', (value) => {
    expect(() => keyringOptionsFromEnv({ DATA_KEY_REFRESH_MS: value })).toThrow('DATA_KEY_REFRESH_MS must be an integer from 1000 to 3600000');
  });
});
