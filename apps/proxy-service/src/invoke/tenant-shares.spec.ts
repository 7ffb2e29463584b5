import { ProblemError } from '@coffer/contracts';
import { TenantShareBudget } from './tenant-shares';

const MiB = 1024 * 1024;

describe("TenantShareBudget: proxy-service's calls and bytes shared between tenants", () => {
  it('holds one tenant to its share of the calls; another tenant is still admitted', () => {
    const shares = new TenantShareBudget({ maxInFlight: 8, maxInFlightBytes: 64 * MiB, tenantSharePercent: 50 });
    const held = Array.from({ length: 4 }, () => shares.admit('hog', 0));
    expect(() => shares.admit('hog', 0)).toThrow(expect.objectContaining({ status: 503 }));
    const other = shares.admit('victim', 0);
    other.release();
    held[0].release();
    expect(() => shares.admit('hog', 0).release()).not.toThrow();
  });

  it("refuses a tenant's next calls while its answers hold its share of the bytes, and admits them once they are sent", () => {
    const shares = new TenantShareBudget({ maxInFlight: 64, maxInFlightBytes: 16 * MiB, tenantSharePercent: 50 });
    const calls = Array.from({ length: 2 }, () => shares.admit('hog', 0));
    calls.forEach((c) => c.hold(4 * MiB));
    expect(shares.heldBytes('hog')).toBe(8 * MiB);
    let refused: unknown;
    try {
      shares.admit('hog', 100);
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(ProblemError);
    expect((refused as ProblemError).status).toBe(503);
    // the other tenant is not charged for them
    shares.admit('victim', 1000).release();
    calls.forEach((c) => c.release());
    expect(shares.heldBytes('hog')).toBe(0);
    shares.admit('hog', 100).release();
  });

  it("reserves a tenant's last answer size for each of its calls: large answers mean fewer calls at once, small ones do not", () => {
    const shares = new TenantShareBudget({ maxInFlight: 64, maxInFlightBytes: 64 * MiB, tenantSharePercent: 50 });
    const first = shares.admit('big', 0);
    first.hold(4 * MiB);
    first.release();
    const calls = Array.from({ length: 8 }, () => shares.admit('big', 0));
    expect(shares.heldBytes('big')).toBe(32 * MiB);
    expect(() => shares.admit('big', 0)).toThrow(ProblemError);
    // an answer smaller than expected gives the difference back
    calls[0].hold(1024);
    expect(shares.heldBytes('big')).toBe(28 * MiB + 1024);
    calls.forEach((c) => c.release());
    const small = Array.from({ length: 20 }, () => shares.admit('small', 0));
    small.forEach((c) => c.hold(2048));
    small.forEach((c) => c.release());
    expect(shares.heldBytes('small')).toBe(0);
  });

  it('when the whole byte budget is held, admits only tenants that hold none of it', () => {
    const shares = new TenantShareBudget({ maxInFlight: 64, maxInFlightBytes: 8 * MiB, tenantSharePercent: 100 });
    const a = shares.admit('a', 0);
    a.hold(8 * MiB);
    expect(() => shares.admit('a', 0)).toThrow(ProblemError);
    const b = shares.admit('b', 10);
    b.release();
    a.release();
  });

  it('releases once, and counts nothing held after its release', () => {
    const shares = new TenantShareBudget({ maxInFlight: 1, maxInFlightBytes: 0, tenantSharePercent: 100 });
    const a = shares.admit('t', 10);
    a.release();
    a.release();
    a.hold(10);
    expect(shares.heldBytes('t')).toBe(0);
    shares.admit('t', 0);
    expect(() => shares.admit('t', 0)).toThrow(ProblemError);
  });

  describe('the rate of bytes (PROXY_MAX_BYTES_PER_SECOND)', () => {
    const clock = () => {
      let t = 0;
      return { now: () => t, advance: (ms: number) => (t += ms) };
    };
    // 16 MiB a second, 8 MiB of it a tenant's: a second's worth ahead of its clock is as far as a tenant may run
    const budget = (c: { now: () => number }) =>
      new TenantShareBudget({ maxInFlight: 64, maxInFlightBytes: 0, tenantSharePercent: 50, maxBytesPerSecond: 16 * MiB }, c.now);
    const answer = (shares: TenantShareBudget, tenant: string, bytes: number) => {
      const call = shares.admit(tenant, 0);
      call.hold(bytes);
      call.release();
    };

    it('refuses a tenant more than a second of bytes ahead of its rate, admits another tenant, and admits it again once its clock caught up', () => {
      const c = clock();
      const shares = budget(c);
      // 3 answers of 4 MiB: 12 MiB is 1.5 s at 8 MiB/s
      for (let i = 0; i < 3; i++) answer(shares, 'hog', 4 * MiB);
      expect(() => shares.admit('hog', 0)).toThrow(expect.objectContaining({ status: 503 }));
      answer(shares, 'victim', 4 * MiB);
      c.advance(400);
      expect(() => shares.admit('hog', 0)).toThrow(ProblemError);
      c.advance(200);
      // 0.9 s ahead now: admitted, and charged its last answer's size (4 MiB) at once
      const next = shares.admit('hog', 0);
      expect(() => shares.admit('hog', 0)).toThrow(ProblemError);
      next.release();
    });

    it("expects a tenant's first calls to bring the largest answer: a first burst is bounded by the rate, and small answers give it back", () => {
      const c = clock();
      const shares = new TenantShareBudget(
        { maxInFlight: 64, maxInFlightBytes: 0, tenantSharePercent: 50, maxBytesPerSecond: 16 * MiB, maxResponseBytes: 4 * MiB },
        c.now,
      );
      // 8 MiB/s: each first call is charged 4 MiB (0.5 s); a second ahead is as far as it may run
      const burst = [shares.admit('cold', 0), shares.admit('cold', 0), shares.admit('cold', 0)];
      expect(() => shares.admit('cold', 0)).toThrow(expect.objectContaining({ status: 503 }));
      // another tenant's first call is its own
      shares.admit('other', 0).release();
      // the answers were small: what was charged for them comes back, and the tenant runs at its share again
      burst.forEach((b) => b.hold(1024));
      burst.forEach((b) => b.release());
      const next = Array.from({ length: 10 }, () => shares.admit('cold', 0));
      next.forEach((n) => n.release());
    });

    it('bounds a steady stream of large answers to the rate, and never small ones below it', () => {
      const c = clock();
      const shares = budget(c);
      let served = 0;
      for (let ms = 0; ms < 10_000; ms += 10) {
        c.advance(10);
        try {
          answer(shares, 'big', 4 * MiB);
          served++;
        } catch {
          /* refused: over its rate */
        }
      }
      // 10 s at 8 MiB/s is 20 answers of 4 MiB, plus the second it may run ahead
      expect(served).toBeGreaterThanOrEqual(20);
      expect(served).toBeLessThanOrEqual(23);
      // a tenant of small answers below its rate (10 KiB every 10 ms: 1 MiB/s) is never refused
      let refused = 0;
      for (let ms = 0; ms < 10_000; ms += 10) {
        c.advance(10);
        try {
          answer(shares, 'small', 10 * 1024);
        } catch {
          refused++;
        }
      }
      expect(refused).toBe(0);
    });

    it('gives back what a call reserved when it ends without an answer', () => {
      const c = clock();
      const shares = budget(c);
      answer(shares, 't', 4 * MiB);
      // each call reserves 4 MiB (the last answer); five that time out must not leave 20 MiB charged
      for (let i = 0; i < 5; i++) shares.admit('t', 0).release();
      c.advance(501);
      expect(() => shares.admit('t', 0).release()).not.toThrow();
    });

    it('has no rate bound at 0', () => {
      const c = clock();
      const shares = new TenantShareBudget({ maxInFlight: 64, maxInFlightBytes: 0, tenantSharePercent: 50, maxBytesPerSecond: 0 }, c.now);
      for (let i = 0; i < 100; i++) answer(shares, 't', 4 * MiB);
    });
  });
});
