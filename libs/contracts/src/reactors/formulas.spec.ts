import { FieldErrors } from '../problem/problem';
import { checkFormulaElements } from './formulas';

function check(body: Record<string, unknown>) {
  const errors = new FieldErrors();
  const out = checkFormulaElements(body, errors);
  return { out, errors: errors.toRecord() };
}

describe('checkFormulaElements', () => {
  it('defaults both arrays to [] and normalizes optional', () => {
    expect(check({}).out).toEqual({ configuration: [], request_parameters: [] });
    const { out, errors } = check({
      configuration: [{ name: 'api_key', type: 'string', description: 'key', extra: 1 }],
      request_parameters: [
        { name: 'card.number', type: 'string' },
        { name: 'amount', type: 'number', optional: true },
      ],
    });
    expect(errors).toEqual({});
    expect(out).toEqual({
      configuration: [{ name: 'api_key', type: 'string', description: 'key' }],
      request_parameters: [
        { name: 'card.number', type: 'string', optional: false },
        { name: 'amount', type: 'number', optional: true },
      ],
    });
  });

  it('tells a bad request-parameter name the pattern it must match, the one the API documents', () => {
    expect(check({ request_parameters: [{ name: 'y', type: 'string' }] }).errors).toEqual({
      'request_parameters[0].name': ['must match ^[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9]$ (dots separate nested names)'],
    });
  });

  it('names every bad element by path', () => {
    const { errors } = check({
      configuration: [{ name: 'a.b', type: 'string' }, { name: 'x', type: 'object' }, { name: 'x', type: 'number' }, 'nope', { type: 'string' }],
      request_parameters: [
        { name: '-bad', type: 'string' },
        { name: 'ok1', type: 'string', optional: 'yes' },
        { name: 'a..b', type: 'string' },
      ],
    });
    expect(Object.keys(errors).sort()).toEqual(
      [
        'configuration[0].name',
        'configuration[1].type',
        'configuration[2].name',
        'configuration[3]',
        'configuration[4].name',
        'request_parameters[0].name',
        'request_parameters[1].optional',
        'request_parameters[2].name',
      ].sort(),
    );
  });

  it('limits each array to 25 elements and refuses non-arrays', () => {
    const many = Array.from({ length: 26 }, (_, i) => ({ name: `p${i}`, type: 'string' }));
    expect(check({ configuration: many, request_parameters: many }).errors).toEqual({
      configuration: ['must contain at most 25 elements'],
      request_parameters: ['must contain at most 25 elements'],
    });
    expect(check({ configuration: {} }).errors).toEqual({ configuration: ['must be an array'] });
  });

  it('refuses a parameter nested under another and reserved names', () => {
    const { errors } = check({
      request_parameters: [
        { name: 'card', type: 'string' },
        { name: 'card.number', type: 'string' },
        { name: 'a.__proto__.b', type: 'string' },
      ],
    });
    expect(Object.keys(errors).sort()).toEqual(['request_parameters[1].name', 'request_parameters[2].name']);
  });
});

describe('ReactorFormulaRequest', () => {
  // imported here so the block above stays about checkFormulaElements alone
  const { ReactorFormulaRequest } = jest.requireActual('./formulas') as typeof import('./formulas');
  const { validateContract } = jest.requireActual('../validation') as typeof import('../validation');

  it("reports the elements' errors after its own, by path, and keeps the elements when valid", () => {
    let problem: { errors?: Record<string, string[]> } | undefined;
    try {
      validateContract(ReactorFormulaRequest, { name: '', type: 'official', code: 'x', configuration: [{ name: 'a.b', type: 'string' }] });
    } catch (err) {
      problem = (err as { problem: typeof problem }).problem;
    }
    expect(Object.keys(problem?.errors ?? {}).sort()).toEqual(['configuration[0].name', 'name', 'type']);
    expect(Object.keys(problem?.errors ?? {}).pop()).toBe('configuration[0].name');
    const ok = validateContract(
      ReactorFormulaRequest,
      { name: 'f', type: 'private', code: 'x', configuration: [{ name: 'k', type: 'string' }], extra: 1 },
      undefined,
      { whitelist: true },
    );
    expect(JSON.parse(JSON.stringify(ok))).toEqual({ name: 'f', type: 'private', code: 'x', configuration: [{ name: 'k', type: 'string' }] });
  });
});
