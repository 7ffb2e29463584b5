import { ProblemError } from '@coffer/contracts';
import { checkHeaders, type HeaderSource } from './header-check';

const problemOf = (headers: [string, string][], source: HeaderSource) => {
  try {
    checkHeaders(headers, source, 'api.example.com');
  } catch (err) {
    return (err as ProblemError).problem;
  }
  return undefined;
};

describe('checkHeaders', () => {
  it('accepts what HTTP carries: visible ASCII, Latin-1, spaces and tabs', () => {
    expect(
      problemOf(
        [
          ['x-a', 'Bearer abc'],
          ['x-b', 'caf\u00e9\tau lait'],
          ['x-c', ''],
        ],
        'destination',
      ),
    ).toBeUndefined();
  });

  it.each([
    ['a line break', ['x-bad', 'a\r\nset-cookie: x=1']],
    ['NUL', ['x-bad', 'a\0b']],
    ['a control character', ['x-bad', 'a\u0001b']],
    ['a character beyond Latin-1', ['x-bad', 'price \u20ac']],
  ] as Array<[string, [string, string]]>)('refuses %s, naming the header and never its value', (_what, pair) => {
    const problem = problemOf([['x-ok', 'fine'], pair], 'response transforms');
    expect(problem).toMatchObject({ status: 502, errors: { headers: [expect.stringContaining('x-bad')] } });
    expect(JSON.stringify(problem)).not.toContain('price');
  });

  it("answers 400 for the caller's (detokenized) input, 502 for a transform's output or a destination's answer", () => {
    const bad: [string, string][] = [['x-bad', '\u20ac']];
    expect(problemOf(bad, 'caller')?.status).toBe(400);
    expect(problemOf(bad, 'request transforms')).toMatchObject({ status: 502, detail: "The proxy's request transforms produced an invalid header" });
    expect(problemOf(bad, 'destination')).toMatchObject({ status: 502, detail: 'The answer of api.example.com produced an invalid header' });
  });

  it('refuses a name that is not a token without quoting it', () => {
    expect(problemOf([['bad name\r\n', 'v']], 'response transforms')).toMatchObject({
      status: 502,
      errors: { headers: [expect.stringMatching(/^a header name is/)] },
    });
  });
});
