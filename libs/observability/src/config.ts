/**
 * Configuration is validated at start-up: a bad value stops the process with a message naming the variable.
 */
export class ConfigError extends Error {}

export function envString(name: string, fallback?: string): string {
  const v = process.env[name];
  if (v === undefined || v === '') {
    if (fallback !== undefined) return fallback;
    throw new ConfigError(`${name} is required but not set`);
  }
  return v;
}

export function envInt(name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${v}"`);
  return Number(v);
}

export function envBool(name: string, fallback = false): boolean {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  if (/^(true|1|yes)$/i.test(v)) return true;
  if (/^(false|0|no)$/i.test(v)) return false;
  throw new ConfigError(`${name} must be true or false, got "${v}"`);
}

/** One of `values` (compared case-insensitively, returned as listed). */
export function envOneOf<T extends string>(name: string, values: readonly T[], fallback: T): T {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  const found = values.find((x) => x.toLowerCase() === v.toLowerCase());
  if (found === undefined) throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${v}"`);
  return found;
}

/** A comma list; every entry (trimmed, empties dropped) must pass `check`, which returns an error text or null. */
export function envList(name: string, fallback: string, check: (entry: string) => string | null): string[] {
  const v = process.env[name];
  const entries = (v === undefined || v === '' ? fallback : v)
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const problem = check(entry);
    if (problem) throw new ConfigError(`${name}: ${problem}`);
  }
  return entries;
}

export function envUrl(name: string, protocols: string[], fallback?: string): string {
  const v = envString(name, fallback);
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(u.protocol.replace(/:$/, ''))) throw new ConfigError(`${name} must use ${protocols.join(' or ')}://`);
  return v;
}

/** Runs `fn`, and on a ConfigError prints the message and exits 78 (EX_CONFIG) instead of a stack trace. */
export function validateConfig<T>(service: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof ConfigError || (err instanceof Error && /KEY_ENCRYPTION_KEYS|KEK_PROVIDER|PKCS11_|DATABASE_URL|NATS_URL/.test(err.message))) {
      process.stderr.write(`${service}: configuration error: ${err.message}\n`);
      process.exit(78);
    }
    throw err;
  }
}
