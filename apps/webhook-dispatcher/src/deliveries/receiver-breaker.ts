/** What a receiver's breaker allows now: an attempt, waiting for the running probe, or deferring the delivery. */
export type Admission = 'run' | 'wait' | 'defer';

/** Receivers remembered at most (those failing now); the oldest is forgotten first, i.e. closed again. */
const MAX_TRACKED = 10_000;

/**
 * One circuit breaker per receiver (docs/events.md, "Fair delivery"): after `threshold` consecutive attempts that
 * found it unavailable (no answer in time, 408, 429 or 5xx) the receiver is left alone for `cooldownMs`: its
 * deliveries are deferred to the end of the cool-down without an attempt (none of their attempts is used up). Then
 * one attempt at a time probes it: an answer closes the breaker, another failure opens it for a further cool-down.
 * Per process: a replica learns on its own.
 */
export class ReceiverBreakers {
  private readonly failing = new Map<string, { failures: number; openUntil: number }>();

  constructor(
    private readonly threshold: number,
    private readonly cooldownMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** `running`: the receiver's attempts under way in this process. */
  admit(receiver: string, running: number): Admission {
    const s = this.failing.get(receiver);
    if (!s || s.failures < this.threshold) return 'run';
    if (this.now() < s.openUntil) return 'defer';
    return running === 0 ? 'run' : 'wait';
  }

  /** How long until the receiver may be tried again (0: now). */
  retryInMs(receiver: string): number {
    const s = this.failing.get(receiver);
    return s && s.failures >= this.threshold ? Math.max(0, s.openUntil - this.now()) : 0;
  }

  /** An attempt's outcome: `unavailable` when it got no answer in time, 408, 429 or a 5xx. */
  record(receiver: string, unavailable: boolean): void {
    if (!unavailable) {
      this.failing.delete(receiver);
      return;
    }
    const s = this.failing.get(receiver) ?? { failures: 0, openUntil: 0 };
    s.failures++;
    if (s.failures >= this.threshold) s.openUntil = this.now() + this.cooldownMs;
    this.failing.delete(receiver); // the most recently failing last: the first forgotten is the one quiet longest
    this.failing.set(receiver, s);
    if (this.failing.size > MAX_TRACKED) this.failing.delete(this.failing.keys().next().value as string);
  }
}

/** Whether an attempt's outcome says the receiver is unavailable (rather than refusing this one delivery). */
export function receiverUnavailable(statusCode: number | undefined): boolean {
  return statusCode === undefined || statusCode === 408 || statusCode === 429 || statusCode >= 500;
}
