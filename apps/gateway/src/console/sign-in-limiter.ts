import type { Limit } from '../rate-limit/rate-limits';

/**
 * Console sign-in attempts per client address and per key (hash), in fixed windows: a sign-in is a key guess or a
 * session held in memory, so neither one address nor one key may make them at the rate the API allows calls. The
 * counters are dropped wholesale when their window ends, so they hold at most one window's attempts.
 */
export class SignInLimiter {
  private window = -1;
  private readonly attempts = new Map<string, number>();

  constructor(
    private readonly limit: Limit,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts an attempt of this address with this key: 0 when admitted, else the seconds until the next window. */
  admit(address: string, keyHash: string): number {
    const at = this.now();
    const window = Math.floor(at / this.limit.windowMs);
    if (window !== this.window) {
      this.window = window;
      this.attempts.clear();
    }
    const byAddress = this.count(`a:${address}`);
    const byKey = this.count(`k:${keyHash}`);
    if (byAddress <= this.limit.requests && byKey <= this.limit.requests) return 0;
    return Math.max(1, Math.ceil(((window + 1) * this.limit.windowMs - at) / 1000));
  }

  private count(key: string): number {
    const n = (this.attempts.get(key) ?? 0) + 1;
    this.attempts.set(key, n);
    return n;
  }
}
