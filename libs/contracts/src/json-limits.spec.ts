import { JSON_MAX_DEPTH, assertJsonLimits, findJsonLimitViolation, jsonLimitProblem, unstorableText } from './json-limits';
import { ProblemError } from './problem/problem';

/** `levels` nested objects around `leaf`, built from text (no recursion, no stack). */
const deepObject = (levels: number, leaf = '1') => JSON.parse('{"a":'.repeat(levels) + leaf + '}'.repeat(levels));
const deepArray = (levels: number) => JSON.parse('['.repeat(levels) + '1' + ']'.repeat(levels));

describe('JSON limits', () => {
  it(`accepts ${JSON_MAX_DEPTH} levels of objects or arrays and refuses ${JSON_MAX_DEPTH + 1}`, () => {
    expect(JSON_MAX_DEPTH).toBe(64);
    expect(findJsonLimitViolation(deepObject(JSON_MAX_DEPTH))).toBeNull();
    expect(findJsonLimitViolation(deepArray(JSON_MAX_DEPTH))).toBeNull();
    expect(findJsonLimitViolation(deepObject(JSON_MAX_DEPTH + 1))).toMatchObject({ kind: 'depth', path: 'a' });
    expect(findJsonLimitViolation(deepArray(JSON_MAX_DEPTH + 1))).toMatchObject({ kind: 'depth', path: '[0]' });
    expect(findJsonLimitViolation({ x: 1, data: deepObject(JSON_MAX_DEPTH) })).toMatchObject({ kind: 'depth', path: 'data' });
    expect(findJsonLimitViolation(deepObject(3), { maxDepth: 2 })).toMatchObject({ kind: 'depth' });
    // primitives are leaves, not levels
    expect(findJsonLimitViolation(deepObject(JSON_MAX_DEPTH, '"leaf"'))).toBeNull();
  });

  it('walks documents far deeper than the stack allows without overflowing', () => {
    for (const levels of [10_000, 200_000]) {
      expect(findJsonLimitViolation(deepObject(levels))).toMatchObject({ kind: 'depth', path: 'a' });
      expect(findJsonLimitViolation(deepArray(levels))).toMatchObject({ kind: 'depth', path: '[0]' });
      expect(findJsonLimitViolation(deepObject(levels), { maxDepth: Infinity })).toBeNull();
    }
  });

  it('refuses non-finite numbers anywhere, naming the field path', () => {
    expect(findJsonLimitViolation(JSON.parse('{"data":{"expiration_month":1e309}}'))).toEqual({
      kind: 'non-finite',
      path: 'data.expiration_month',
      message: 'must be a finite number',
    });
    expect(findJsonLimitViolation(JSON.parse('{"a":[1,{"b":[0,-1e999]}]}'))).toMatchObject({ path: 'a[1].b[1]' });
    expect(findJsonLimitViolation(NaN)).toMatchObject({ kind: 'non-finite', path: '' });
    expect(findJsonLimitViolation(JSON.parse('1e400'), {}, 'timeout_ms')).toMatchObject({ path: 'timeout_ms' });
    expect(findJsonLimitViolation({ n: 1.7976931348623157e308, m: -0, s: 'Infinity' })).toBeNull();
  });

  it('reports the first violation in document order', () => {
    expect(findJsonLimitViolation({ a: 1, b: [2, Infinity], c: -Infinity })).toMatchObject({ path: 'b[1]' });
    expect(findJsonLimitViolation({ a: { x: Infinity }, b: Infinity })).toMatchObject({ path: 'a.x' });
  });

  it('never echoes odd keys in a path', () => {
    expect(findJsonLimitViolation({ '4242424242424242': Infinity })).toMatchObject({ path: '*' });
    expect(findJsonLimitViolation({ data: { 'a b': [Infinity] } })).toMatchObject({ path: 'data.*[0]' });
    expect(findJsonLimitViolation({ ['k'.repeat(65)]: Infinity })).toMatchObject({ path: '*' });
  });

  it('refuses NUL in strings and keys only when asked, except under exempt top-level members', () => {
    const doc = { name: 'a\u0000b', meta: { ['k\u0000']: 'v' } };
    expect(findJsonLimitViolation(doc)).toBeNull();
    expect(findJsonLimitViolation(doc, { rejectNul: true })).toMatchObject({ kind: 'nul', path: 'name' });
    expect(findJsonLimitViolation({ meta: { ['k\u0000']: 'v' } }, { rejectNul: true })).toMatchObject({ kind: 'nul', path: 'meta' });
    expect(findJsonLimitViolation({ list: ['ok', 'x\u0000'] }, { rejectNul: true })).toMatchObject({ kind: 'nul', path: 'list[1]' });
    const opaque = { args: { ['k\u0000']: ['v\u0000', { w: '\u0000' }] }, configuration: 'c\u0000', name: 'n' };
    expect(findJsonLimitViolation(opaque, { rejectNul: true, nulExempt: ['args', 'configuration'] })).toBeNull();
    // exemption is for top-level members only, and never for depth or numbers
    expect(findJsonLimitViolation({ x: { args: 'a\u0000' } }, { rejectNul: true, nulExempt: ['args'] })).toMatchObject({ path: 'x.args' });
    expect(findJsonLimitViolation({ args: [Infinity] }, { rejectNul: true, nulExempt: ['args'] })).toMatchObject({ kind: 'non-finite', path: 'args[0]' });
    expect(findJsonLimitViolation({ args: deepObject(JSON_MAX_DEPTH) }, { rejectNul: true, nulExempt: ['args'] })).toMatchObject({
      kind: 'depth',
      path: 'args',
    });
    expect(findJsonLimitViolation('a\u0000', { rejectNul: true })).toMatchObject({ kind: 'nul', path: '' });
  });

  it('refuses unpaired surrogates (text that is not Unicode) in strings and keys wherever it refuses NUL', () => {
    const lone = JSON.parse('"a\\ud800b"') as string;
    const paired = JSON.parse('"\\ud83d\\ude00"') as string;
    expect(findJsonLimitViolation({ email: lone })).toBeNull();
    expect(findJsonLimitViolation({ email: lone }, { rejectNul: true })).toEqual({
      kind: 'unpaired-surrogate',
      path: 'email',
      message: 'must be valid Unicode text (it holds an unpaired surrogate)',
    });
    expect(findJsonLimitViolation({ metadata: { [lone]: 'x' } }, { rejectNul: true })).toMatchObject({ kind: 'unpaired-surrogate', path: 'metadata' });
    expect(findJsonLimitViolation({ tags: ['ok', '\udc00'] }, { rejectNul: true })).toMatchObject({ kind: 'unpaired-surrogate', path: 'tags[1]' });
    expect(findJsonLimitViolation({ email: paired }, { rejectNul: true })).toBeNull();
    expect(findJsonLimitViolation({ data: { v: lone } }, { rejectNul: true, nulExempt: ['data'] })).toBeNull();
    expect([unstorableText(lone), unstorableText('a\u0000'), unstorableText(paired)]).toEqual([
      'must be valid Unicode text (it holds an unpaired surrogate)',
      'must not contain the NUL character (U+0000)',
      null,
    ]);
  });

  it('refuses the reserved keys (__proto__, constructor, prototype) when asked, except under exempt top-level members', () => {
    const body = JSON.parse('{"metadata":{"__proto__":"x"},"data":{"constructor":"c"}}') as unknown;
    const asked = { rejectNul: true, rejectReservedKeys: true };
    expect(findJsonLimitViolation(body, { rejectNul: true })).toBeNull();
    expect(findJsonLimitViolation(body, asked)).toEqual({
      kind: 'reserved-key',
      path: 'metadata.__proto__',
      message: 'is a reserved name: __proto__, constructor and prototype cannot be keys',
    });
    expect(findJsonLimitViolation({ a: [{ b: { prototype: 1 } }] }, asked)).toMatchObject({ kind: 'reserved-key', path: 'a[0].b.prototype' });
    expect(findJsonLimitViolation({ constructor: 1 }, asked)).toMatchObject({ kind: 'reserved-key', path: 'constructor' });
    expect(findJsonLimitViolation({ data: { constructor: 'c' }, metadata: { toString: 'fine' } }, { ...asked, nulExempt: ['data'] })).toBeNull();
  });

  it('prefixes paths with the root it is given', () => {
    expect(findJsonLimitViolation({ a: [Infinity] }, {}, 'args')).toMatchObject({ path: 'args.a[0]' });
    expect(findJsonLimitViolation(deepObject(JSON_MAX_DEPTH + 1), {}, 'patch')).toMatchObject({ kind: 'depth', path: 'patch.a' });
  });

  it('throws a 400 problem that names the field and never carries the content', () => {
    let thrown: unknown;
    try {
      assertJsonLimits({ secret: 'tok_live_secret', n: Infinity });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ProblemError);
    const problem = (thrown as ProblemError).problem;
    expect(problem).toMatchObject({ status: 400, title: 'Bad Request', errors: { n: ['must be a finite number'] } });
    expect(JSON.stringify(problem)).not.toContain('tok_live_secret');
    expect(jsonLimitProblem({ kind: 'depth', path: '', message: 'x' }).problem.errors).toBeUndefined();
    expect(() => assertJsonLimits({ ok: [1, 'two', null, true, { three: 3 }] })).not.toThrow();
  });

  it('passOverNul finds the first violation other than a NUL (a reserved key, a lone surrogate, a key holding NUL passed over too)', () => {
    const body = JSON.parse('{"a":"\\u0000","b":{"c\\u0000":1},"d":{"constructor":1},"e":"\\ud800"}');
    const options = { rejectNul: true, rejectReservedKeys: true };
    expect(findJsonLimitViolation(body, options)).toMatchObject({ kind: 'nul', path: 'a' });
    expect(findJsonLimitViolation(body, { ...options, passOverNul: true })).toMatchObject({ kind: 'reserved-key', path: 'd.constructor' });
    expect(findJsonLimitViolation({ a: '\u0000', e: '\ud800' }, { ...options, passOverNul: true })).toMatchObject({ kind: 'unpaired-surrogate', path: 'e' });
    expect(findJsonLimitViolation({ a: '\u0000', b: ['x\u0000'] }, { ...options, passOverNul: true })).toBeNull();
  });

  it('is linear and cheap: a 1.4 MB body of 140,000 values is checked in milliseconds (a guard, not a benchmark)', () => {
    const body = { data: Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `item-${i}`, tags: ['a', 'b'], price: i / 3 })) };
    expect(JSON.stringify(body).length).toBeGreaterThan(1024 * 1024);
    for (const options of [{}, { rejectNul: true }]) {
      findJsonLimitViolation(body, options);
      const runs = 10;
      const started = process.hrtime.bigint();
      for (let i = 0; i < runs; i++) expect(findJsonLimitViolation(body, options)).toBeNull();
      const ms = Number(process.hrtime.bigint() - started) / 1e6 / runs;
      // measured ~4 ms (gateway form) and ~8 ms (with the NUL rule) on a shared 2-core machine; JSON.parse of it ~13 ms
      expect(ms).toBeLessThan(250);
    }
  });
});
