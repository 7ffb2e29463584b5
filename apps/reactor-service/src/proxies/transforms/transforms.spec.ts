import { setAt } from './json-location';
import { maskText } from './mask';
import { readMessage, withConfiguration, writeMessage } from './proxy-message';
import { TransformError } from './transform-error';

describe('maskText: the regex mask of proxy response transforms', () => {
  it('replaces each capture value inside every match, one character per character', () => {
    const body = JSON.stringify({ username: 'bsmith1486', accountNumber: '56834512' });
    expect(JSON.parse(maskText(body, '"accountNumber":\\s*"(.*?)"', '*'))).toEqual({ username: 'bsmith1486', accountNumber: '********' });
  });

  it('replaces every occurrence of the captured value within the matched section (the mirrored example)', () => {
    expect(maskText('aabbccaabbccaa', '^(aa).*?$', '*')).toBe('**bbcc**bbcc**');
  });

  it('leaves text outside the matches alone, and counts characters, not UTF-16 units', () => {
    expect(maskText('pin=1234; name=😀😀', 'pin=(\\d+)', '#')).toBe('pin=####; name=😀😀');
    expect(maskText('x=😀😀', 'x=(\\S+)', '*')).toBe('x=**');
  });

  // RE2 matches in linear time: a backtracking engine would not finish this within the test's timeout
  it('answers on input that makes a backtracking engine explode', () => {
    const text = 'a'.repeat(30_000) + '!';
    expect(maskText(text, '(a+)+$', '*')).toBe(text);
  });
});

describe('setAt: append_json locations', () => {
  it('writes at names and indexes, creating what is missing', () => {
    expect(setAt({ a: 1 }, "$.merchant['account id'].x", 'v')).toEqual({ a: 1, merchant: { 'account id': { x: 'v' } } });
    expect(setAt({}, '$.items[1]', 'v')).toEqual({ items: [undefined, 'v'] });
  });

  it('refuses steps into a prototype', () => {
    expect(() => setAt({}, '$.__proto__.polluted', 'yes')).toThrow(TransformError);
    expect(() => setAt({}, "$['constructor']['prototype'].polluted", 'yes')).toThrow(TransformError);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('proxy messages', () => {
  const b64 = (s: string) => Buffer.from(s).toString('base64');

  it('reads JSON, text and bytes by content type and writes them back', () => {
    expect(readMessage({ method: 'POST', path: '', query: '', headers: [['content-type', 'application/json']], body: b64('{"a":1}') }).body).toEqual({
      kind: 'json',
      value: { a: 1 },
    });
    expect(readMessage({ method: 'POST', path: '', query: '', headers: [['content-type', 'application/json']], body: b64('{oops') }).body).toEqual({
      kind: 'text',
      value: '{oops',
    });
    expect(readMessage({ method: 'POST', path: '', query: '', headers: [['content-type', 'text/plain']], body: b64('hi') }).body.kind).toBe('text');
    const bytes = readMessage({ method: 'POST', path: '', query: '', headers: [['content-type', 'image/png']], body: b64('\x89PNG') });
    expect(bytes.body.kind).toBe('bytes');
    expect(writeMessage(bytes).body).toBe(b64('\x89PNG'));
  });

  it('substitutes {{ configuration.NAME }} and nothing else', () => {
    expect(withConfiguration('Bearer {{ configuration.KEY }} {{ 5d1f }}', { KEY: 'sk' })).toBe('Bearer sk {{ 5d1f }}');
    expect(withConfiguration('{{configuration.MISSING}}', {})).toBe('');
  });
});
