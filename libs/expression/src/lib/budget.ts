import { ExpressionError, RENDER_TIME_MESSAGE } from './errors';
import { LIMITS } from './limits';

/**
 * The CPU time one request may spend evaluating expressions, shared by every evaluation made for it (every leaf of
 * every mask, fingerprint, search index, alias and detokenization expression of every token in the request).
 *
 * Without it each template is bounded but their number is not: a mask with hundreds of leaves, or a page of a
 * hundred tokens, adds one template limit per leaf to the time the (single) event loop is blocked.
 *
 * Time is wall-clock time measured around evaluations (`performance.now()`); nothing else the request does is
 * charged. Not thread-safe and not meant to be shared between requests.
 */
export class ExpressionBudget {
  private spent = 0;

  /**
   * @param totalMs   what all evaluations of the request may spend together
   * @param templateMs what one liquidjs render may take (the effective limit of a render is the smaller of this and
   *                   what remains of the total)
   */
  constructor(
    readonly totalMs: number,
    readonly templateMs: number = LIMITS.renderTimeMs,
  ) {
    if (!(totalMs > 0) || !(templateMs > 0)) throw new RangeError('expression budgets must be positive');
  }

  /**
   * A budget for one call outside any request (tests, tools, callers that pass none): the call as a whole gets the
   * per-template limit, and running out of it is that limit's error (`limit_exceeded`), not `budget_exceeded`.
   */
  static single(templateMs: number = LIMITS.renderTimeMs): ExpressionBudget {
    const b = new ExpressionBudget(templateMs, templateMs);
    b.isStandalone = true;
    return b;
  }

  private isStandalone = false;

  /** Made by single(): there is no request whose budget could be blamed. */
  get standalone(): boolean {
    return this.isStandalone;
  }

  /** Milliseconds spent so far. */
  get spentMs(): number {
    return this.spent;
  }

  /** Milliseconds left (≤ 0 when spent). */
  get remainingMs(): number {
    return this.totalMs - this.spent;
  }

  get exhausted(): boolean {
    return this.spent >= this.totalMs;
  }

  /** Adds time spent outside a Meter (rarely needed: the library charges its own evaluations). */
  charge(ms: number): void {
    if (ms > 0) this.spent += ms;
  }

  /** Throws budget_exceeded when nothing is left. */
  assertLeft(): void {
    if (this.spent >= this.totalMs) throw budgetExceeded(this);
  }
}

export function budgetExceeded(budget: ExpressionBudget): ExpressionError {
  if (budget.standalone) return new ExpressionError(RENDER_TIME_MESSAGE, 'limit_exceeded');
  return new ExpressionError(`expressions took too long to evaluate (over the request's ${budget.totalMs} ms budget)`, 'budget_exceeded');
}

/** How many fast (compiled or constant) evaluations run between two clock reads. */
const FAST_CHECK_EVERY = 16;

/**
 * One metered stretch of evaluation (one mask, one template, one detokenized value): the clock is read when it
 * starts and ends and before each liquidjs render, and only every FAST_CHECK_EVERY fast evaluations in between, so
 * the compiled fast paths cost two clock reads per mask rather than two per leaf. A fast evaluation is linear in the
 * token's data (≤ 256 KiB), so the overrun between two checks stays small.
 */
export class Meter {
  private readonly start: number;
  private fastRuns = 0;
  private ended = false;

  constructor(readonly budget: ExpressionBudget) {
    budget.assertLeft();
    this.start = performance.now();
  }

  /** What remains of the request's budget now (ms). */
  private left(): number {
    return this.budget.remainingMs - (performance.now() - this.start);
  }

  /** The render limit for a liquidjs render starting now: min(per-template limit, what remains). */
  renderLimit(): { ms: number; byBudget: boolean } {
    const left = this.left();
    if (left <= 0) throw budgetExceeded(this.budget);
    return left < this.budget.templateMs ? { ms: left, byBudget: true } : { ms: this.budget.templateMs, byBudget: false };
  }

  /** Called after each fast evaluation. */
  fastRan(): void {
    if (++this.fastRuns % FAST_CHECK_EVERY === 0 && this.left() <= 0) throw budgetExceeded(this.budget);
  }

  /** Charges the time since the meter started; idempotent. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.budget.charge(performance.now() - this.start);
  }
}

/** Runs `fn` under a meter of `budget` (a single-template budget when none is given), charging it however fn ends. */
export function metered<T>(budget: ExpressionBudget | undefined, fn: (meter: Meter) => T): T {
  const meter = new Meter(budget ?? ExpressionBudget.single());
  try {
    return fn(meter);
  } finally {
    meter.end();
  }
}
