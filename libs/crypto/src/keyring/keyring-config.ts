import { DEFAULT_DATA_KEY_CACHE_TTL_MS, type TenantKeyringOptions } from './tenant-keyring';

type Env = Record<string, string | undefined>;

/**
 * DATA_KEY_CACHE_TTL_MS: 1 s – 1 day, default 1 h: how long an unwrapped tenant key stays in a service's memory
 * (docs/keys.md). Read when KeyringModule is built, so a bad value stops the service at start-up.
 */
export function keyringOptionsFromEnv(env: Env = process.env): TenantKeyringOptions {
  const raw = env['DATA_KEY_CACHE_TTL_MS'];
  const n = raw ? Number(raw) : DEFAULT_DATA_KEY_CACHE_TTL_MS;
  if (!Number.isInteger(n) || n < 1000 || n > 86_400_000) throw new Error('DATA_KEY_CACHE_TTL_MS must be an integer from 1000 to 86400000');
  return { cacheTtlMs: n };
}
