import { LRUCache } from 'lru-cache';
import { Counter } from 'prom-client';
import type { RateLimitLeaseMessage, RateLimitLeaseReply } from '@coffer/contracts';
import { metricsRegistry } from '@coffer/observability';
import type { Limit } from './rate-limits';

/** Asks session-service for permits (session.rate-limits.lease); rejects when it cannot (down, slow, refused). */
export interface LeaseClient {
  lease(request: RateLimitLeaseMessage, traceId: string): Promise<RateLimitLeaseReply>;
}

/**
 * Leases that failed, after which the replica counted on its own until the window's end (fail open): one per
 * limiter, subject and window at most.
 */
export const rateLimitFallbacks = new Counter({
  name: 'coffer_rate_limit_fallbacks_total',
  help: 'Rate limit leases that failed: the subject was limited by this replica alone until its window ended',
  labelNames: ['limiter'] as const,
  registers: [metricsRegistry],
});
// every limiter starts at 0: increase() sees the first fallback
for (const limiter of ['api', 'console_sign_in']) rateLimitFallbacks.inc({ limiter }, 0);

export interface SharedRateLimiterOptions {
  /** the metric's `limiter` label and the log line's name */
  name: 'api' | 'console_sign_in';
  /** every lease asks for one permit (the console's sign-ins: few, and each one counted where it is made) */
  exact?: boolean;
  /** fixed windows: the previous window does not count (the console's sign-ins) */
  fixed?: boolean;
  now?: () => number;
  /** told once per window of a limit that leases failed and this replica limits on its own */
  onFallback?: (error: unknown) => void;
}

/** A subject's fixed window on this replica's clock (the fail-open count, kept for every admission). */
interface Tally {
  start: number;
  count: number;
  previous: number;
}

interface SubjectState {
  /** the window (its start on session-service's clock) the held permits were granted in */
  windowStart: number;
  /** local time the leased permits lapse (their window's end, as session-service said, counted from the ask) */
  until: number;
  permits: number;
  /** what the last reply of this window said the limit still leaves; undefined before the window's first lease */
  remaining?: number;
  /** local time before which a request is refused without asking: the last lease left nothing */
  refusedUntil: number;
  /** local time before which this replica limits alone: a lease failed in this window */
  fallbackUntil: number;
  /** the one lease in flight for this subject: concurrent requests wait for it */
  leasing?: Promise<void>;
  tally: Tally;
}

/** 0: admitted; otherwise the seconds a refused caller should wait (Retry-After). */
export type Admission = number;

/**
 * A rate limit shared by every gateway replica (docs/operations.md, "Rate limits"): session-service counts the permits
 * each window granted (session.rate-limits.lease, one row per subject and window); a replica leases a few at a time
 * and spends them locally, so a busy subject costs a few lease calls per window, not one per request.
 *
 * - A request spends a leased permit if the replica holds one (no round trip); otherwise it asks for a lease, one in
 *   flight per subject, which concurrent requests wait for.
 * - Lease size: the window's first asks for an eighth of the limit; then a quarter of what the last reply said is
 *   left, so leases shrink to 1 near the limit. `exact`: always 1. `fixed`: the previous window does not count.
 * - Permits a replica leased but did not spend lapse at the window's end: the limit may admit fewer, never more.
 * - When the limit leaves nothing, the replica refuses without asking until the estimate frees a permit (and, not
 *   exact, for at least 1/64 of the window, so a subject over its limit costs at most 64 leases a window).
 * - A lease that fails (session-service down or slower than 200 ms) makes the replica limit that subject on its own
 *   (today's sliding window, per replica) until the window's end: it keeps serving (fail open), counted in
 *   coffer_rate_limit_fallbacks_total and logged once per window.
 *
 * No timers: state changes only when a request arrives.
 */
export class SharedRateLimiter {
  private readonly subjects = new LRUCache<string, SubjectState>({ max: 100_000 });
  private readonly now: () => number;
  private fallbackLoggedUntil = 0;

  constructor(
    private readonly client: LeaseClient,
    private readonly options: SharedRateLimiterOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /**
   * Counts one request of `subject` against `limit`: 0 when admitted, else the seconds until the window ends.
   * Synchronous (a number) when the replica can decide alone, a promise when it asks session-service.
   */
  admit(subject: string, limit: Limit, traceId: string): Admission | Promise<Admission> {
    const state = this.stateOf(subject);
    const decided = this.decide(state, limit, this.now());
    return decided !== undefined ? decided : this.leaseAndDecide(subject, state, limit, traceId);
  }

  /** Admits or refuses without a round trip, or undefined when a lease is needed. */
  private decide(s: SubjectState, limit: Limit, now: number): Admission | undefined {
    rollTally(s.tally, limit.windowMs, now);
    if (now >= s.until) {
      s.permits = 0;
      s.remaining = undefined;
    }
    if (now < s.fallbackUntil) {
      const t = s.tally;
      const previous = this.options.fixed ? 0 : t.previous;
      if (previous * (1 - (now - t.start) / limit.windowMs) + t.count >= limit.requests) return retryAfter(t.start + limit.windowMs, now);
      return this.spend(s);
    }
    if (s.permits > 0) {
      s.permits--;
      return this.spend(s);
    }
    if (now < s.refusedUntil) return retryAfter(s.until, now);
    return undefined;
  }

  private spend(s: SubjectState): Admission {
    s.tally.count++;
    return 0;
  }

  private async leaseAndDecide(subject: string, s: SubjectState, limit: Limit, traceId: string): Promise<Admission> {
    for (let windowChanged = false; ; ) {
      const own = !s.leasing;
      let granted = 0;
      if (own)
        s.leasing = this.lease(subject, s, limit, traceId)
          .then((n) => void (granted = n))
          .finally(() => (s.leasing = undefined));
      await s.leasing;
      const now = this.now();
      const decided = this.decide(s, limit, now);
      if (decided !== undefined) return decided;
      // the reply's window ended while it travelled and its permits lapsed: the one this request asked for was counted
      // in that window, so it is spent here (a loaded bus can make that happen twice in a row near a window's end)
      if (own && granted > 0) return this.spend(s);
      // nothing granted, and the window ended while the reply travelled: ask the new one, once
      if (own && now >= s.until && !windowChanged) {
        windowChanged = true;
        continue;
      }
      // this request's own lease left it nothing: refused (never a second round trip for one request)
      if (own) return retryAfter(s.until, now);
      // the lease went to requests that were waiting before this one: ask again (one in flight at a time)
    }
  }

  /** Asks for permits and holds them; resolves to how many were granted (0 when the lease failed). */
  private async lease(subject: string, s: SubjectState, limit: Limit, traceId: string): Promise<number> {
    const want = this.options.exact ? 1 : Math.max(1, Math.floor(s.remaining === undefined ? limit.requests / 8 : s.remaining / 4));
    const askedAt = this.now();
    let reply: RateLimitLeaseReply;
    try {
      const request = { subject, limit: limit.requests, windowMs: limit.windowMs, want, ...(this.options.fixed ? { fixed: true } : {}) };
      reply = await this.client.lease(request, traceId);
    } catch (err) {
      this.fallBack(s, limit, askedAt, err);
      return 0;
    }
    if (reply.windowStart !== s.windowStart || s.until <= this.now()) {
      // a new window: what was held of the last one has lapsed
      s.windowStart = reply.windowStart;
      s.permits = 0;
      s.until = askedAt + reply.windowEndsInMs;
    }
    s.permits += reply.granted;
    s.remaining = reply.remaining;
    if (reply.remaining === 0) {
      const hold = this.options.exact ? reply.nextPermitInMs : Math.max(reply.nextPermitInMs, Math.ceil(limit.windowMs / 64));
      s.refusedUntil = askedAt + Math.min(reply.windowEndsInMs, hold);
    } else {
      s.refusedUntil = 0;
    }
    return reply.granted;
  }

  private fallBack(s: SubjectState, limit: Limit, at: number, err: unknown): void {
    const windowEnd = Math.floor(at / limit.windowMs) * limit.windowMs + limit.windowMs;
    s.fallbackUntil = windowEnd;
    rateLimitFallbacks.inc({ limiter: this.options.name });
    if (at >= this.fallbackLoggedUntil) {
      this.fallbackLoggedUntil = windowEnd;
      this.options.onFallback?.(err);
    }
  }

  private stateOf(subject: string): SubjectState {
    let s = this.subjects.get(subject);
    if (!s) {
      s = { windowStart: -1, until: 0, permits: 0, refusedUntil: 0, fallbackUntil: 0, tally: { start: 0, count: 0, previous: 0 } };
      this.subjects.set(subject, s);
    }
    return s;
  }
}

/** Moves a tally to the fixed window holding `now` (the previous window's count kept when it is the one before). */
function rollTally(t: Tally, windowMs: number, now: number): void {
  const start = now - (now % windowMs);
  if (start === t.start) return;
  t.previous = start - t.start === windowMs ? t.count : 0;
  t.start = start;
  t.count = 0;
}

function retryAfter(end: number, now: number): number {
  return Math.max(1, Math.ceil((end - now) / 1000));
}
