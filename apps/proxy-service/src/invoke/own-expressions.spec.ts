import { ProblemError } from '@coffer/contracts';
import { onlyOwnExpressions, ownExpressions } from './own-expressions';

describe('ownExpressions', () => {
  it("collects the caller's expressions from header values and a JSON, form or text body", () => {
    const json = ownExpressions(
      [
        ['x-a', '{{ tok_h }}'],
        ['x-b', 'plain'],
      ],
      Buffer.from('{"n": "{{tok_j | json: \'$.number\'}}"}'),
      'application/json',
    );
    expect([...json]).toEqual(['tok_h', "tok_j | json: '$.number'"]);
    expect([...ownExpressions([], Buffer.from('a=%7B%7B+tok_f+%7D%7D'), 'application/x-www-form-urlencoded')]).toEqual(['tok_f']);
    expect([...ownExpressions([], Buffer.from('x {{ tok_t }} y'), 'text/plain')]).toEqual(['tok_t']);
  });

  it('reads no expression in a binary body, and ignores a malformed one (the detokenizer refuses it)', () => {
    expect([...ownExpressions([], Buffer.from('{{ tok_b }}'), 'application/octet-stream')]).toEqual([]);
    expect([
      ...ownExpressions(
        [
          ['x-a', '{{ not an id }}'],
          ['x-b', '{{ tok_ok }}'],
        ],
        Buffer.alloc(0),
        undefined,
      ),
    ]).toEqual(['tok_ok']);
  });
});

describe('onlyOwnExpressions', () => {
  const own = new Set(['tok_1', "tok_2 | json: '$.n'"]);

  it("lets the caller's own expressions through wherever they are, however spaced", () => {
    expect(() => onlyOwnExpressions({ body: { a: '{{tok_1}}' }, headers: ["{{ tok_2 |  json: '$.n' }}"] }, own)).not.toThrow();
    expect(() => onlyOwnExpressions({ body: 'no expressions' }, own)).not.toThrow();
  });

  it('refuses with 403 an expression the caller did not write: another token, or its own token with other filters', () => {
    for (const payload of [{ headers: ['{{ tok_3 }}'] }, { body: { a: '{{ tok_2 }}' } }, { body: "{{ tok_1 | json: '$.n' }}" }]) {
      let caught: unknown;
      try {
        onlyOwnExpressions(payload, own);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(ProblemError);
      expect((caught as ProblemError).status).toBe(403);
    }
  });
});
