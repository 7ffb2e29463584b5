import { ConfigError } from '@coffer/observability';

/**
 * Delays before each retry. Default: 10 attempts over about 2.5 hours (exponential-ish, then flat), each delay with
 * ±20% jitter so a receiver that comes back is not hit by every delivery at once. WEBHOOK_RETRY_SCHEDULE overrides
 * it, e.g. "200ms,400ms,800ms" (tests) — the number of entries + 1 is the number of attempts.
 */
export const DEFAULT_SCHEDULE = '5s,30s,2m,5m,10m,20m,30m,40m,45m';

const UNIT: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function parseSchedule(text: string): number[] {
  const delays = text.split(',').map((part) => {
    const m = /^\s*(\d+)\s*(ms|s|m|h)\s*$/.exec(part);
    if (!m) throw new ConfigError(`WEBHOOK_RETRY_SCHEDULE must be a comma list like 5s,30s,2m — got "${text}"`);
    return Number(m[1]) * UNIT[m[2]];
  });
  if (!delays.length || delays.length > 50) throw new ConfigError('WEBHOOK_RETRY_SCHEDULE must have 1 to 50 entries');
  return delays;
}

export class RetrySchedule {
  /** `delays`: the configuration's WEBHOOK_RETRY_SCHEDULE (config.ts), or parseSchedule(...) */
  constructor(readonly delays: readonly number[]) {}

  get maxAttempts(): number {
    return this.delays.length + 1;
  }

  /** Delay after `attempt` failed attempts (1-based), honouring Retry-After (capped at one hour); null: give up. */
  nextDelay(attempt: number, retryAfterMs?: number, random = Math.random): number | null {
    if (attempt >= this.maxAttempts) return null;
    const base = this.delays[attempt - 1];
    const jittered = base * (0.8 + 0.4 * random());
    return Math.round(Math.max(jittered, Math.min(retryAfterMs ?? 0, 3_600_000)));
  }
}

export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : Math.max(0, t - now);
}
