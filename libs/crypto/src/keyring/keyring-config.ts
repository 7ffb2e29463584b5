import { DEFAULT_DATA_KEY_CACHE_TTL_MS, DEFAULT_DATA_KEY_REFRESH_MS, type TenantKeyringOptions } from './tenant-keyring';

type Env = Record<string, string | undefined>;

/**
 * The keyring's settings (docs/keys.md), read when KeyringModule is built, so a bad value stops the service at start-up:
 * - DATA_KEY_CACHE_TTL_MS: 1 s – 1 day, default 1 h: how long an unwrapped tenant key stays in a service's memory;
 * - DATA_KEY_REFRESH_MS: 1 s – 1 h, default 1 min: how long a service seals under a tenant's active data key before
 *   looking it up again, so how long after `keys rotate` it may still seal under the previous key. The operator CLI
 *   reads it too: `keys reencrypt` waits that long (and a margin) after a rotation before it counts what is left.
 */
export function keyringOptionsFromEnv(env: Env = process.env): Required<TenantKeyringOptions> {
  return {
    cacheTtlMs: integerSetting(env, 'DATA_KEY_CACHE_TTL_MS', DEFAULT_DATA_KEY_CACHE_TTL_MS, 1000, 86_400_000),
    refreshMs: integerSetting(env, 'DATA_KEY_REFRESH_MS', DEFAULT_DATA_KEY_REFRESH_MS, 1000, 3_600_000),
  };
}

function integerSetting(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  const n = raw ? Number(raw) : fallback;
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}`);
  return n;
}
