import 'reflect-metadata';
import { ProblemError } from './problem/problem';
import { CreateTokenRequest, UpdateTokenPatch } from './tokens/tokens';
import { validateContract } from './validation';

const outcome = (cls: typeof CreateTokenRequest | typeof UpdateTokenPatch, text: string) => {
  try {
    return validateContract(cls, JSON.parse(text), undefined, { whitelist: true });
  } catch (err) {
    if (err instanceof ProblemError) return { status: err.problem.status, errors: err.problem.errors };
    throw err;
  }
};

/** validateContract's handling of members whose keys are the client's own (keyedFields). */
describe('validateContract: keyed members', () => {
  it("keeps metadata and mask keys named like Object.prototype's members (class-transformer would drop them)", () => {
    const out = outcome(
      CreateTokenRequest,
      '{"type":"token","data":{"toString":"x"},"metadata":{"toString":"a","valueOf":"b"},"mask":{"toString":"{{ data.toString }}"}}',
    );
    expect(out).toBeInstanceOf(CreateTokenRequest);
    expect(JSON.parse(JSON.stringify(out))).toEqual({
      type: 'token',
      data: { toString: 'x' },
      metadata: { toString: 'a', valueOf: 'b' },
      mask: { toString: '{{ data.toString }}' },
    });
    expect(JSON.parse(JSON.stringify(outcome(UpdateTokenPatch, '{"metadata":{"hasOwnProperty":"c"}}')))).toEqual({ metadata: { hasOwnProperty: 'c' } });
  });

  it('refuses a reserved key in them, and text that is not Unicode, as it does in every other member', () => {
    expect(outcome(CreateTokenRequest, '{"type":"token","data":"x","metadata":{"constructor":"y"}}')).toEqual({
      status: 400,
      errors: { 'metadata.constructor': ['is a reserved name: __proto__, constructor and prototype cannot be keys'] },
    });
    expect(outcome(UpdateTokenPatch, '{"mask":{"a":{"__proto__":"{{ data }}"}}}')).toMatchObject({
      status: 400,
      errors: { 'mask.a.__proto__': [expect.any(String)] },
    });
    expect(outcome(CreateTokenRequest, '{"type":"token","data":"x","metadata":{"k":"\\ud800"}}')).toMatchObject({
      status: 400,
      errors: { 'metadata.k': [expect.any(String)] },
    });
    // data is kept as given: its keys and text are the client's
    expect(outcome(CreateTokenRequest, '{"type":"token","data":{"constructor":"\\ud800"}}')).toBeInstanceOf(CreateTokenRequest);
  });
});
