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
});
