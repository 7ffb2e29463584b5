import { ProblemError, type FormulaRequestParameter } from '@coffer/contracts';
import { applyArgumentRules, castArgument } from './arguments';

const p = (name: string, type: FormulaRequestParameter['type'], optional = false): FormulaRequestParameter => ({ name, type, optional });

function errorsOf(fn: () => unknown): Record<string, string[]> {
  try {
    fn();
  } catch (err) {
    if (err instanceof ProblemError) {
      expect(err.status).toBe(400);
      return err.problem.errors ?? {};
    }
    throw err;
  }
  throw new Error('expected a 400');
}

describe('castArgument (docs/reactors.md)', () => {
  it.each([
    ['number', '42', 42],
    ['number', ' -1.5e2 ', -150],
    ['number', 7, 7],
    ['boolean', 'TRUE', true],
    ['boolean', 'false', false],
    ['boolean', '1', true],
    ['boolean', 0, false],
    ['boolean', true, true],
    ['string', 12, '12'],
    ['string', false, 'false'],
    ['string', 'x', 'x'],
  ] as const)('%s from %j', (type, value, expected) => {
    expect(castArgument(value, type)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['number', 'abc'],
    ['number', ''],
    ['number', true],
    ['number', { a: 1 }],
    ['boolean', 'yes'],
    ['boolean', 2],
    ['boolean', [true]],
    ['string', { a: 1 }],
    ['string', ['a']],
  ] as const)('%s refuses %j', (type, value) => {
    expect(castArgument(value, type)).toEqual({ ok: false });
  });
});

describe('applyArgumentRules', () => {
  it('rule 1: keeps any args when nothing is declared', () => {
    const args = { a: { b: [1, 2] }, c: 'x' };
    expect(applyArgumentRules(args, [])).toBe(args);
  });

  it('rules 2 and 6: matches by exact dot path and strips undeclared properties at every depth', () => {
    const out = applyArgumentRules({ card: { number: '4242', cvc: '123', extra: 1 }, Card: { number: 'x' }, other: true, meta: { deep: { other: 1 }, x: 2 } }, [
      p('card.number', 'string'),
      p('meta.deep.keep', 'string', true),
    ]);
    expect(out).toEqual({ card: { number: '4242' }, meta: { deep: {} } });
  });

  it('keeps the value of a declared parameter whole and omits absent optional ones', () => {
    expect(applyArgumentRules({ a: 1 }, [p('a', 'number'), p('b.c', 'string', true)])).toEqual({ a: 1 });
  });

  it('rule 3: every missing required parameter is named, null counts as missing', () => {
    const errors = errorsOf(() => applyArgumentRules({ b: null }, [p('a', 'string'), p('b', 'number'), p('c.d', 'boolean'), p('e', 'string', true)]));
    expect(Object.keys(errors).sort()).toEqual(['args.a', 'args.b', 'args.c.d']);
  });

  it('rule 4: casts, or refuses what cannot be cast', () => {
    expect(applyArgumentRules({ n: '10', b: 'False', s: 5 }, [p('n', 'number'), p('b', 'boolean'), p('s', 'string')])).toEqual({ n: 10, b: false, s: '5' });
    const errors = errorsOf(() => applyArgumentRules({ n: 'ten', s: { x: 1 } }, [p('n', 'number'), p('s', 'string')]));
    expect(Object.keys(errors).sort()).toEqual(['args.n', 'args.s']);
  });

  it('a non-object on the path to a declared parameter is refused', () => {
    const errors = errorsOf(() => applyArgumentRules({ card: 'x' }, [p('card.number', 'string', true)]));
    expect(errors).toEqual({ 'args.card': ['must be an object'] });
  });

  it('never re-prototypes the output', () => {
    const args = JSON.parse('{"a": {"__proto__": {"polluted": true}, "b": "1"}}');
    const out = applyArgumentRules(args, [p('a.b', 'number')]) as { a: Record<string, unknown> };
    expect(out).toEqual({ a: { b: 1 } });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
