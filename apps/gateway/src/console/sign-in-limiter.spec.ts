import { SignInLimiter } from './sign-in-limiter';

describe('SignInLimiter', () => {
  let now = 0;
  const limiter = () => new SignInLimiter({ requests: 3, windowMs: 60_000 }, () => now);
  beforeEach(() => {
    now = 120_000;
  });

  it('admits N attempts per address in a window, then says how long to wait', () => {
    const l = limiter();
    expect([1, 2, 3].map((i) => l.admit('10.0.0.1', `key-${i}`))).toEqual([0, 0, 0]);
    now += 15_000;
    expect(l.admit('10.0.0.1', 'key-4')).toBe(45);
    expect(l.admit('10.0.0.2', 'key-5')).toBe(0);
    now += 45_000;
    expect(l.admit('10.0.0.1', 'key-6')).toBe(0);
  });

  it('admits N attempts per key whatever the address (a key guessed from many addresses)', () => {
    const l = limiter();
    expect(['a', 'b', 'c'].map((a) => l.admit(a, 'same'))).toEqual([0, 0, 0]);
    expect(l.admit('d', 'same')).toBeGreaterThan(0);
    expect(l.admit('d', 'other')).toBe(0);
  });
});
