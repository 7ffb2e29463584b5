import { applyMergePatch } from './merge-patch';
import { ProblemError } from './problem/problem';

const problemOf = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    if (err instanceof ProblemError) return { status: err.problem.status, errors: err.problem.errors };
    throw err;
  }
  return null;
};

describe('applyMergePatch (RFC 7386)', () => {
  it('merges objects, removes members patched with null and replaces everything else', () => {
    expect(applyMergePatch({ a: 1, b: { c: 2, d: 3 }, e: [1] }, { b: { c: null, x: 4 }, e: [2], f: 'new' })).toEqual({
      a: 1,
      b: { d: 3, x: 4 },
      e: [2],
      f: 'new',
    });
    expect(applyMergePatch({ a: 1 }, 'scalar')).toBe('scalar');
  });

  it('refuses a patch naming a reserved key at any depth, naming it under the root, instead of stopping there without a word', () => {
    // json-merge-patch itself returns at such a key, leaving every member after it unapplied
    for (const [patch, path] of [
      ['{"constructor":null,"b":2}', 'data.constructor'],
      ['{"b":2,"x":{"__proto__":{"polluted":true}}}', 'data.x.__proto__'],
      ['{"prototype":1}', 'data.prototype'],
    ] as const) {
      expect(problemOf(() => applyMergePatch({ a: 1 }, JSON.parse(patch), 'data'))).toEqual({
        status: 400,
        errors: { [path]: ['is a reserved name: __proto__, constructor and prototype cannot be keys'] },
      });
    }
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('leaves reserved names inside arrays alone: an array replaces what it patches, as a value', () => {
    expect(applyMergePatch({ a: 1 }, JSON.parse('{"list":[{"constructor":"c"}]}'))).toEqual(JSON.parse('{"a":1,"list":[{"constructor":"c"}]}'));
  });
});
