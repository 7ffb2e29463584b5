import { ExpressionError, detokenizationExpressionsOf, findDetokenizationExpressions, isValidTokenId, substituteDetokenization } from '../index';

const UUID = '6f1c1c7e-6a5b-4d8f-9a63-2d1a4f1c9a11';
const CARD = { number: '4242424242424242', expiration_month: 12, expiration_year: 2030 };
const TOKENS: Record<string, unknown> = {
  [UUID]: CARD,
  tok_ssn: '123-45-6789',
  'alias:4242': 4242,
  flag_tok: true,
  nul_tok: null,
  list_tok: ['a', { b: 1 }],
};
const lookup = (id: string): unknown => {
  if (!(id in TOKENS)) throw new Error(`no token ${id}`);
  return TOKENS[id];
};

describe('isValidTokenId', () => {
  it.each([
    [UUID, true],
    ['abc', true],
    ['tok_123.card-1:x*y(z),~!@$', true],
    ['a'.repeat(400), true],
    ['ab', false],
    ['a'.repeat(401), false],
    ['has space', false],
    ['tab\tid', false],
    ...'#/\\+?[]|&=%<>{}^\'"'.split('').map((c) => [`abc${c}def`, false] as [string, boolean]),
    ['ctl\u0001id', false],
    ['', false],
  ])('%j -> %s', (id, ok) => {
    expect(isValidTokenId(id)).toBe(ok);
  });
});

describe('findDetokenizationExpressions', () => {
  it('finds ids anywhere in a JSON value, distinct, in order of first appearance', () => {
    const value = {
      card: `{{ ${UUID} }}`,
      args: ['x', 1, null, true, { deep: ['{{tok_ssn}} and {{ flag_tok | to_string }}'] }],
      again: `{{ ${UUID} | json: '$.number' }}`,
      '{{ not_a_key_search }}': 'plain',
      alias: '{{ alias:4242 }}',
    };
    expect(findDetokenizationExpressions(value)).toEqual([UUID, 'tok_ssn', 'flag_tok', 'alias:4242']);
  });

  it('returns nothing for values without expressions', () => {
    expect(findDetokenizationExpressions({ a: 'plain', b: [1, 2], c: 'a {{ not closed', d: 'x }} y' })).toEqual([]);
    expect(findDetokenizationExpressions(42)).toEqual([]);
    expect(findDetokenizationExpressions(null)).toEqual([]);
    expect(findDetokenizationExpressions('{% if x %}')).toEqual([]);
  });

  it.each([
    ['{{ }}', 'empty detokenization expression'],
    ['{{ ab }}', 'invalid token id in detokenization expression'],
    ['{{ a b c }}', 'invalid token id in detokenization expression'],
    ['{{ tok#1 }}', 'invalid token id in detokenization expression'],
    ["{{ tok' }}", 'invalid token id in detokenization expression'],
    ['{{ {{ tok_ssn }}', 'invalid token id in detokenization expression'],
    ['{{ tok_ssn | }}', 'malformed detokenization expression'],
    ['{{ tok_ssn | nope }}', 'unknown filter "nope"'],
    ['{{ tok_ssn | json: other }}', 'filter "json": arguments of detokenization expressions must be literals'],
    ['{{ tok_ssn | append: data }}', 'filter "append": arguments of detokenization expressions must be literals'],
    ['{{ tok_ssn | json: k: 1 }}', 'filter "json": takes positional arguments only'],
    ["{{ tok_ssn | append: '{%' }}", 'malformed detokenization expression'],
    ['{{ tok_ssn | upcase data }}', 'malformed detokenization expression'],
    ["{{ tok_ssn | append: 'SECRET }}", 'malformed detokenization expression'],
    ['{{ tok_ssn | reveal_last: "x" }}', 'filter "reveal_last": first argument must be a non-negative integer'],
  ])('rejects %j', (text, message) => {
    try {
      findDetokenizationExpressions({ a: [text] });
      throw new Error('expected a failure');
    } catch (e) {
      expect(e).toBeInstanceOf(ExpressionError);
      expect((e as Error).message.startsWith(message)).toBe(true);
    }
  });

  it('never pastes the id into Liquid (template injection through an id is impossible)', () => {
    // ids cannot contain `}`, `%`, `|`, quotes or spaces; the filter part is checked to be filters on `data` only
    expect(() => findDetokenizationExpressions('{{ x}}{%raw%} }}')).toThrow(ExpressionError);
    expect(() => findDetokenizationExpressions('{{ abc | upcase }}{% for i in (1..9) %}')).not.toThrow();
    expect(() => findDetokenizationExpressions("{{ abc | upcase | append: '}}' }}")).toThrow(ExpressionError);
  });

  it('bounds nesting', () => {
    let deep: unknown = '{{ tok_ssn }}';
    for (let i = 0; i < 300; i++) deep = { a: deep };
    expect(() => findDetokenizationExpressions(deep)).toThrow(/nested too deeply/);
  });
});

describe('detokenizationExpressionsOf', () => {
  it('lists each expression once, blanks normalized, filters kept', () => {
    expect(detokenizationExpressionsOf({ a: '{{tok_1}}', b: ['{{ tok_1 }} and {{ tok_2 |  json: "$.n" }}'], c: "{{ tok_2 | json: '$.n' }}" })).toEqual([
      'tok_1',
      'tok_2 | json: "$.n"',
      "tok_2 | json: '$.n'",
    ]);
    expect(detokenizationExpressionsOf('no {{ expression')).toEqual([]);
  });

  it('throws for a malformed expression, as findDetokenizationExpressions does', () => {
    expect(() => detokenizationExpressionsOf('{{ a b }}')).toThrow(ExpressionError);
  });
});

describe('substituteDetokenization', () => {
  it('injects the JSON value of a whole-value expression', () => {
    const out = substituteDetokenization({ card: `{{ ${UUID} }}`, n: `{{${UUID}}}`, pad: `  {{ ${UUID} }} ` }, lookup);
    expect(out).toEqual({ card: CARD, n: CARD, pad: CARD });
    const o = out as Record<string, unknown>;
    expect(o['card']).not.toBe(o['n']); // copies, not shared references
  });

  it('selects a part with json, keeps types, applies filters', () => {
    const out = substituteDetokenization(
      {
        number: `{{ ${UUID} | json: '$.number' }}`,
        month: `{{ ${UUID} | json: "$.expiration_month" }}`,
        last4: `{{ ${UUID} | json: '$.number' | last4 }}`,
        missing: `{{ ${UUID} | json: '$.cvc' }}`,
        ssn: '{{ tok_ssn | remove: "-" }}',
        num: '{{ alias:4242 }}',
        bool: '{{ flag_tok }}',
        nul: '{{ nul_tok }}',
        list: '{{ list_tok }}',
        asString: '{{ alias:4242 | to_string }}',
      },
      lookup,
    );
    expect(out).toEqual({
      number: '4242424242424242',
      month: 12,
      last4: '4242',
      missing: null,
      ssn: '123456789',
      num: 4242,
      bool: true,
      nul: null,
      list: ['a', { b: 1 }],
      asString: '4242',
    });
  });

  it('yields a string for several expressions or surrounding text', () => {
    const out = substituteDetokenization(
      [
        `card {{ ${UUID} }}`,
        '{{ tok_ssn }}{{ tok_ssn | last4 }}',
        `{{ ${UUID} | json: '$.expiration_month' }}/{{ ${UUID} | json: '$.expiration_year' }}`,
        'n={{ nul_tok }};b={{ flag_tok }};l={{ list_tok }}',
        'no expression',
      ],
      lookup,
    );
    expect(out).toEqual([`card ${JSON.stringify(CARD)}`, '123-45-67896789', '12/2030', 'n=;b=true;l=["a",{"b":1}]', 'no expression']);
  });

  it('keeps non-string leaves and keys, returns a new value', () => {
    const input = { a: 1, b: [true, null, 2.5], '{{ tok_ssn }}': 'k', c: { d: '{{ tok_ssn | last4 }}' } };
    const out = substituteDetokenization(input, lookup);
    expect(out).toEqual({ a: 1, b: [true, null, 2.5], '{{ tok_ssn }}': 'k', c: { d: '6789' } });
    expect(input.c.d).toBe('{{ tok_ssn | last4 }}');
    expect(substituteDetokenization(7, lookup)).toBe(7);
  });

  it('looks each distinct id up once and lets lookup errors through', () => {
    const calls: string[] = [];
    substituteDetokenization(['{{ tok_ssn }}', '{{ tok_ssn | last4 }}', `{{ ${UUID} }}`], (id) => {
      calls.push(id);
      return lookup(id);
    });
    expect(calls).toEqual(['tok_ssn', UUID]);
    expect(() => substituteDetokenization('{{ unknown_token }}', lookup)).toThrow('no token unknown_token');
  });

  it('rejects malformed expressions and invalid ids', () => {
    expect(() => substituteDetokenization('{{ a b }}', lookup)).toThrow(ExpressionError);
    expect(() => substituteDetokenization('{{ tok_ssn | nope }}', lookup)).toThrow(ExpressionError);
    expect(() => substituteDetokenization(`{{ ${UUID} | json: '$..*' }}`, lookup)).toThrow(/several values/);
  });
});
