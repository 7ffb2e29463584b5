import { InFlightBudget, InFlightShares } from './in-flight-shares';

function fill(shares: InFlightShares, tenant: string, max = 1_000): Array<() => void> {
  const held: Array<() => void> = [];
  for (let i = 0; i < max; i++) {
    const release = shares.tryAcquire(tenant);
    if (!release) break;
    held.push(release);
  }
  return held;
}

describe('InFlightShares', () => {
  it('one tenant alone holds at most its share (50% of 64: 32), leaving the rest to the others', () => {
    const shares = new InFlightShares(64, 50);
    expect(fill(shares, 'noisy')).toHaveLength(32);
    // the second tenant, above its fair share (64 / 3), stops where the reserve (8) begins; a third gets the reserve
    expect(fill(shares, 'other')).toHaveLength(24);
    expect(fill(shares, 'victim')).toHaveLength(8);
    expect(shares.inFlight).toBe(64);
  });

  it('with no cap (100%), one tenant alone still leaves the reserve free for the next one', () => {
    const shares = new InFlightShares(64, 100);
    expect(fill(shares, 'noisy')).toHaveLength(56);
    expect(fill(shares, 'victim')).toHaveLength(8);
  });

  it('tenants filling the budget together still leave the reserve to a tenant below its fair share', () => {
    const shares = new InFlightShares(64, 50);
    // four tenants taking slots in turn
    for (let round = 0; round < 64; round++) for (const t of ['a', 'b', 'c', 'd']) shares.tryAcquire(t);
    // four tenants: fair share 64 / 5 = 12 each; above it they stop where only the reserve (8) is left
    expect(shares.inFlight).toBe(56);
    expect(fill(shares, 'victim')).toHaveLength(8);
    expect(shares.tryAcquire('a')).toBeNull();
  });

  it('a slot comes back once, when released (twice changes nothing)', () => {
    const shares = new InFlightShares(4, 100);
    const [first] = fill(shares, 't');
    expect(shares.inFlight).toBe(3);
    first();
    first();
    expect(shares.inFlight).toBe(2);
    expect(shares.heldBy('t')).toBe(2);
    expect(shares.tryAcquire('t')).not.toBeNull();
  });

  it('limit 0 admits everything', () => {
    const shares = new InFlightShares(0, 50);
    expect(fill(shares, 't', 500)).toHaveLength(500);
    expect(fill(new InFlightShares(1, 1), 't')).toHaveLength(1);
  });
});

describe('InFlightBudget', () => {
  it('admits up to its limit, 0 is no limit', () => {
    const budget = new InFlightBudget(2);
    const a = budget.tryAcquire();
    expect(budget.tryAcquire()).not.toBeNull();
    expect(budget.tryAcquire()).toBeNull();
    a?.();
    a?.();
    expect(budget.inFlight).toBe(1);
    expect(new InFlightBudget(0).tryAcquire()).not.toBeNull();
  });
});
