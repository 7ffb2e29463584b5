import { ConfigError, envString } from '@coffer/observability';
import { RATE_LIMIT_MAX_WINDOW_MS, type ApplicationType } from '@coffer/contracts';

export interface Limit {
  requests: number;
  windowMs: number;
}

const UNITS: Record<string, number> = { s: 1000, m: 60_000, min: 60_000, h: 3_600_000 };

/** "2000/10s", "50/min", "200/1m" → {requests, windowMs}. */
export function parseLimit(name: string, value: string): Limit {
  const m = /^(\d+)\/(\d*)(s|m|min|h)$/.exec(value.trim());
  if (!m || Number(m[1]) < 1) throw new ConfigError(`${name} must look like 2000/10s or 50/min, got "${value}"`);
  const limit = { requests: Number(m[1]), windowMs: Number(m[2] || 1) * UNITS[m[3]] };
  // the shared counts (session.rate-limits.lease) keep windows of at most an hour
  if (limit.windowMs < 1000 || limit.windowMs > RATE_LIMIT_MAX_WINDOW_MS || limit.requests > 1_000_000_000) {
    throw new ConfigError(`${name} must have a window of 1 s to 1 h and at most 1000000000 requests, got "${value}"`);
  }
  return limit;
}

/** docs/api-reference.md defaults, per application (a session counts on its own). */
export function limitsFromEnv(): Record<ApplicationType, Limit> {
  return {
    private: parseLimit('RATE_LIMIT_PRIVATE', envString('RATE_LIMIT_PRIVATE', '2000/10s')),
    public: parseLimit('RATE_LIMIT_PUBLIC', envString('RATE_LIMIT_PUBLIC', '50/min')),
    management: parseLimit('RATE_LIMIT_MANAGEMENT', envString('RATE_LIMIT_MANAGEMENT', '200/min')),
  };
}
