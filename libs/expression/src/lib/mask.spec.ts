import { ExpressionError, evaluate, evaluateMask, renderToString, validateMask, validateTemplate } from '../index';

// docs/tokens.md, verbatim
const CARD_MASK = JSON.parse(
  '{"number":"{{ data.number | reveal_last: 4 }}","expiration_month":"{{ data.expiration_month }}","expiration_year":"{{ data.expiration_year }}"}',
);
const BANK_MASK = JSON.parse('{"routing_number":"{{ data.routing_number }}","account_number":"{{ data.account_number | reveal_last: 4 }}"}');
const REVEAL_LAST_4 = '{{ data | reveal_last: 4 }}';
const SSN_SEARCH_INDEXES = ['{{ data }}', "{{ data | remove: '-' }}", '{{ data | last4 }}'];
const DEFAULT_FINGERPRINT = '{{ data | stringify }}';

describe('default masks (docs/tokens.md)', () => {
  it('card', () => {
    expect(evaluateMask(CARD_MASK, { number: '4242424242424242', expiration_month: 12, expiration_year: 2030 })).toEqual({
      number: 'XXXXXXXXXXXX4242',
      expiration_month: 12,
      expiration_year: 2030,
    });
  });

  it('card: keys stay numbers, cvc is not in the mask, absent month is omitted', () => {
    const masked = evaluateMask(CARD_MASK, { number: '4242424242424242', expiration_year: 2030, cvc: '123' });
    expect(masked).toEqual({ number: 'XXXXXXXXXXXX4242', expiration_year: 2030 });
    expect(Object.keys(masked as object)).toEqual(['number', 'expiration_year']);
    expect(JSON.stringify(masked)).toBe('{"number":"XXXXXXXXXXXX4242","expiration_year":2030}');
  });

  it('bank', () => {
    expect(evaluateMask(BANK_MASK, { routing_number: '110000000', account_number: '000123456789' })).toEqual({
      routing_number: '110000000',
      account_number: 'XXXXXXXX6789',
    });
  });

  it.each([
    ['card_number', '4242424242424242', 'XXXXXXXXXXXX4242'],
    ['us_bank_routing_number', '110000000', 'XXXXX0000'],
    ['us_bank_account_number', '000123456789', 'XXXXXXXX6789'],
    ['social_security_number', '123-45-6789', 'XXX-XX-6789'],
    ['social_security_number (no dashes)', '123456789', 'XXXXX6789'],
    ['employer_id_number', '12-3456789', 'XX-XXX6789'],
  ])('%s', (_type, data, expected) => {
    expect(evaluateMask(REVEAL_LAST_4, data)).toBe(expected);
  });

  it('SSN / EIN search indexes', () => {
    expect(SSN_SEARCH_INDEXES.map((t) => renderToString(t, { data: '123-45-6789' }, 'data'))).toEqual(['123-45-6789', '123456789', '6789']);
    expect(SSN_SEARCH_INDEXES.map((t) => renderToString(t, { data: '12-3456789' }, 'data'))).toEqual(['12-3456789', '123456789', '6789']);
  });

  it('default fingerprint expression and alias id expression', () => {
    validateTemplate(DEFAULT_FINGERPRINT, 'data+metadata');
    expect(renderToString(DEFAULT_FINGERPRINT, { data: '123-45-6789', metadata: {} }, 'data+metadata')).toBe('"123-45-6789"');
    const id = evaluate('{{ data | alias_preserve_format: 0, 4 }}', { data: '4242424242424242' }, 'data');
    expect(id).toMatch(/^\d{12}4242$/);
  });

  it('every default mask validates', () => {
    expect(validateMask(CARD_MASK)).toEqual([]);
    expect(validateMask(BANK_MASK)).toEqual([]);
    expect(validateMask(REVEAL_LAST_4)).toEqual([]);
  });
});

describe('evaluateMask', () => {
  it('mirrors nested objects and arrays', () => {
    const mask = {
      holder: { name: '{{ data.holder.name | slice: 0, 1 }}.', country: 'literal' },
      cards: ['{{ data.cards[0] | last4 }}', '{{ data.cards[1] | last4 }}'],
      flag: true,
      count: 3,
      gone: null,
    };
    const data = { holder: { name: 'Ada', country: 'UK' }, cards: ['4242424242424242'], secret: 'x' };
    expect(evaluateMask(mask, data)).toEqual({
      holder: { name: 'A.', country: 'literal' },
      cards: ['4242', null],
      flag: true,
      count: 3,
    });
  });

  it('a whole-data mask and a null top-level result', () => {
    expect(evaluateMask('{{ data }}', { a: 1 })).toEqual({ a: 1 });
    expect(evaluateMask('{{ data.missing }}', { a: 1 })).toBeNull();
    expect(evaluateMask('{{ data | reveal_last: 4 }}', null)).toBeNull();
  });

  it('keeps a __proto__ key as data', () => {
    const mask = JSON.parse('{"__proto__":"{{ data.a }}"}');
    const out = evaluateMask(mask, { a: 'v' }) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  it('names the failing path and never the data', () => {
    try {
      evaluateMask({ a: { b: ['ok', '{{ data.x | to_number }}'] } }, { x: 'SECRET' });
      throw new Error('expected a failure');
    } catch (e) {
      expect(e).toBeInstanceOf(ExpressionError);
      expect((e as ExpressionError).message).toBe('mask.a.b[1]: filter "to_number": cannot convert the value to a number');
      expect((e as ExpressionError).message).not.toContain('SECRET');
    }
    expect(() => evaluateMask({ a: '{{ metadata.x }}' }, {})).toThrow('mask.a: unknown variable "metadata"');
  });

  it('bounds nesting', () => {
    let deep: unknown = '{{ data }}';
    for (let i = 0; i < 300; i++) deep = [deep];
    expect(() => evaluateMask(deep, 1)).toThrow(/nested too deeply/);
  });
});

describe('validateMask', () => {
  it('reports every invalid leaf with its path', () => {
    const problems = validateMask({
      number: '{{ data.number | reveal_last: 4 }}',
      month: '{{ metadata.month }}',
      list: ['{{ data | nope }}', 'fine', 7, null],
      'odd key': '{% include "x" %}',
      nested: { deeper: '{{ data.a | pad_left: "x" }}' },
    });
    expect(problems).toEqual([
      { path: 'mask.month', message: 'unknown variable "metadata"' },
      { path: 'mask.list[0]', message: 'unknown filter "nope"' },
      { path: 'mask["odd key"]', message: 'tag "include" is not allowed' },
      { path: 'mask.nested.deeper', message: 'filter "pad_left": first argument must be a non-negative integer' },
    ]);
  });

  it('flags non-JSON leaves and over-long templates', () => {
    expect(validateMask({ f: undefined })).toEqual([{ path: 'mask.f', message: 'unsupported mask value' }]);
    expect(validateMask({ t: `{{ data }}${' '.repeat(5000)}` })).toEqual([{ path: 'mask.t', message: 'template longer than 4096 characters' }]);
    expect(validateMask('{{ data | last4 }}')).toEqual([]);
    expect(validateMask(null)).toEqual([]);
  });
});
