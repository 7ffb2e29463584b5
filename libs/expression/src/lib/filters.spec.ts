import fc from 'fast-check';
import { ExpressionError } from './errors';
import { checkCompiled, compile, run } from './engine';
import { ExpressionBudget, Meter } from './budget';
import { evaluate } from './expression';
import { JSONPath } from 'jsonpath-plus';
import { FILTERS } from './filters';

type Outcome = { value: unknown } | { error: string };

/** Evaluates on the compiled fast path (when there is one) and on liquidjs; both must agree. */
function both(template: string, data: unknown): Outcome {
  const c = compile(template);
  const attempt = (fast: boolean): Outcome => {
    try {
      checkCompiled(c, 'data');
      return { value: run(c, { data }, 'data', fast, new Meter(ExpressionBudget.single())) };
    } catch (e) {
      if (!(e instanceof ExpressionError)) throw e;
      return { error: e.message };
    }
  };
  const slow = attempt(false);
  const fast = attempt(true);
  expect(fast).toEqual(slow);
  return slow;
}

function value(template: string, data: unknown): unknown {
  const r = both(template, data);
  if ('error' in r) throw new Error(`unexpected error for ${template}: ${r.error}`);
  return r.value;
}

type Case = [template: string, data: unknown, expected: unknown];

function table(name: string, cases: Case[]): void {
  describe(name, () => {
    it.each(cases)('%s over %j', (template, data, expected) => {
      expect(value(template, data)).toEqual(expected);
    });
  });
}

function errors(name: string, cases: [template: string, data: unknown, message: RegExp][]): void {
  describe(`${name} errors`, () => {
    it.each(cases)('%s over %j', (template, data, message) => {
      const r = both(template, data);
      expect(r).toEqual({ error: expect.stringMatching(message) });
    });
  });
}

table('reveal', [
  ['{{ data | reveal }}', 'abcd', 'XXXX'],
  ['{{ data | reveal: 0, 4 }}', '4242424242424242', 'XXXXXXXXXXXX4242'],
  ['{{ data | reveal: 6, 4 }}', '4242424242424242', '424242XXXXXX4242'],
  ['{{ data | reveal: 2, 2 }}', 'abcdef', 'abXXef'],
  ['{{ data | reveal: 2, 2 }}', 'abcd', 'XXXX'],
  ['{{ data | reveal: 2, 2 }}', 'abc', 'XXX'],
  ['{{ data | reveal: 0, 4 }}', '', ''],
  ["{{ data | reveal: 1, 1, '#' }}", 'hello', 'h###o'],
  ["{{ data | reveal: 0, 4, 'X', '-' }}", '123-45-6789', 'XXX-XX-6789'],
  ["{{ data | reveal: 0, 4, '*', '- ' }}", '1234 5678-9012', '**** ****-9012'],
  ["{{ data | reveal: 1, 0, '*', '-' }}", '--', '--'],
  ['{{ data | reveal: 0, 2 }}', 123456, 'XXXX56'],
  ['{{ data | reveal: 1, 1 }}', 'héllo wörld', 'hXXXXXXXXXd'],
  ['{{ data | reveal: 1, 1 }}', 'a😀b😀c', 'aXXXc'],
  ["{{ data | reveal: 1, 1, '•' }}", 'a😀b😀c', 'a•••c'],
  ['{{ data.missing | reveal: 1, 1 }}', {}, null],
  ['{{ data | reveal }}', null, null],
]);
errors('reveal', [
  ['{{ data | reveal: -1 }}', 'abc', /reveal.*non-negative integer/],
  ["{{ data | reveal: 0, 0, 'XY' }}", 'abc', /reveal.*single character/],
  ["{{ data | reveal: 0, 0, '' }}", 'abc', /reveal.*single character/],
  ["{{ data | reveal: 'a' }}", 'abc', /reveal.*non-negative integer/],
  ['{{ data | reveal: 1, 2, "X", "-", 5 }}', 'abc', /reveal.*at most 4/],
  ['{{ data | reveal: 1.5 }}', 'abc', /reveal.*non-negative integer/],
  ['{{ data | reveal }}', { a: 1 }, /reveal.*string or a number/],
  ['{{ data | reveal: first: 1 }}', 'abc', /reveal.*positional/],
]);

table('reveal_last', [
  ['{{ data | reveal_last: 4 }}', '4242424242424242', 'XXXXXXXXXXXX4242'],
  ['{{ data | reveal_last: 4 }}', '123-45-6789', 'XXX-XX-6789'],
  ['{{ data | reveal_last: 4 }}', '12-3456789', 'XX-XXX6789'],
  ['{{ data | reveal_last: 4 }}', '1234-5678-9012-3456', 'XXXX-XXXX-XXXX-3456'],
  ['{{ data | reveal_last: 4 }}', '1234', 'XXXX'],
  ['{{ data | reveal_last: 4 }}', '12', 'XX'],
  ['{{ data | reveal_last: 4 }}', '', ''],
  ["{{ data | reveal_last: 4, '*' }}", '4242424242424242', '************4242'],
  ['{{ data | reveal_last: 0 }}', 'abc', 'XXX'],
  ['{{ data | reveal_last: 2 }}', 12345, 'XXX45'],
  ['{{ data | reveal_last: 4 }}', 'äöüß1234', 'XXXX1234'],
  ['{{ data | reveal_last: 4 }}', null, null],
  ['{{ data.number | reveal_last: 4 }}', { number: '4242424242424242' }, 'XXXXXXXXXXXX4242'],
]);
errors('reveal_last', [
  ['{{ data | reveal_last }}', 'abc', /reveal_last.*required/],
  ["{{ data | reveal_last: 4, 'ab' }}", 'abc', /reveal_last.*single character/],
  ['{{ data | reveal_last: 100000 }}', 'abc', /reveal_last.*at most/],
  ['{{ data | reveal_last: 4 }}', [1, 2], /reveal_last.*string or a number/],
]);

table('last4', [
  ['{{ data | last4 }}', '4242424242424242', '4242'],
  ['{{ data | last4 }}', '123-45-6789', '6789'],
  ['{{ data | last4 }}', '123', '123'],
  ['{{ data | last4 }}', '', ''],
  ['{{ data | last4 }}', 123456, '3456'],
  ['{{ data | last4 }}', '12€45€', '€45€'],
  ['{{ data | last4 }}', 'ab😀cd😀', '😀cd😀'],
  ['{{ data | last4 }}', null, null],
]);
errors('last4', [['{{ data | last4: 2 }}', 'abc', /last4.*at most 0/]]);

table('pad_left / pad_right', [
  ["{{ data | pad_left: 5, '0' }}", '42', '00042'],
  ["{{ data | pad_left: 5, '0' }}", '123456', '123456'],
  ['{{ data | pad_left: 5 }}', '42', '   42'],
  ["{{ data | pad_right: 5, '*' }}", '42', '42***'],
  ['{{ data | pad_right: 3 }}', 'abcd', 'abcd'],
  ["{{ data | pad_left: 3, '0' }}", 7, '007'],
  ["{{ data | pad_left: 2, 'x' }}", '', 'xx'],
  ["{{ data | pad_left: 3, '·' }}", 'é', '··é'],
  ["{{ data | pad_left: 3, '😀' }}", '😀', '😀😀😀'],
  ["{{ data | pad_right: 0, '0' }}", 'a', 'a'],
  ["{{ data | pad_left: 5, '0' }}", null, null],
]);
errors('pad', [
  ['{{ data | pad_left }}', 'abc', /pad_left.*required/],
  ["{{ data | pad_left: 3, 'ab' }}", 'abc', /pad_left.*single character/],
  ['{{ data | pad_right: 100000 }}', 'abc', /pad_right.*at most/],
  ["{{ data | pad_right: '5' }}", 'abc', /pad_right.*non-negative integer/],
]);

table('card_bin', [
  ['{{ data | card_bin }}', '4242424242424242', '42424242'],
  ['{{ data | card_bin }}', '378282246310005', '378282'],
  ['{{ data | card_bin }}', '4111111111111', '411111'],
  ['{{ data | card_bin }}', '4242 4242 4242 4242', '42424242'],
  ['{{ data | card_bin }}', 4242424242424242, '42424242'],
  ['{{ data | card_bin }}', '4242424242424242424', '42424242'],
  ['{{ data | card_bin }}', '', ''],
  ['{{ data | card_bin }}', null, null],
]);

table('stringify', [
  ['{{ data | stringify }}', { b: 1, a: [1, 'x', { d: null, c: true }] }, '{"a":[1,"x",{"c":true,"d":null}],"b":1}'],
  ['{{ data | stringify }}', 'abc', '"abc"'],
  ['{{ data | stringify }}', 5, '5'],
  ['{{ data | stringify }}', true, 'true'],
  ['{{ data | stringify }}', '', '""'],
  ['{{ data | stringify }}', 'ü"\n', '"ü\\"\\n"'],
  ['{{ data | stringify }}', null, null],
  ['{{ data.missing | stringify }}', {}, null],
]);

const card = { number: '4242424242424242', expiration_month: 12, nested: { a: [1, 2, { b: 'x' }] }, list: [{ a: 1 }, { a: 2 }] };
table('json', [
  ["{{ data | json: '$.number' }}", card, '4242424242424242'],
  ["{{ data | json: '$.expiration_month' }}", card, 12],
  ['{{ data | json: "$.nested.a[2].b" }}', card, 'x'],
  ["{{ data | json: '$.nested' }}", card, { a: [1, 2, { b: 'x' }] }],
  ["{{ data | json: '$.missing' }}", card, null],
  ["{{ data | json: '$[1]' }}", ['a', 'b'], 'b'],
  ["{{ data | json: '$' }}", 'plain', 'plain'],
  ["{{ data | json: '$.list[1].a' }}", card, 2],
  ['{{ data | json }}', { b: 1, a: 2 }, '{"a":2,"b":1}'],
  ["{{ data | json: '$.number' | last4 }}", card, '4242'],
  ["{{ data | json: '$.a' }}", null, null],
]);
errors('json', [
  ["{{ data | json: '$.list[*].a' }}", card, /json.*several values/],
  ["{{ data | json: '$..a' }}", card, /json.*several values/],
  ["{{ data | json: '$[?(@.a==1)]' }}", [{ a: 1 }], /json.*script expressions are disabled/],
  ["{{ data | json: '' }}", card, /json.*non-empty string/],
  ['{{ data | json: 5 }}', card, /json.*must be a string/],
]);

table('to_number', [
  ['{{ data | to_number }}', '42', 42],
  ['{{ data | to_number }}', ' -3.5 ', -3.5],
  ['{{ data | to_number }}', '1e3', 1000],
  ['{{ data | to_number }}', '.5', 0.5],
  ['{{ data | to_number }}', 7, 7],
  ['{{ data | to_number }}', null, null],
]);
errors('to_number', [
  ['{{ data | to_number }}', 'abc', /to_number.*cannot convert/],
  ['{{ data | to_number }}', '', /to_number.*cannot convert/],
  ['{{ data | to_number }}', '0x10', /to_number.*cannot convert/],
  ['{{ data | to_number }}', 'Infinity', /to_number.*cannot convert/],
  ['{{ data | to_number }}', '1e999', /to_number.*cannot convert/],
  ['{{ data | to_number }}', true, /to_number.*cannot convert/],
  ['{{ data | to_number }}', { a: 1 }, /to_number.*cannot convert/],
]);

table('to_boolean', [
  ['{{ data | to_boolean }}', 'true', true],
  ['{{ data | to_boolean }}', ' FALSE ', false],
  ['{{ data | to_boolean }}', '1', true],
  ['{{ data | to_boolean }}', '0', false],
  ['{{ data | to_boolean }}', 1, true],
  ['{{ data | to_boolean }}', 0, false],
  ['{{ data | to_boolean }}', false, false],
  ['{{ data | to_boolean }}', null, null],
]);
errors('to_boolean', [
  ['{{ data | to_boolean }}', 'yes', /to_boolean.*cannot convert/],
  ['{{ data | to_boolean }}', 2, /to_boolean.*cannot convert/],
  ['{{ data | to_boolean }}', '', /to_boolean.*cannot convert/],
  ['{{ data | to_boolean }}', [true], /to_boolean.*cannot convert/],
]);

table('to_string', [
  ['{{ data | to_string }}', 42, '42'],
  ['{{ data | to_string }}', true, 'true'],
  ['{{ data | to_string }}', 'x', 'x'],
  ['{{ data | to_string }}', { a: 1 }, '{"a":1}'],
  ['{{ data | to_string }}', [1, 'a'], '[1,"a"]'],
  ['{{ data | to_string }}', null, null],
]);

table('standard Liquid filters', [
  ["{{ data | remove: '-' }}", '123-45-6789', '123456789'],
  ["{{ data | replace: '-', ' ' }}", '123-45-6789', '123 45 6789'],
  ['{{ data | upcase }}', 'abc', 'ABC'],
  ['{{ data | downcase }}', 'ÄBC', 'äbc'],
  ['{{ data | strip }}', '  a  ', 'a'],
  ['{{ data | capitalize }}', 'hELLO', 'Hello'],
  ['{{ data | slice: 0, 6 }}', '4242424242424242', '424242'],
  ['{{ data | size }}', 'abcd', 4],
  ['{{ data | split: "-" | first }}', '123-45-6789', '123'],
  ["{{ data | remove: '-' | reveal_last: 4 }}", '123-45-6789', 'XXXXX6789'],
  ["{{ data | append: '!' }}", 'a', 'a!'],
  ["{{ data | default: 'none' }}", null, 'none'],
  ['{{ data | upcase }}', 42, '42'],
]);

table('property access', [
  ['{{ data }}', { a: 1 }, { a: 1 }],
  ['{{ data.a.b.c }}', { a: { b: { c: 'deep' } } }, 'deep'],
  ['{{ data.a.b.c }}', { a: 1 }, null],
  ['{{ data.a.b }}', { a: null }, null],
  ['{{ data[0] }}', ['x', 'y'], 'x'],
  ['{{ data.0 }}', ['x', 'y'], 'x'],
  ['{{ data[-1] }}', ['x', 'y'], 'y'],
  ['{{ data["a b"] }}', { 'a b': 1 }, 1],
  ['{{ data.size }}', ['x', 'y'], 2],
  ['{{ data.first }}', ['x', 'y'], 'x'],
  ['{{ data.last }}', ['x', 'y'], 'y'],
  ['{{ data.length }}', 'abc', 3],
  ['{{ data[1] }}', 'abc', 'b'],
  ['{{ data.constructor }}', {}, null],
  ['{{ data.__proto__ }}', {}, null],
  ['{{ data.toString }}', {}, null],
  ['{{ data.x }}', 5, null],
]);

describe('alias filters', () => {
  const classOf = (c: string): string => (/[0-9]/.test(c) ? 'd' : /[a-z]/.test(c) ? 'l' : /[A-Z]/.test(c) ? 'u' : c);
  const alnumCount = (s: string): number => s.replace(/[^A-Za-z0-9]/g, '').length;

  it('alias_preserve_format keeps classes, separators and the requested first/last characters', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'0123456789abcxyzABCXYZ-_ ./'.split('')), minLength: 0, maxLength: 40 }),
        fc.nat(5),
        fc.nat(5),
        (s, first, last) => {
          const out = evaluate(`{{ data | alias_preserve_format: ${first}, ${last} }}`, { data: s }) as string;
          expect(out).toHaveLength(s.length);
          expect([...out].map(classOf)).toEqual([...s].map(classOf));
          const alnum = s.replace(/[^A-Za-z0-9]/g, '');
          const outAlnum = out.replace(/[^A-Za-z0-9]/g, '');
          if (alnum.length > first + last) {
            expect(outAlnum.slice(0, first)).toBe(alnum.slice(0, first));
            expect(outAlnum.slice(outAlnum.length - last)).toBe(alnum.slice(alnum.length - last));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('alias_preserve_format examples', () => {
    const out = evaluate('{{ data | alias_preserve_format: 0, 4 }}', { data: '4242-4242-4242-4242' }) as string;
    expect(out).toMatch(/^\d{4}-\d{4}-\d{4}-4242$/);
    const ssn = evaluate('{{ data | alias_preserve_format: 0, 4 }}', { data: '123-45-6789' }) as string;
    expect(ssn).toMatch(/^\d{3}-\d{2}-6789$/);
    const mixed = evaluate('{{ data | alias_preserve_format: 1 }}', { data: 'Ab9_z' }) as string;
    expect(mixed).toMatch(/^A[a-z]\d_[a-z]$/);
    // non-ASCII letters become ASCII letters of the same case, other characters are separators
    const intl = evaluate('{{ data | alias_preserve_format }}', { data: 'Éé-٣' }) as string;
    expect(intl).toMatch(/^[A-Z][a-z]-[0-9]$/);
    expect(evaluate('{{ data | alias_preserve_format: 0, 4 }}', { data: 4242424242 })).toMatch(/^\d{6}4242$/);
    expect(evaluate('{{ data | alias_preserve_format: 2, 2 }}', { data: '' })).toBe('');
    expect(evaluate('{{ data.x | alias_preserve_format }}', { data: {} })).toBeNull();
  });

  it('alias_preserve_length keeps the length and the requested first/last characters', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.nat(5), fc.nat(5), (s, first, last) => {
        const out = evaluate(`{{ data | alias_preserve_length: ${first}, ${last} }}`, { data: s }) as string;
        const inChars = [...s];
        const outChars = [...out];
        expect(outChars).toHaveLength(inChars.length);
        if (inChars.length > first + last) {
          expect(outChars.slice(0, first)).toEqual(inChars.slice(0, first));
          expect(outChars.slice(outChars.length - last)).toEqual(inChars.slice(inChars.length - last));
          expect(outChars.slice(first, outChars.length - last).join('')).toMatch(/^[A-Za-z0-9]*$/);
        } else {
          expect(out).toMatch(/^[A-Za-z0-9]*$/);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('aliases are random: two calls differ', () => {
    const data = '4242424242424242';
    for (const f of ['alias_preserve_format', 'alias_preserve_length']) {
      const a = evaluate(`{{ data | ${f}: 0, 4 }}`, { data });
      const b = evaluate(`{{ data | ${f}: 0, 4 }}`, { data });
      expect(a).not.toBe(b);
      expect(a).not.toBe(data);
      expect(alnumCount(a as string)).toBe(16);
    }
  });
});

describe('masking properties', () => {
  const cps = (s: string): number => [...s].length;

  it('reveal preserves length (code points) and shows only the requested ends', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30, unit: 'grapheme-ascii' }), fc.nat(6), fc.nat(6), (s, first, last) => {
        const r = both(`{{ data | reveal: ${first}, ${last} }}`, s);
        if ('error' in r) throw new Error(r.error);
        const out = r.value as string;
        expect(cps(out)).toBe(cps(s));
        if (s.length > first + last) {
          expect(out).toBe(s.slice(0, first) + 'X'.repeat(s.length - first - last) + s.slice(s.length - last));
        } else {
          expect(out).toBe('X'.repeat(s.length));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reveal with preserve_chars and any unicode preserves length', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30, unit: 'binary' }), fc.nat(6), fc.nat(6), (s, first, last) => {
        const r = both(`{{ data | reveal: ${first}, ${last}, '*', '- ' }}`, s);
        if ('error' in r) throw new Error(r.error);
        expect(cps(r.value as string)).toBe(cps(s));
      }),
      { numRuns: 300 },
    );
  });

  it('reveal_last preserves length, dashes and the last n characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789-'.split('')), maxLength: 24 }), fc.nat(8), (s, n) => {
        const out = value(`{{ data | reveal_last: ${n} }}`, s) as string;
        expect(out).toHaveLength(s.length);
        expect(out.replace(/[^-]/g, '')).toBe(s.replace(/[^-]/g, ''));
        [...s].forEach((c, i) => {
          if (c === '-') expect(out[i]).toBe('-');
        });
        const digits = s.replace(/-/g, '');
        const outDigits = out.replace(/-/g, '');
        if (digits.length > n) {
          expect(outDigits.slice(digits.length - n)).toBe(digits.slice(digits.length - n));
          expect(outDigits.slice(0, digits.length - n)).toBe('X'.repeat(digits.length - n));
        } else {
          expect(outDigits).toBe('X'.repeat(digits.length));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('json filter: memory', () => {
  it("keeps jsonpath-plus's parsed-path cache bounded however many distinct paths tenants use", () => {
    const json = FILTERS['json'];
    if (!json) throw new Error('no json filter');
    for (let i = 0; i < 2500; i++) expect(json.fn({ [`k${i}`]: i }, [`$.k${i}`])).toBe(i);
    expect(Object.keys(JSONPath.cache).length).toBeLessThanOrEqual(1000);
  });
});
