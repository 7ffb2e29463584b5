import { ExpressionBudget } from './budget';
import { ExpressionError } from './errors';
import { evaluate, renderToString } from './expression';
import { evaluateMask } from './mask';
import { substituteDetokenization } from './detokenization';

function errorOf(fn: () => unknown): ExpressionError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ExpressionError) return e;
    throw e;
  }
  throw new Error('expected an ExpressionError');
}

/** A few ms of liquidjs work: allowed alone, too slow two hundred times over. */
const SLOW = '{% for i in (1..5000) %}{% endfor %}';
/** Never ends by itself: only a time limit stops it (its ranges stay under the memory limit). */
const ENDLESS = '{% for i in (1..100000) %}{% for j in (1..100000) %}{% endfor %}{% endfor %}';

function elapsed(fn: () => unknown): number {
  const t0 = performance.now();
  try {
    fn();
  } catch {
    /* measured either way */
  }
  return performance.now() - t0;
}

describe('ExpressionBudget', () => {
  it('is shared by every leaf of a mask: many individually allowed leaves exhaust it, quickly', () => {
    const budget = new ExpressionBudget(100, 1000);
    const mask = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, SLOW]));
    let err: ExpressionError | undefined;
    const ms = elapsed(() => {
      err = errorOf(() => evaluateMask(mask, {}, budget));
    });
    expect(err?.code).toBe('budget_exceeded');
    expect(err?.message).toMatch(/^mask\.k\d+: expressions took too long to evaluate \(over the request's 100 ms budget\)$/);
    // the budget and a little (room for a loaded CI machine), not 200 templates' worth
    expect(ms).toBeLessThan(100 + 400);
    expect(budget.exhausted).toBe(true);
  });

  it('is shared across calls: masks, templates and detokenization of one request', () => {
    const budget = new ExpressionBudget(60, 1000);
    const spent: number[] = [];
    for (let i = 0; i < 50 && !budget.exhausted; i++) {
      try {
        evaluate(SLOW, { data: 1 }, 'data', budget);
      } catch (e) {
        expect((e as ExpressionError).code).toBe('budget_exceeded');
      }
      spent.push(budget.spentMs);
    }
    expect(budget.exhausted).toBe(true);
    expect(spent.length).toBeLessThan(50);
    expect(errorOf(() => renderToString('{{ data }}', { data: 1 }, 'data', budget)).code).toBe('budget_exceeded');
    expect(errorOf(() => evaluateMask({ a: '{{ data.a }}' }, { a: 1 }, budget)).code).toBe('budget_exceeded');
    expect(errorOf(() => substituteDetokenization({ x: '{{ tok_1 | upcase }}' }, () => 'v', budget)).code).toBe('budget_exceeded');
  });

  it('charges the fast paths (constants and compiled closures) too, so a spent budget stops them', () => {
    const budget = new ExpressionBudget(5, 5);
    const big = { s: 'x'.repeat(200_000) };
    // compiled closures over large data: each is linear in the data, none renders through liquidjs
    const mask = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, '{{ data.s | reveal_last: 4 }}']));
    const err = errorOf(() => evaluateMask(mask, big, budget));
    expect(err.code).toBe('budget_exceeded');
    expect(budget.spentMs).toBeGreaterThan(0);
    expect(errorOf(() => evaluate('constant text', { data: 1 }, 'data', budget)).code).toBe('budget_exceeded');
  });

  it('keeps fast paths cheap and results unchanged', () => {
    const budget = new ExpressionBudget(5000, 50);
    const mask = { number: '{{ data.number | reveal_last: 4 }}', expiration_month: '{{ data.expiration_month }}', brand: 'visa' };
    const card = { number: '4242424242424242', expiration_month: 12 };
    for (let i = 0; i < 1000; i++) expect(evaluateMask(mask, card, budget)).toEqual({ number: 'XXXXXXXXXXXX4242', expiration_month: 12, brand: 'visa' });
    expect(budget.exhausted).toBe(false);
    expect(budget.spentMs).toBeLessThan(5000);
  });

  it('limits one render to the smaller of the template limit and what remains', () => {
    // the template limit, when the budget is large
    const roomy = new ExpressionBudget(5000, 10);
    let err: ExpressionError | undefined;
    let ms = elapsed(() => {
      err = errorOf(() => evaluate(ENDLESS, { data: 1 }, 'data', roomy));
    });
    expect(err?.code).toBe('limit_exceeded');
    expect(err?.message).toBe('render time limit exceeded (the expression took too long)');
    expect(ms).toBeLessThan(10 + 400);
    // what remains, when that is smaller: the budget's error
    const tight = new ExpressionBudget(20, 1000);
    ms = elapsed(() => {
      err = errorOf(() => evaluate(ENDLESS, { data: 1 }, 'data', tight));
    });
    expect(err?.code).toBe('budget_exceeded');
    expect(ms).toBeLessThan(20 + 400);
  });

  it('without a budget, bounds one call by the template limit (the old behaviour for a single template)', () => {
    const err = errorOf(() => evaluate(ENDLESS, { data: 1 }));
    expect(err.code).toBe('limit_exceeded');
    const ms = elapsed(() => evaluateMask(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, SLOW])), {}));
    expect(ms).toBeLessThan(50 + 400);
  });

  it('refuses non-positive limits', () => {
    expect(() => new ExpressionBudget(0)).toThrow(RangeError);
    expect(() => new ExpressionBudget(10, -1)).toThrow(RangeError);
  });
});
