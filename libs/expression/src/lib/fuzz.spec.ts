import fc from 'fast-check';
import { ExpressionError, evaluate, findDetokenizationExpressions, substituteDetokenization, validateMask, evaluateMask } from '../index';
import { checkCompiled, compile, run } from './engine';
import { ExpressionBudget, Meter } from './budget';

const FRAGMENTS = [
  '{{',
  '}}',
  '{%',
  '%}',
  '{{ data }}',
  '{{ data.a }}',
  '{{ metadata.k }}',
  '{{ x }}',
  ' | ',
  '|',
  ':',
  ',',
  "'",
  '"',
  'data',
  'data.a.b',
  'data[0]',
  'reveal: 1, 2',
  "reveal: 0, 4, '*', '-'",
  'reveal_last: 4',
  'last4',
  'pad_left: 9000, "x"',
  'pad_right: 3',
  "json: '$.a'",
  "json: '$..*'",
  'stringify',
  'to_number',
  'to_boolean',
  'to_string',
  'alias_preserve_format: 1, 1',
  'alias_preserve_length',
  'card_bin',
  'upcase',
  "remove: '-'",
  'append: data',
  'split: ""',
  'join: "xxxxxxxxxx"',
  '{% for i in (1..100000000) %}',
  '{% for i in (1..100000) %}',
  '{% for i in data %}',
  '{% endfor %}',
  '{% if data %}',
  '{% else %}',
  '{% endif %}',
  '{% assign s = data | append: s %}',
  '{% assign s = s | append: s | append: s %}',
  '{% capture c %}',
  '{% endcapture %}',
  '{% include "x" %}',
  '{% render "x" %}',
  '{% layout "x" %}',
  '{% raw %}',
  '{% endraw %}',
  '{% liquid',
  '{%- comment -%}',
  '(1..5)',
  '-}}',
  '{{-',
  'forloop.index',
];

const templateArb = fc
  .array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...FRAGMENTS) }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) }), {
    maxLength: 14,
  })
  .map((parts) => parts.join(''));

function outcome(fn: () => unknown): 'ok' | 'expression-error' {
  try {
    fn();
    return 'ok';
  } catch (e) {
    if (e instanceof ExpressionError) return 'expression-error';
    throw e;
  }
}

describe('fuzz', () => {
  it('evaluate returns or throws ExpressionError, quickly, for arbitrary templates and data', () => {
    let slowest = 0;
    fc.assert(
      fc.property(templateArb, fc.jsonValue({ maxDepth: 3 }), fc.boolean(), (template, data, withMetadata) => {
        const started = performance.now();
        outcome(() => evaluate(template, withMetadata ? { data, metadata: { k: 'v' } } : { data }));
        const elapsed = performance.now() - started;
        slowest = Math.max(slowest, elapsed);
        expect(elapsed).toBeLessThan(1000);
      }),
      { numRuns: 2000 },
    );
    expect(slowest).toBeLessThan(1000);
  });

  it('loops, nested loops and growing strings are bounded', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.constantFrom('x', '{{ i }}', '{{ data | stringify }}', "{% assign s = s | append: s | append: 'xxxxxxxx' %}"),
        (n, m, body) => {
          const t = `{% assign s = 'ab' %}{% for i in (1..${n}) %}{% for j in (1..${m}) %}${body}{% endfor %}{% endfor %}{{ s | size }}`;
          const started = performance.now();
          try {
            evaluate(t, { data: { a: 'x'.repeat(1000) } });
          } catch (e) {
            expect(e).toBeInstanceOf(ExpressionError);
            expect((e as ExpressionError).code).toBe('limit_exceeded');
          }
          expect(performance.now() - started).toBeLessThan(1000);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('the fast path agrees with liquidjs on arbitrary data', () => {
    const templates = [
      '{{ data }}',
      '{{ data.a }}',
      '{{ data.a.b }}',
      '{{ data[0] }}',
      "{{ data['a'] | stringify }}",
      '{{ data.a | reveal_last: 4 }}',
      "{{ data.a | reveal: 1, 2, '*', '-' }}",
      '{{ data | last4 }}',
      "{{ data.a | pad_left: 6, '0' }}",
      '{{ data | card_bin }}',
      '{{ data.a | to_number }}',
      '{{ data.a | to_boolean }}',
      '{{ data.a | to_string }}',
      "{{ data | json: '$.a' }}",
      "{{ data | remove: '-' | upcase }}",
      "{{ data.a | replace: 'a', 'b' | reveal_last: 2 }}",
    ];
    for (const t of templates) expect(compile(t).fast).toBeDefined();
    const attempt = (t: string, data: unknown, fast: boolean): unknown => {
      try {
        const c = compile(t);
        checkCompiled(c, 'data');
        return { value: run(c, { data }, 'data', fast, new Meter(ExpressionBudget.single())) };
      } catch (e) {
        if (!(e instanceof ExpressionError)) throw e;
        return { error: e.message };
      }
    };
    fc.assert(
      fc.property(
        fc.constantFrom(...templates),
        fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.dictionary(fc.constantFrom('a', 'b', 'size'), fc.jsonValue({ maxDepth: 2 }))),
        (t, data) => {
          expect(attempt(t, data, true)).toEqual(attempt(t, data, false));
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('falls back to liquidjs for shapes the fast path does not handle', () => {
    for (const t of ['{{ data.size }}', '{{ data[-1] }}', '{{ data | slice: 1 }}', '{{ data.a | reveal: data.b }}', 'x{{ data }}']) {
      expect(compile(t).fast).toBeUndefined();
    }
    class Custom {
      a = 'x';
    }
    // non-JSON data bails out to liquidjs at run time
    expect(evaluate('{{ data.a }}', { data: new Custom() })).toBe('x');
    expect(evaluate('{{ data.a }}', { data: { a: new Date(0) } })).toEqual(new Date(0));
  });

  it('detokenization and masks return or throw ExpressionError for arbitrary input', () => {
    const valueArb = fc.jsonValue({ maxDepth: 3 }).chain((v) =>
      fc.oneof(
        fc.constant(v),
        fc.array(fc.oneof(templateArb, fc.constantFrom('{{ tok_abc }}', "{{ tok_abc | json: '$.a' }}", 'x {{ tok_abc }} y')), {
          maxLength: 4,
        }),
      ),
    );
    fc.assert(
      fc.property(valueArb, fc.jsonValue({ maxDepth: 2 }), (value, data) => {
        outcome(() => findDetokenizationExpressions(value));
        outcome(() => substituteDetokenization(value, () => data));
        outcome(() => validateMask(value));
        outcome(() => evaluateMask(value, data));
      }),
      { numRuns: 500 },
    );
  });
});
