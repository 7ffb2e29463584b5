import {
  CodeReactorRequest,
  CreateApplicationRequest,
  NewReactorRequest,
  ProblemError,
  TokenizeRequest,
  UpdateTenantRequest,
  validateContract,
} from '@coffer/contracts';
import { ContractValidationPipe } from './contract-validation.pipe';

const pipe = new ContractValidationPipe();
const body = (metatype: unknown) => ({ type: 'body' as const, metatype: metatype as never });

function problemOf(fn: () => unknown): ProblemError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ProblemError) return err;
    throw err;
  }
  throw new Error('expected a problem');
}

describe('ContractValidationPipe', () => {
  it('answers a bad body with the 400 problem the owning service gives (same paths, same messages)', () => {
    const bad = { name: '', type: 'admin', permissions: 'token:read' };
    const atEdge = problemOf(() => pipe.transform(bad, body(CreateApplicationRequest)));
    const inService = problemOf(() => validateContract(CreateApplicationRequest, bad));
    expect(atEdge.problem).toEqual(inService.problem);
    expect(Object.keys(atEdge.problem.errors ?? {}).sort()).toEqual(['name', 'permissions', 'type']);
  });

  it('refuses what is not a JSON object, and NUL in a stored field, like the service', () => {
    expect(problemOf(() => pipe.transform([], body(UpdateTenantRequest))).problem).toMatchObject({
      status: 400,
      detail: 'The request body must be a JSON object',
    });
    expect(problemOf(() => pipe.transform({ name: 'a\u0000b' }, body(UpdateTenantRequest))).problem.errors).toHaveProperty(['name']);
  });

  it('drops members the contract does not declare and applies its transforms', () => {
    const out = pipe.transform({ name: 'Acme', settings: { deduplicate_tokens: 'TRUE', extra: 1 }, nope: true }, body(UpdateTenantRequest));
    expect(out).toBeInstanceOf(UpdateTenantRequest);
    expect(JSON.parse(JSON.stringify(out))).toEqual({ name: 'Acme', settings: { deduplicate_tokens: true } });
  });

  it('takes an absent body as {} and leaves bodies that are not typed with a contract untouched', () => {
    expect(JSON.parse(JSON.stringify(pipe.transform(undefined, body(UpdateTenantRequest))))).toEqual({});
    const raw = { anything: ['goes'] };
    expect(pipe.transform(raw, body(Object))).toBe(raw);
    expect(pipe.transform(raw, { type: 'query', metatype: CreateApplicationRequest as never })).toBe(raw);
  });

  it('takes the whole body of a document route (tokenize) as its document, whatever JSON it is', () => {
    expect(pipe.transform('4242', body(TokenizeRequest))).toEqual(expect.objectContaining({ payload: '4242' }));
    expect(JSON.parse(JSON.stringify(pipe.transform([1, { a: 'b' }], body(TokenizeRequest))))).toEqual({ payload: [1, { a: 'b' }] });
  });

  it('validates a body of two shapes by the class of its shape', () => {
    expect(pipe.transform({ name: 'r', code: 'module.exports = 1', extra: 1 }, body(NewReactorRequest))).toBeInstanceOf(CodeReactorRequest);
  });
});
