import type { RateLimitLeaseMessage, RateLimitLeaseReply } from '@coffer/contracts';
import { SharedRateLimiter, rateLimitFallbacks, type LeaseClient } from './shared-rate-limiter';

/**
 * session.rate-limits.lease as session-service answers it (rate-limit-windows.ts), on a clock the test moves: fixed
 * windows, the sliding estimate, at most `want`. Replies can be held back (`hold`) to see requests wait on them.
 */
class FakeLeases implements LeaseClient {
  readonly windows = new Map<string, number>();
  readonly calls: RateLimitLeaseMessage[] = [];
  failing = false;
  private held: Array<() => void> | undefined;

  constructor(private readonly clock: () => number) {}

  hold(): void {
    this.held = [];
  }

  release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const go of held) go();
  }

  async lease(req: RateLimitLeaseMessage): Promise<RateLimitLeaseReply> {
    this.calls.push(req);
    if (this.held) await new Promise<void>((r) => this.held?.push(r));
    if (this.failing) throw new Error('session-service did not answer in time');
    const now = this.clock();
    const start = now - (now % req.windowMs);
    const previous = this.windows.get(`${req.subject}@${start - req.windowMs}`) ?? 0;
    const granted = this.windows.get(`${req.subject}@${start}`) ?? 0;
    const cap = Math.floor(req.limit - previous * (1 - (now - start) / req.windowMs));
    const grant = Math.min(req.want, Math.max(0, cap - granted));
    this.windows.set(`${req.subject}@${start}`, granted + grant);
    const remaining = Math.max(0, cap - granted - grant);
    const windowEndsInMs = start + req.windowMs - now;
    return {
      granted: grant,
      windowStart: start,
      remaining,
      retryAfterSeconds: Math.max(1, Math.ceil(windowEndsInMs / 1000)),
      windowEndsInMs,
      nextPermitInMs: remaining > 0 ? 0 : windowEndsInMs,
    };
  }
}

describe('SharedRateLimiter', () => {
  let now: number;
  const clock = () => now;
  const limit = { requests: 2000, windowMs: 10_000 };
  let leases: FakeLeases;
  const limiter = (exact = false, onFallback?: (err: unknown) => void) =>
    new SharedRateLimiter(leases, { name: 'api', exact, now: clock, ...(onFallback ? { onFallback } : {}) });
  const admitMany = async (l: SharedRateLimiter, n: number, subject = 'a:app', lim = limit) => {
    const waits: number[] = [];
    for (let i = 0; i < n; i++) waits.push(await l.admit(subject, lim, 'trace'));
    return waits;
  };

  beforeEach(() => {
    now = 1_000_000;
    leases = new FakeLeases(clock);
  });

  it('leases an eighth of the limit first, then a quarter of what is left, down to 1 near the limit', async () => {
    const l = limiter();
    const waits = await admitMany(l, 2000);
    expect(waits.every((w) => w === 0)).toBe(true);
    const wants = leases.calls.map((c) => c.want);
    expect(wants.slice(0, 3)).toEqual([250, 437, 328]);
    expect(wants.at(-1)).toBe(1);
    // a busy application at the default 2000/10s: a couple of dozen leases a window, not one per request
    expect(leases.calls.length).toBeLessThanOrEqual(30);
    expect(await l.admit('a:app', limit, 'trace')).toBe(10);
  });

  it('spends held permits without asking: one lease serves many requests', async () => {
    const l = limiter();
    await admitMany(l, 200);
    expect(leases.calls).toHaveLength(1);
    expect(l.admit('a:app', limit, 'trace')).toBe(0); // synchronous: no round trip
  });

  it('two replicas admit the limit in total, not each', async () => {
    const small = { requests: 20, windowMs: 10_000 };
    const a = limiter();
    const b = limiter();
    const waits: number[] = [];
    for (let i = 0; i < 40; i++) waits.push(await (i % 2 ? a : b).admit('a:app', small, 'trace'));
    expect(waits.filter((w) => w === 0)).toHaveLength(20);
    expect(waits.slice(-4).every((w) => w > 0)).toBe(true);
  });

  it('requests arriving while a lease is in flight wait for it: one lease call per subject at a time', async () => {
    const l = limiter();
    leases.hold();
    const pending = Array.from({ length: 50 }, () => l.admit('a:app', limit, 'trace'));
    expect(leases.calls).toHaveLength(1);
    leases.release();
    expect(await Promise.all(pending)).toEqual(Array(50).fill(0));
    expect(leases.calls).toHaveLength(1);
  });

  it('waiting requests the lease did not cover ask again, one lease at a time (exact: one permit each)', async () => {
    const l = limiter(true);
    leases.hold();
    const pending = Array.from({ length: 3 }, () => l.admit('a:app', { requests: 2, windowMs: 10_000 }, 'trace'));
    leases.release();
    await new Promise((r) => setImmediate(r));
    leases.release();
    await new Promise((r) => setImmediate(r));
    leases.release();
    const waits = await Promise.all(pending);
    expect(waits.filter((w) => w === 0)).toHaveLength(2);
    expect(leases.calls.every((c) => c.want === 1)).toBe(true);
  });

  it('refuses without asking once the limit is spent, until the window ends; then leases anew (the old permits lapse)', async () => {
    const small = { requests: 10, windowMs: 10_000 };
    const l = limiter();
    now = 1_000_000; // a window's start
    expect((await admitMany(l, 10, 'a:app', small)).every((w) => w === 0)).toBe(true);
    const calls = leases.calls.length;
    now += 4_000;
    expect(await l.admit('a:app', small, 'trace')).toBe(6);
    expect(await l.admit('a:app', small, 'trace')).toBe(6);
    expect(leases.calls.length).toBe(calls);
    // the next window: the previous one's 10 weigh 10 × 0.5 at its middle
    now = 1_015_000;
    const waits = await admitMany(l, 8, 'a:app', small);
    expect(waits.filter((w) => w === 0)).toHaveLength(5);
  });

  it('a lease answered after its window ended does not refuse a request far under the limit: it spends the permit it was granted', async () => {
    const l = limiter();
    const answer = leases.lease.bind(leases);
    let deliver: () => void = () => undefined;
    // the first reply is computed 10 ms before a window's end, and reaches the gateway 40 ms after it
    jest.spyOn(leases, 'lease').mockImplementationOnce(async (req) => {
      const reply = await answer(req);
      await new Promise<void>((r) => (deliver = r));
      return reply;
    });
    now = 1_009_990;
    const pending = l.admit('a:app', limit, 'trace');
    await new Promise((r) => setImmediate(r));
    now = 1_010_040;
    deliver();
    expect(await pending).toBe(0);
    // the request spent the permit its lease was granted in that window; the rest lapsed: the next one asks anew
    expect(leases.calls.length).toBe(1);
    expect(await l.admit('a:app', limit, 'trace')).toBe(0);
    expect(leases.calls.length).toBe(2);
  });

  it('a slow bus near a window end does not refuse a request far under the limit, however often its permits lapse', async () => {
    const l = limiter();
    const answer = leases.lease.bind(leases);
    // [to session-service, back] in ms: each reply arrives after the permits' end as counted from its ask, yet both
    // replies are computed in the same window, so asking the new window once is not enough (seen in CI under load)
    const delays = [
      [15, 2],
      [1, 1],
    ];
    jest.spyOn(leases, 'lease').mockImplementation(async (req) => {
      const [out, back] = delays.shift() ?? [0, 0];
      now += out;
      const reply = await answer(req);
      now += back;
      return reply;
    });
    now = 1_009_980;
    expect(await l.admit('a:app', limit, 'trace')).toBe(0);
  });

  it('permits leased in one window are not spent in the next', async () => {
    const small = { requests: 100, windowMs: 10_000 };
    const l = limiter();
    await l.admit('a:app', small, 'trace'); // leases 12, spends 1
    expect(leases.calls).toHaveLength(1);
    now += 10_000;
    await l.admit('a:app', small, 'trace');
    expect(leases.calls).toHaveLength(2);
  });

  it('fails open when leases fail: counts on this replica alone until the window ends, told once, then leases again', async () => {
    const told: unknown[] = [];
    const l = limiter(false, (err) => told.push(err));
    const small = { requests: 5, windowMs: 10_000 };
    const before = (await rateLimitFallbacks.get()).values.find((v) => v.labels.limiter === 'api')?.value ?? 0;
    leases.failing = true;
    const waits = await admitMany(l, 7, 'a:app', small);
    expect(waits.filter((w) => w === 0)).toHaveLength(5);
    expect(waits.slice(5).every((w) => w > 0)).toBe(true);
    await admitMany(l, 3, 'a:other', small);
    expect(leases.calls.map((c) => c.subject)).toEqual(['a:app', 'a:other']);
    expect(told).toHaveLength(1);
    const after = (await rateLimitFallbacks.get()).values.find((v) => v.labels.limiter === 'api')?.value ?? 0;
    expect(after - before).toBe(2);
    // the next window asks session-service again
    leases.failing = false;
    now += 10_000;
    expect(await l.admit('a:app', small, 'trace')).toBe(0);
    expect(leases.calls).toHaveLength(3);
  });

  it('asks for nothing while idle and keeps subjects apart', async () => {
    const l = limiter();
    await l.admit('a:one', limit, 'trace');
    await l.admit('s:two', limit, 'trace');
    expect(leases.calls.map((c) => c.subject)).toEqual(['a:one', 's:two']);
  });
});
