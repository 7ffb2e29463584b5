import { ProblemError } from '@coffer/contracts';
import { normalizeReactBody } from './react-body';

describe('react body aliases', () => {
  it('reads callbackUrl and timeoutMs as the snake_case fields', () => {
    expect(normalizeReactBody({ args: { a: 1 }, callbackUrl: 'https://x', timeoutMs: 20000 })).toEqual({
      args: { a: 1 },
      callback_url: 'https://x',
      timeout_ms: 20000,
    });
    expect(normalizeReactBody({ args: {}, callback_url: 'https://x' })).toEqual({ args: {}, callback_url: 'https://x' });
  });

  it('accepts both spellings with the same value, refuses different values naming both', () => {
    expect(normalizeReactBody({ timeoutMs: 10000, timeout_ms: 10000 })).toEqual({ timeout_ms: 10000 });
    try {
      normalizeReactBody({ callbackUrl: 'https://a', callback_url: 'https://b' });
      throw new Error('expected a 400');
    } catch (err) {
      expect((err as ProblemError).problem).toMatchObject({ status: 400, errors: { callback_url: [expect.any(String)], callbackUrl: [expect.any(String)] } });
    }
  });

  it('leaves anything but an object to the reactor service', () => {
    expect(normalizeReactBody(undefined)).toBeUndefined();
    expect(normalizeReactBody([1])).toEqual([1]);
  });
});
