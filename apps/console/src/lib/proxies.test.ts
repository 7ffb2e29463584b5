import { describe, expect, it } from 'vitest';
import { ApiError, errorsFor, toProblem } from './problem';
import { configRow, configurationOf, initialProxyForm, maskKey, parseTransforms, proxyBody, transformCount, type ProxyView } from './proxies';

const PROXY: ProxyView = {
  id: 'p1',
  key: '5fb69e3b7de82496bc5eadf8151d955f',
  tenant_id: 't1',
  name: 'Processor',
  destination_url: 'https://api.processor.example/v1',
  request_transforms: [{ type: 'append_header', options: { location: 'Authorization', value: 'Bearer {{ configuration.API_KEY }}' } }],
  response_transforms: [],
  application_id: 'a1',
  configuration: { API_KEY: 'sk_live_1', EMPTY: null },
  require_auth: false,
  disable_detokenization: true,
  state: 'active',
  created_at: '2026-11-26T00:00:00Z',
};

const thrown = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err.problem;
    throw err;
  }
  throw new Error('nothing thrown');
};

describe('the proxy form', () => {
  it('sends every member of a stored proxy back as it was (PUT replaces everything but the key)', () => {
    const form = initialProxyForm(PROXY);
    expect(form.config.map((r) => [r.name, r.value])).toEqual([
      ['API_KEY', 'sk_live_1'],
      ['EMPTY', ''],
    ]);
    expect(proxyBody(form)).toEqual({
      name: 'Processor',
      destination_url: 'https://api.processor.example/v1',
      require_auth: false,
      disable_detokenization: true,
      application: { id: 'a1' },
      configuration: { API_KEY: 'sk_live_1', EMPTY: '' },
      request_transforms: PROXY.request_transforms,
      response_transforms: [],
    });
  });

  it('starts a new proxy with the defaults: an API key required, detokenization on, no transforms', () => {
    const form = initialProxyForm(null);
    expect(form).toMatchObject({ requireAuth: true, disableDetokenization: false, requestTransforms: '[]', responseTransforms: '[]' });
    expect(form.config).toHaveLength(1);
    expect(proxyBody({ ...form, name: 'n', destinationUrl: ' https://x.example ' })).toMatchObject({
      destination_url: 'https://x.example',
      application: null,
      configuration: {},
      request_transforms: [],
    });
  });

  it('checks the transforms as JSON arrays of objects before anything is sent, by field', () => {
    const errors: Record<string, string[]> = {};
    expect(parseTransforms('', 'request_transforms', errors)).toEqual([]);
    parseTransforms('{"type":"code"}', 'request_transforms', errors);
    parseTransforms('[{"type": ', 'response_transforms', errors);
    expect(errors['request_transforms']).toEqual([expect.stringContaining('must be a JSON array')]);
    expect(errors['response_transforms']).toEqual([expect.stringContaining('must be JSON')]);
    const items: Record<string, string[]> = {};
    parseTransforms('[{"type":"code"}, 3, null]', 'request_transforms', items);
    expect(items['request_transforms']).toEqual(['[1] must be an object with a type', '[2] must be an object with a type']);

    const problem = thrown(() => proxyBody({ ...initialProxyForm(null), requestTransforms: 'nope' }));
    expect(problem).toMatchObject({ status: 0, errors: { request_transforms: [expect.stringContaining('must be JSON')] } });
  });

  it('turns configuration rows into an object: blank rows left out, nameless or repeated names refused', () => {
    const errors: Record<string, string[]> = {};
    expect(configurationOf([configRow('A', '1'), configRow('', ''), configRow(' B ', '2')], errors)).toEqual({ A: '1', B: '2' });
    expect(errors).toEqual({});
    configurationOf([configRow('A', '1'), configRow('', 'x'), configRow('A', '2')], errors);
    expect(errors['configuration']).toEqual(['entry 2 needs a name', 'A is given twice']);
  });

  it('masks a key but its last four characters, and counts both directions of transforms', () => {
    expect(maskKey(PROXY.key)).toBe(`${'•'.repeat(28)}955f`);
    expect(maskKey('abc')).toBe('••••');
    expect(transformCount(PROXY)).toBe(1);
    expect(transformCount({ request_transforms: [{}, {}], response_transforms: [{}] })).toBe(3);
  });
});

describe('field errors of a problem', () => {
  const problem = toProblem(400, {
    title: 'Bad Request',
    status: 400,
    errors: {
      destination_url: ['must use https'],
      'configuration.API_KEY': ['must be a string'],
      'request_transforms[1].expression': ['must be a JSONPath starting with $'],
      request_transforms_other: ['not this one'],
    },
  });

  it('gives each field its own messages, naming the member for nested ones', () => {
    expect(errorsFor(problem, 'destination_url')).toEqual(['must use https']);
    expect(errorsFor(problem, 'configuration')).toEqual(['API_KEY: must be a string']);
    expect(errorsFor(problem, 'request_transforms')).toEqual(['[1].expression: must be a JSONPath starting with $']);
    expect(errorsFor(problem, 'name')).toEqual([]);
    expect(errorsFor(null, 'name')).toEqual([]);
  });
});
