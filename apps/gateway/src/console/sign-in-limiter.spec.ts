import type { RateLimitLeaseMessage, RateLimitLeaseReply } from '@coffer/contracts';
import { SharedRateLimiter, type LeaseClient } from '../rate-limit/shared-rate-limiter';
import { SignInLimiter } from './sign-in-limiter';

describe('SignInLimiter', () => {
  let now = 0;
  let asked: RateLimitLeaseMessage[];
  /** session-service's counts, shared by every limiter made here (the replicas of one installation) */
  let counts: Map<string, number>;
  const leases: LeaseClient = {
    async lease(req): Promise<RateLimitLeaseReply> {
      asked.push(req);
      const start = now - (now % req.windowMs);
      const previous = req.fixed ? 0 : (counts.get(`${req.subject}@${start - req.windowMs}`) ?? 0);
      const granted = counts.get(`${req.subject}@${start}`) ?? 0;
      const cap = Math.floor(req.limit - previous * (1 - (now - start) / req.windowMs));
      const grant = Math.min(req.want, Math.max(0, cap - granted));
      counts.set(`${req.subject}@${start}`, granted + grant);
      const ends = start + req.windowMs - now;
      return {
        granted: grant,
        windowStart: start,
        remaining: Math.max(0, cap - granted - grant),
        retryAfterSeconds: Math.ceil(ends / 1000),
        windowEndsInMs: ends,
        nextPermitInMs: cap - granted - grant > 0 ? 0 : ends,
      };
    },
  };
  const limiter = () =>
    new SignInLimiter({ requests: 3, windowMs: 60_000 }, new SharedRateLimiter(leases, { name: 'console_sign_in', exact: true, fixed: true, now: () => now }));
  const key = (n: number) => n.toString(16).padStart(64, '0');
  beforeEach(() => {
    now = 120_000;
    asked = [];
    counts = new Map();
  });

  it('admits N attempts per address in a window, then says how long to wait; one permit leased per attempt', async () => {
    const l = limiter();
    expect(await Promise.all([1, 2, 3].map((i) => l.admit('10.0.0.1', key(i), 't')))).toEqual([0, 0, 0]);
    now += 15_000;
    expect(await l.admit('10.0.0.1', key(4), 't')).toBe(45);
    expect(await l.admit('10.0.0.2', key(5), 't')).toBe(0);
    expect(asked.every((a) => a.want === 1 && a.fixed === true)).toBe(true);
    // fixed windows: the next one starts afresh
    now += 45_000;
    expect(await l.admit('10.0.0.1', key(6), 't')).toBe(0);
  });

  it('admits N attempts per key whatever the address (a key guessed from many addresses)', async () => {
    const l = limiter();
    for (const a of ['a', 'b', 'c']) expect(await l.admit(a, key(7), 't')).toBe(0);
    expect(await l.admit('d', key(7), 't')).toBeGreaterThan(0);
    expect(await l.admit('d', key(8), 't')).toBe(0);
  });

  it('counts for every replica together: N attempts in total, whichever replica they reach', async () => {
    const replicas = [limiter(), limiter()];
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) waits.push(await replicas[i % 2].admit('10.0.0.9', key(100 + i), 't'));
    expect(waits).toEqual([0, 0, 0, expect.any(Number), expect.any(Number), expect.any(Number)]);
    expect(waits.slice(3).every((w) => w > 0)).toBe(true);
  });

  it('keys a callback state that is not a key hash by its hash', async () => {
    await limiter().admit('10.0.0.1', 'oidc:some state', 't');
    expect(asked.map((a) => a.subject)).toEqual(['console:a:10.0.0.1', expect.stringMatching(/^console:k:[0-9a-f]{64}$/)]);
  });
});
