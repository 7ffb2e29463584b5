import { ExpressionError, evaluate, isExpression, renderToString, validateTemplate, LIMITS } from '../index';

function errorOf(fn: () => unknown): ExpressionError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ExpressionError) return e;
    throw new Error(`expected an ExpressionError, got ${String(e)}`);
  }
  throw new Error('expected an error');
}

describe('isExpression', () => {
  it.each([
    ['{{ data }}', true],
    ['a {{ data | last4 }} b', true],
    ['{% if data %}x{% endif %}', true],
    ['plain text', false],
    ['{{ not closed', false],
    ['', false],
    ['}} {{', false],
  ])('%j -> %s', (text, expected) => {
    expect(isExpression(text)).toBe(expected);
  });
});

describe('typed evaluation', () => {
  const data = { n: 12, f: 1.5, b: true, s: 'x', o: { a: [1, { c: null }] }, arr: [1, 'two'], z: 0, empty: '' };
  it.each([
    ['{{ data.n }}', 12],
    ['{{ data.f }}', 1.5],
    ['{{ data.b }}', true],
    ['{{ data.z }}', 0],
    ['{{ data.s }}', 'x'],
    ['{{ data.empty }}', ''],
    ['{{ data.o }}', { a: [1, { c: null }] }],
    ['{{ data.arr }}', [1, 'two']],
    ['{{ data.missing }}', null],
    ['{{ data.o.a[1].c }}', null],
    ['  {{ data.n }}\n', 12],
    ['{{- data.n -}}', 12],
    ['{{ data.n | plus: 1 }}', 13],
    ['{{ data.n | to_string }}', '12'],
    ['{{ data.missing | to_number | default: 5 }}', 5],
    ['{{ 42 }}', 42],
    ["{{ 'lit' }}", 'lit'],
    ['{{ nil }}', null],
    ['{{ true }}', true],
    ['{{ (1..3) }}', [1, 2, 3]],
    // several outputs or text: strings
    ['{{ data.n }}{{ data.n }}', '1212'],
    ['n={{ data.n }}', 'n=12'],
    ['{{ data.o }} / {{ data.arr }}', '{"a":[1,{"c":null}]} / [1,"two"]'],
    ['[{{ data.missing }}]', '[]'],
    ['{% if data.b %}yes{% else %}no{% endif %}', 'yes'],
    ['{% for x in data.arr %}{{ forloop.index }}:{{ x }};{% endfor %}', '1:1;2:two;'],
    ['{% assign t = data.s | upcase %}{{ t }}{{ t }}', 'XX'],
    ['{% capture c %}{{ data.n | plus: 1 }}{% endcapture %}<{{ c }}>', '<13>'],
    ['{% case data.s %}{% when "x" %}ex{% else %}other{% endcase %}', 'ex'],
    ['{% unless data.b %}u{% endunless %}', ''],
    ['{% comment %}hidden{% endcomment %}shown', 'shown'],
    ['{% raw %}{{ data }}{% endraw %}', '{{ data }}'],
    ['no markup at all', 'no markup at all'],
    ['', ''],
  ])('%s', (template, expected) => {
    expect(evaluate(template, { data })).toEqual(expected);
  });

  it('is deterministic for dates (UTC)', () => {
    expect(evaluate("{{ '2024-01-02T03:04:05Z' | date: '%Y-%m-%d %H:%M' }}", { data: null })).toBe('2024-01-02 03:04');
  });

  it('renderToString', () => {
    expect(renderToString('{{ data.n }}', { data: { n: 12 } })).toBe('12');
    expect(renderToString('{{ data.b }}', { data: { b: false } })).toBe('false');
    expect(renderToString('{{ data.missing }}', { data: {} })).toBeNull();
    expect(renderToString('{{ data }}', { data: { b: 1, a: [1] } })).toBe('{"b":1,"a":[1]}');
    expect(renderToString('{{ data | stringify }}', { data: { b: 1, a: [1] } })).toBe('{"a":[1],"b":1}');
    expect(renderToString('{{ data | stringify }}', { data: null })).toBeNull();
    expect(renderToString('x{{ data.missing }}', { data: {} })).toBe('x');
    expect(renderToString('{{ data }}', {})).toBeNull();
  });

  it('uses metadata only in the data+metadata scope', () => {
    const scope = { data: { a: 1 }, metadata: { k: 'v' } };
    expect(evaluate('{{ metadata.k }}-{{ data.a }}', scope)).toBe('v-1');
    expect(evaluate('{{ metadata.k }}', scope, 'data+metadata')).toBe('v');
    expect(evaluate('{{ metadata.missing }}', { data: 1 }, 'data+metadata')).toBeNull();
    expect(errorOf(() => evaluate('{{ metadata.k }}', scope, 'data')).message).toBe('unknown variable "metadata"');
    expect(errorOf(() => evaluate('{{ metadata.k }}', { data: 1 })).message).toBe('unknown variable "metadata"');
  });

  it('default fingerprint expression', () => {
    const scope = { data: { number: '4242424242424242', cvc: '123' }, metadata: { a: 'b' } };
    expect(renderToString('{{ data | stringify }}', scope, 'data+metadata')).toBe('{"cvc":"123","number":"4242424242424242"}');
    expect(renderToString('{{ data | stringify }}{{ metadata | stringify }}', scope, 'data+metadata')).toBe(
      '{"cvc":"123","number":"4242424242424242"}{"a":"b"}',
    );
  });
});

describe('validateTemplate', () => {
  it('accepts valid templates', () => {
    expect(() => validateTemplate('{{ data.number | reveal_last: 4 }}', 'data')).not.toThrow();
    expect(() => validateTemplate('{{ data | stringify }}{{ metadata.x }}', 'data+metadata')).not.toThrow();
    expect(() => validateTemplate('{% for i in data %}{{ i }}{{ forloop.index }}{% endfor %}', 'data')).not.toThrow();
    expect(() => validateTemplate('{% assign x = data | last4 %}{{ x }}', 'data')).not.toThrow();
    expect(() => validateTemplate('literal id', 'data')).not.toThrow();
  });

  it.each([
    ['{{ foo }}', 'unknown variable "foo"', 'unknown_variable'],
    ['{{ data.a }}{{ secrets.key }}', 'unknown variable "secrets"', 'unknown_variable'],
    ['{{ data | append: other }}', 'unknown variable "other"', 'unknown_variable'],
    ['{% if env.x %}{% endif %}', 'unknown variable "env"', 'unknown_variable'],
    ['{{ metadata.k }}', 'unknown variable "metadata"', 'unknown_variable'],
    ['{{ data | nope }}', 'unknown filter "nope"', 'unknown_filter'],
    ['{% for i in data %}{{ i | shout }}{% endfor %}', 'unknown filter "shout"', 'unknown_filter'],
    ['{% include "secrets.liquid" %}', 'tag "include" is not allowed', 'forbidden_tag'],
    ['{% render "x" %}', 'tag "render" is not allowed', 'forbidden_tag'],
    ['{% layout "x" %}', 'tag "layout" is not allowed', 'forbidden_tag'],
    ['{% liquid\ninclude "x" %}', 'tag "include" is not allowed', 'forbidden_tag'],
    ['{% if data %}{% include "x" %}{% endif %}', 'tag "include" is not allowed', 'forbidden_tag'],
    ['{% bogus %}', 'unknown tag "bogus"', 'syntax'],
    ['{{ data.number | reveal_last: "4" }}', 'filter "reveal_last": first argument must be a non-negative integer', 'invalid_argument'],
    ['{{ data | reveal_last }}', 'filter "reveal_last": first argument is required', 'invalid_argument'],
    ['{{ data | pad_left: 4, "ab" }}', 'filter "pad_left": second argument must be a single character', 'invalid_argument'],
    ['{% if data %}{{ data | last4: 1 }}{% endif %}', 'filter "last4": takes at most 0 arguments', 'invalid_argument'],
  ])('%s -> %s', (template, message, code) => {
    const e = errorOf(() => validateTemplate(template, 'data'));
    expect(e.message).toBe(message);
    expect(e.code).toBe(code);
  });

  it.each(['{{ data', '{% if data %}', '{% endif %}', '{% for %}{% endfor %}', '{{ data | upcase data }}', '{{ "x }}'])('syntax error %j', (template) => {
    const e = errorOf(() => validateTemplate(template, 'data'));
    expect(e.code).toMatch(/syntax|unknown_filter/);
  });

  it('rejects over-long templates and unknown scopes', () => {
    const long = `{{ data }}${' '.repeat(LIMITS.templateLength)}`;
    expect(errorOf(() => validateTemplate(long, 'data')).code).toBe('limit_exceeded');
    expect(errorOf(() => evaluate(long, { data: 1 })).code).toBe('limit_exceeded');
    expect(() => validateTemplate(' '.repeat(LIMITS.templateLength - 10) + '{{ data }}', 'data')).not.toThrow();
    expect(errorOf(() => validateTemplate('{{ data }}', 'everything' as never)).message).toBe('unknown scope');
    expect(errorOf(() => validateTemplate(42 as never, 'data')).message).toBe('a template must be a string');
  });
});

describe('sandbox and limits', () => {
  it('bounds loops by memory and time', () => {
    const started = Date.now();
    expect(errorOf(() => evaluate('{% for i in (1..100000000) %}x{% endfor %}', { data: 1 })).code).toBe('limit_exceeded');
    expect(errorOf(() => evaluate('{% for i in (1..1000000) %}{{ i }}{% endfor %}', { data: 1 })).code).toBe('limit_exceeded');
    expect(errorOf(() => evaluate('{% for i in (1..3000) %}{% for j in (1..3000) %}{% endfor %}{% endfor %}', { data: 1 })).code).toBe('limit_exceeded');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('bounds memory growth', () => {
    const e = errorOf(() =>
      evaluate("{% assign s = 'xxxxxxxxxx' %}{% for i in (1..60) %}{% assign s = s | append: s %}{% endfor %}{{ s }}", {
        data: 1,
      }),
    );
    expect(e.code).toBe('limit_exceeded');
  });

  it('bounds output size', () => {
    const big = 'x'.repeat(300_000);
    const e = errorOf(() => evaluate('{{ data }}{{ data }}{{ data }}{{ data }}', { data: big }));
    expect(e.message).toBe('output size limit exceeded');
    expect(errorOf(() => evaluate('{{ data }}', { data: 'x'.repeat(LIMITS.outputLength + 1) })).code).toBe('limit_exceeded');
  });

  it('does not reach prototypes or globals', () => {
    expect(evaluate('{{ data.constructor.name }}', { data: {} })).toBeNull();
    expect(evaluate('{{ data.__proto__.polluted }}', { data: {} })).toBeNull();
    expect(evaluate('{{ data | map: "constructor" | first }}', { data: [{}] })).toBeNull();
    expect(errorOf(() => validateTemplate('{{ process.env }}', 'data')).message).toBe('unknown variable "process"');
  });

  it('never echoes data values in error messages', () => {
    const secret = 'S3CRET-4242424242424242';
    const data = { secret, nested: { secret }, list: [secret, secret] };
    const templates = [
      '{{ data.secret | to_number }}',
      '{{ data.secret | to_boolean }}',
      '{{ data.nested | reveal }}',
      '{{ data.list | last4 }}',
      "{{ data | json: '$..secret' }}",
      "{{ data.secret | date: '%Y' | to_number }}",
      '{{ data.secret | divided_by: 0 }}',
      "{{ data.secret | append: 'x' | to_boolean }}",
      '{{ data.secret | split: "-" | first | to_number }}',
    ];
    for (const t of templates) {
      const e = errorOf(() => evaluate(t, { data }));
      expect(e.message).not.toContain('S3CRET');
      expect(e.message).not.toContain('4242');
    }
  });

  it('throws ExpressionError for everything', () => {
    for (const t of ['{{', '{%', "{{ data | json: '$[?(@)]' }}", '{{ data.a | pad_left: 1e9 }}', '{{ data | reveal: 0, 0, 5 }}']) {
      expect(() => evaluate(t, { data: { a: 'x' } })).toThrow(ExpressionError);
    }
  });
});
