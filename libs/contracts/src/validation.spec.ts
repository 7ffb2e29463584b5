import 'reflect-metadata';
import { ProblemError } from './problem/problem';
import { CreateTokenRequest, UpdateTokenPatch } from './tokens/tokens';
import { CreateReactorRequest } from './reactors/reactors';
import { CreateWebhookRequest } from './webhooks/webhooks';
import { EVENT_TYPES } from './events/events';
import { plainToInstance } from 'class-transformer';
import { IsString, validateSync } from 'class-validator';
import * as contracts from './index';
import { permissiveMembers, validateContract } from './validation';

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

/** A NUL is a field error; the JSON limits' walk stops at the first violation, so what follows it is looked for again. */
describe('validateContract: a NUL and another violation in one body', () => {
  it('refuses a reserved key or a lone surrogate behind a NUL (class-transformer threw on the key: a 500)', () => {
    expect(outcome(CreateTokenRequest, '{"type":"token","data":"x","id":"\\u0000","extra":{"constructor":1}}')).toEqual({
      status: 400,
      errors: { 'extra.constructor': ['is a reserved name: __proto__, constructor and prototype cannot be keys'] },
    });
    expect(outcome(CreateTokenRequest, '{"type":"token","data":"x","id":"\\u0000","metadata":{"__proto__":"v"}}')).toMatchObject({
      status: 400,
      errors: { 'metadata.__proto__': [expect.any(String)] },
    });
    expect(outcome(UpdateTokenPatch, '{"fingerprint_expression":"\\u0000","search_indexes":["\\ud800"]}')).toMatchObject({
      status: 400,
      errors: { 'search_indexes[0]': [expect.any(String)] },
    });
  });

  it('reports the NUL alone as its field error when nothing else is wrong', () => {
    expect(outcome(CreateTokenRequest, '{"type":"token","data":"x","id":"a\\u0000b","metadata":{"k":"v"}}')).toEqual({
      status: 400,
      errors: { id: ['must not contain the NUL character (U+0000)'] },
    });
  });
});

/** Classes whose rules are all `@Allow()` skip validateSync (permissiveMembers): it could find nothing in them. */
describe('validateContract: classes with @Allow() rules only', () => {
  const classes = Object.entries(contracts).filter(([, v]) => typeof v === 'function' && permissiveMembers(v) !== null) as Array<[string, new () => object]>;

  it('include the token create, search and intent requests', () => {
    expect(classes.map(([name]) => name)).toEqual(expect.arrayContaining(['CreateTokenRequest', 'SearchTokensRequest', 'CreateTokenIntentRequest']));
    class Ruled {
      @IsString()
      name!: string;
    }
    expect(permissiveMembers(Ruled)).toBeNull();
  });

  it.each(classes)('%s: class-validator finds no error and keeps exactly the members skipping it keeps', (_name, cls) => {
    const members = [...(permissiveMembers(cls) as ReadonlySet<string>)];
    const plain = { ...Object.fromEntries(members.map((m, i) => [m, i % 2 ? { nested: [i] } : `v${i}`])), undeclared: 1, other: { a: 1 } };
    const instance = plainToInstance(cls, plain);
    expect(validateSync(instance, { forbidUnknownValues: false, whitelist: true })).toEqual([]);
    expect(Object.keys(instance).sort()).toEqual([...members].sort());
  });

  it('drops undeclared members at the edge and keeps the rest as sent', () => {
    const body = { type: 'card', data: { number: '4242424242424242' }, metadata: { toString: 'x' }, containers: ['/pci/'], bogus: { a: 1 } };
    const out = validateContract(CreateTokenRequest, body, undefined, { whitelist: true }) as unknown as Record<string, unknown>;
    expect(out).toBeInstanceOf(CreateTokenRequest);
    expect(out).toEqual({ type: 'card', data: body.data, metadata: { toString: 'x' }, containers: ['/pci/'] });
    expect(out['data']).toBe(body.data);
    // without the whitelist (a service's own check) nothing is dropped
    expect(validateContract(CreateTokenRequest, body)).toHaveProperty('bogus');
  });
});

describe('validateContract: a missing member, or one of the wrong kind', () => {
  const errorsOf = (body: Record<string, unknown>) => {
    try {
      validateContract(CreateReactorRequest, body);
    } catch (err) {
      if (err instanceof ProblemError) return err.problem.errors as Record<string, string[]>;
      throw err;
    }
    return {};
  };

  it('is told what it must be, not its length rules', () => {
    expect(errorsOf({ configuration: {}, formula: { id: '6f1c1f0e-6a3d-4b8e-9d7a-1c2b3d4e5f60' } })['name']).toEqual(['is required and must be a string']);
    expect(errorsOf({ name: null, configuration: {}, formula: { id: '6f1c1f0e-6a3d-4b8e-9d7a-1c2b3d4e5f60' } })['name']).toEqual([
      'is required and must be a string',
    ]);
  });

  it('of the wrong kind is told only what it must be', () => {
    expect(errorsOf({ name: 5, configuration: {}, formula: { id: '6f1c1f0e-6a3d-4b8e-9d7a-1c2b3d4e5f60' } })['name']).toEqual([
      'is required and must be a string',
    ]);
  });

  it('of the right kind hears every rule it breaks, a set of allowed values among them', () => {
    try {
      validateContract(CreateWebhookRequest, { name: 'w', url: 'https://hooks.example.com/x', events: [...EVENT_TYPES, 'nope'] });
      throw new Error('no problem thrown');
    } catch (err) {
      expect(err).toBeInstanceOf(ProblemError);
      const events = ((err as ProblemError).problem.errors as Record<string, string[]>)['events'];
      expect(events).toHaveLength(2);
      expect(events).toContain(`must name at most ${EVENT_TYPES.length} event types`);
    }
  });

  it('still hears every rule a given value breaks', () => {
    expect(errorsOf({ name: '', configuration: {}, formula: { id: '6f1c1f0e-6a3d-4b8e-9d7a-1c2b3d4e5f60' } })['name']).toEqual(['must not be empty']);
    expect(errorsOf({ name: 'x'.repeat(201), configuration: {}, formula: { id: '6f1c1f0e-6a3d-4b8e-9d7a-1c2b3d4e5f60' } })['name']).toEqual([
      'must be at most 200 characters',
    ]);
  });
});

describe("validateContract: class-validator's own messages", () => {
  class Named {
    @IsString()
    label!: string;
  }

  it('do not repeat the member the path already names', () => {
    try {
      validateContract(Named, { label: 5 });
      throw new Error('no problem thrown');
    } catch (err) {
      expect(err).toBeInstanceOf(ProblemError);
      expect((err as ProblemError).problem.errors).toEqual({ label: ['must be a string'] });
    }
  });
});
