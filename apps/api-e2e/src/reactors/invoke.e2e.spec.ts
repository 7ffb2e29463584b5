import { VISA, api, createTenant, type TestTenant } from '@coffer/testing';
import { formulaCode, importOfficialFormulas, makeReactor } from './support';

jest.setTimeout(60_000);

type Param = { name: string; type: 'string' | 'number' | 'boolean'; optional?: boolean };

/** A formula that echoes what it received. */
const ECHO = formulaCode('return { raw: { args: req.args, configuration: req.configuration, svc: req.svc === null ? null : typeof req.svc.tokens.create } };');

describe('reactor invocation (synchronous)', () => {
  let tenant: TestTenant;
  let mgmt: string;
  /** the invoking application: token:use (+ create/read) */
  let caller: { id: string; key: string };
  let card: { id: string };
  const react = (id: string, body: unknown, key = caller.key) => api('POST', `/reactors/${id}/react`, { key, body });

  /** A reactor of a formula declaring `params`, echoing its args. */
  const echo = async (params: Param[] = []) => (await makeReactor(mgmt, { code: ECHO, request_parameters: params })).reactorId;

  beforeAll(async () => {
    tenant = await createTenant('reactor-invoke');
    mgmt = tenant.managementKey;
    caller = await tenant.app('private', { permissions: ['token:use', 'token:create', 'token:read'] });
    const res = await api('POST', '/tokens', {
      key: caller.key,
      body: { type: 'card', data: { number: VISA, expiration_month: 12, expiration_year: 2031, cvc: '123' } },
    });
    card = res.body;
  });

  it('returns raw as the formula returned it, with the configuration and svc null without an application', async () => {
    const { reactorId } = await makeReactor(mgmt, { code: ECHO, configuration: [{ name: 'api_key', type: 'string' }] }, { configuration: { api_key: 'sk_1' } });
    const res = await react(reactorId, { args: { a: { b: [1, 'two', null, true] } } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ raw: { args: { a: { b: [1, 'two', null, true] } }, configuration: { api_key: 'sk_1' }, svc: null } });
    const noBody = await api('POST', `/reactors/${reactorId}/react`, { key: caller.key });
    expect(noBody.status).toBe(200);
    expect(noBody.body.raw.args).toEqual({});
    const nothing = await makeReactor(mgmt, { code: formulaCode('return {};') });
    const empty = await react(nothing.reactorId, {});
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({});
  });

  it('tokenize: the result is tokenized as the caller when the reactor has no application', async () => {
    const { reactorId } = await makeReactor(mgmt, {
      code: formulaCode("return { raw: { ok: true }, tokenize: { secret: { type: 'token', data: req.args.value }, plain: 'just a string' } };"),
    });
    const res = await react(reactorId, { args: { value: 'tokenize-me' } });
    expect(res.status).toBe(200);
    expect(res.body.raw).toEqual({ ok: true });
    expect(res.body.tokens.secret).toMatchObject({ type: 'token', tenant_id: tenant.tenantId });
    expect(typeof res.body.tokens.plain).toBe('string');
    const stored = await api('GET', `/tokens/${res.body.tokens.secret.id}`, { key: caller.key });
    expect(stored.body.created_by).toBe(caller.id);
    const back = await api('POST', '/detokenize', { key: caller.key, body: { s: `{{ ${res.body.tokens.secret.id} }}`, p: `{{ ${res.body.tokens.plain} }}` } });
    expect(back.body).toEqual({ s: 'tokenize-me', p: 'just a string' });
    const invalid = await makeReactor(mgmt, { code: formulaCode("return { tokenize: { type: 'card', data: { number: '1234' } } };") });
    expect((await react(invalid.reactorId, {})).status).toBe(400);
  });

  it('with an application: svc acts as it, and the result is tokenized as it', async () => {
    const app = await tenant.app('private', { permissions: ['token:create', 'token:read'] });
    const { reactorId } = await makeReactor(
      mgmt,
      {
        code: formulaCode(`
          const created = await req.svc.tokens.create({ type: 'token', data: 'from svc' });
          const read = await req.svc.tokens.retrieve(created.id);
          let missing;
          try { await req.svc.tokens.retrieve('no-such-token'); } catch (e) { missing = { status: e.status, title: e.data && e.data.title }; }
          let denied;
          try { await req.svc.tokens.delete(created.id); } catch (e) { denied = e.status; }
          const listed = await req.svc.tokens.list({ size: 1 });
          return { raw: { id: created.id, created_by: read.created_by, data: read.data, missing, denied, listed: listed.data.length }, tokenize: { t: { type: 'token', data: 'result' } } };
        `),
      },
      { application: { id: app.id } },
    );
    const res = await react(reactorId, {});
    expect(res.status).toBe(200);
    expect(res.body.raw).toMatchObject({ created_by: app.id, missing: { status: 404, title: 'Not Found' }, denied: 403, listed: 1 });
    const stored = await api('GET', `/tokens/${res.body.tokens.t.id}`, { key: caller.key });
    expect(stored.body.created_by).toBe(app.id);
    const echoed = await makeReactor(mgmt, { code: ECHO }, { application: { id: app.id } });
    expect((await react(echoed.reactorId, {})).body.raw.svc).toBe('function');
  });

  it('detokenizes args as the caller: a card injected whole, a part by JSONPath, mixed with plain values', async () => {
    const id = await echo();
    const res = await react(id, {
      args: { card: `{{ ${card.id} }}`, number: `{{ ${card.id} | json: '$.number' }}`, text: `last4 {{ ${card.id} | json: '$.number' | last4 }}`, plain: 7 },
    });
    expect(res.status).toBe(200);
    expect(res.body.raw.args).toEqual({
      card: { number: VISA, expiration_month: 12, expiration_year: 2031, cvc: '123' },
      number: VISA,
      text: 'last4 4242',
      plain: 7,
    });
  });

  it('detokenization errors: unknown token 400, bad expression 400, over 100 tokens 400, a token the caller may not use 403', async () => {
    const id = await echo();
    const unknown = await react(id, { args: { x: '{{ no-such-token }}' } });
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body.errors)).toEqual(['args']);
    expect((await react(id, { args: { x: `{{ ${card.id} | nope }}` } })).status).toBe(400);
    const many: Record<string, string> = {};
    for (let i = 0; i < 101; i++) many[`t${i}`] = `{{ token-${i} }}`;
    const tooMany = await react(id, { args: many });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.detail).toContain('100');
    const generalOnly = await tenant.app('private', { rules: [{ priority: 1, container: '/general/', transform: 'reveal', permissions: ['token:use'] }] });
    const general = await api('POST', '/tokens', { key: caller.key, body: { type: 'token', data: 'fine' } });
    expect((await react(id, { args: { g: `{{ ${general.body.id} }}` } }, generalOnly.key)).status).toBe(200);
    const forbidden = await react(id, { args: { c: `{{ ${card.id} }}` } }, generalOnly.key);
    expect(forbidden.status).toBe(403);
  });

  it('rule 1: no declared parameters keeps any args as given', async () => {
    const id = await echo();
    const args = { deep: { nested: { list: [{ a: 1 }] } }, n: '12', b: 'true' };
    expect((await react(id, { args })).body.raw.args).toEqual(args);
  });

  it('rules 2 and 6: exact, case-sensitive dot paths; undeclared properties removed at every depth; declared values kept whole', async () => {
    const id = await echo([
      { name: 'card.number', type: 'string' },
      { name: 'meta.deep.flag', type: 'boolean', optional: true },
      { name: 'Amount', type: 'number', optional: true },
    ]);
    const res = await react(id, {
      args: { card: `{{ ${card.id} }}`, meta: { deep: { flag: 'TRUE', other: 1 }, drop: true }, amount: 5, extra: 'x' },
    });
    expect(res.status).toBe(200);
    expect(res.body.raw.args).toEqual({ card: { number: VISA }, meta: { deep: { flag: true } } });
  });

  it('rule 3: a missing required parameter is a 400 naming args.<name>; case matters', async () => {
    const id = await echo([
      { name: 'Amount', type: 'number' },
      { name: 'card.number', type: 'string' },
      { name: 'note', type: 'string', optional: true },
    ]);
    const res = await react(id, { args: { amount: 5, card: {} } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ 'args.Amount': ['is required'], 'args.card.number': ['is required'] });
    const none = await react(id, {});
    expect(Object.keys(none.body.errors).sort()).toEqual(['args.Amount', 'args.card.number']);
  });

  it('rule 4: casts to the declared type, or 400', async () => {
    const id = await echo([
      { name: 'nn', type: 'number', optional: true },
      { name: 'bb', type: 'boolean', optional: true },
      { name: 'ss', type: 'string', optional: true },
    ]);
    const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [
        { nn: '42', bb: 'TRUE', ss: 5 },
        { nn: 42, bb: true, ss: '5' },
      ],
      [
        { nn: ' -1.5 ', bb: 'false', ss: true },
        { nn: -1.5, bb: false, ss: 'true' },
      ],
      [
        { nn: 3, bb: '1', ss: 'x' },
        { nn: 3, bb: true, ss: 'x' },
      ],
      [{ bb: 0 }, { bb: false }],
      [{ bb: '0' }, { bb: false }],
    ];
    for (const [args, expected] of cases) {
      const res = await react(id, { args });
      expect(res.status).toBe(200);
      expect(res.body.raw.args).toEqual(expected);
    }
    for (const [args, field] of [
      [{ nn: 'abc' }, 'args.nn'],
      [{ nn: true }, 'args.nn'],
      [{ bb: 'yes' }, 'args.bb'],
      [{ bb: 2 }, 'args.bb'],
      [{ ss: { a: 1 } }, 'args.ss'],
      [{ nn: [1] }, 'args.nn'],
    ] as const) {
      const res = await react(id, { args });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
  });

  it('rules 5 and 7: casts and presence checks run after detokenization; one complex token supplies several parameters', async () => {
    const id = await echo([
      { name: 'card.number', type: 'string' },
      { name: 'card.expiration_month', type: 'string' },
      { name: 'card.expiration_year', type: 'number' },
      { name: 'count', type: 'number' },
    ]);
    const count = await api('POST', '/tokens', { key: caller.key, body: { type: 'token', data: '17' } });
    const res = await react(id, { args: { card: `{{ ${card.id} }}`, count: `{{ ${count.body.id} }}` } });
    expect(res.status).toBe(200);
    expect(res.body.raw.args).toEqual({ card: { number: VISA, expiration_month: '12', expiration_year: 2031 }, count: 17 });
    const word = await api('POST', '/tokens', { key: caller.key, body: { type: 'token', data: 'seventeen' } });
    const bad = await react(id, { args: { card: `{{ ${card.id} }}`, count: `{{ ${word.body.id} }}` } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['args.count']);
    expect(bad.text).not.toContain('seventeen');
  });

  it('validates the request: args an object, timeout_ms 10000–210000, callback_url a public https URL', async () => {
    const id = await echo();
    for (const timeout_ms of [10_000, 210_000]) expect((await react(id, { timeout_ms })).status).toBe(200);
    for (const timeout_ms of [9_999, 210_001, 10_000.5, '10000']) {
      const res = await react(id, { timeout_ms });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual(['timeout_ms']);
    }
    for (const args of ['x', [1], 5]) expect((await react(id, { args })).status).toBe(400);
    const asyncCall = await react(id, { callback_url: 'https://127.0.0.1.nip.invalid/hook' });
    expect(asyncCall.status).toBe(400);
    expect(Object.keys(asyncCall.body.errors)).toEqual(['callback_url']);
  });

  it('404 for an unknown reactor; 403 without token:use', async () => {
    expect((await react('00000000-0000-4000-8000-000000000000', {})).status).toBe(404);
    expect((await react('nope', {})).status).toBe(404);
    const id = await echo();
    expect((await react(id, {}, mgmt)).status).toBe(403);
    const creator = await tenant.app('private', { permissions: ['token:create', 'token:read'] });
    expect((await react(id, {}, creator.key)).status).toBe(403);
  });

  it('thrown error classes map to their statuses and errors', async () => {
    const { reactorId } = await makeReactor(mgmt, {
      code: formulaCode(
        "const rt = require('@coffer/reactor-runtime'); if (req.args.plain) throw new Error('boom'); throw new rt[req.args.cls](req.args.errors);",
      ),
    });
    const cases: Array<[string, number, string]> = [
      ['BadRequestError', 400, 'Bad Request'],
      ['InvalidReactorConfigurationError', 400, 'Invalid Reactor Configuration'],
      ['AuthenticationError', 401, 'Authentication Failed'],
      ['InvalidPaymentMethodError', 402, 'Invalid Payment Method'],
      ['AuthorizationError', 403, 'Forbidden'],
      ['RateLimitError', 429, 'Rate Limit Exceeded'],
      ['ReactorRuntimeError', 500, 'Reactor Runtime Error'],
      ['ServiceUnavailableError', 503, 'Service Unavailable'],
    ];
    for (const [cls, status, detail] of cases) {
      const res = await react(reactorId, { args: { cls, errors: 'why' } });
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body).toMatchObject({ status, detail, errors: { error: ['why'] } });
    }
    const list = await react(reactorId, { args: { cls: 'BadRequestError', errors: ['a', 'b'] } });
    expect(list.body.errors).toEqual({ error: ['a', 'b'] });
    const map = await react(reactorId, { args: { cls: 'BadRequestError', errors: { amount: 'too big', card: ['expired', 'blocked'] } } });
    expect(map.body.errors).toEqual({ amount: ['too big'], card: ['expired', 'blocked'] });
    const plain = await react(reactorId, { args: { plain: true } });
    expect(plain.status).toBe(500);
    expect(plain.body).toMatchObject({ status: 500, detail: 'Reactor Runtime Error' });
  });

  it('CustomHttpResponseError: status, headers and body returned verbatim', async () => {
    const { reactorId } = await makeReactor(mgmt, {
      code: formulaCode(
        "const { CustomHttpResponseError } = require('@basis-theory/basis-theory-reactor-formulas-sdk-js'); throw new CustomHttpResponseError({ status: req.args.status, headers: { 'x-processor': 'acme' }, body: req.args.body });",
      ),
    });
    const teapot = await react(reactorId, { args: { status: 418, body: { declined: true, reason: 'teapot' } } });
    expect(teapot.status).toBe(418);
    expect(teapot.headers.get('x-processor')).toBe('acme');
    expect(teapot.headers.get('content-type')).toContain('application/json');
    expect(teapot.body).toEqual({ declined: true, reason: 'teapot' });
    const created = await react(reactorId, { args: { status: 201, body: [1, 2] } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual([1, 2]);
  });

  it('code that does not load is a 422', async () => {
    for (const code of ['module.exports = async function (req) {', "throw new Error('at load')", 'module.exports = 42;']) {
      const { reactorId } = await makeReactor(mgmt, { code });
      const res = await react(reactorId, {});
      expect(res.status).toBe(422);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
  });

  it('a run over 10 s is a 504', async () => {
    const { reactorId } = await makeReactor(mgmt, { code: formulaCode('for (;;) {}') });
    const started = Date.now();
    const res = await react(reactorId, {});
    expect(res.status).toBe(504);
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_500);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('a reactor whose application was deleted answers 400 until it is updated', async () => {
    const app = await tenant.app('private', { permissions: ['token:create'] });
    const { reactorId } = await makeReactor(mgmt, { code: ECHO }, { application: { id: app.id } });
    expect((await react(reactorId, {})).status).toBe(200);
    expect((await api('DELETE', `/applications/${app.id}`, { key: mgmt })).status).toBe(204);
    const res = await react(reactorId, {});
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain('application');
  });

  it('every invocation is an audit event naming the reactor', async () => {
    const id = await echo();
    await react(id, {});
    await react(id, { args: { x: '{{ no-such-token }}' } });
    // the reactor's own management acts (its create) are recorded too: only its invocations here
    const logs = await api('GET', `/logs?entity_type=reactor&entity_id=${id}&operation=invoke`, { key: mgmt });
    expect(logs.status).toBe(200);
    expect(logs.body.data).toHaveLength(2);
    for (const e of logs.body.data) expect(e).toMatchObject({ operation: 'invoke', entity_type: 'reactor', entity_id: id, actor_application_id: caller.id });
  });

  it('the catalog formula "Forward card" reports an unreachable processor as 503', async () => {
    importOfficialFormulas(); // idempotent: upsert by name
    const f = await api('GET', '/reactor-formulas?name=forward%20card', { key: mgmt });
    expect(f.body.data).toHaveLength(1);
    const r = await api('POST', '/reactors', {
      key: mgmt,
      body: { name: 'forward', configuration: { base_url: 'http://127.0.0.1:9/v1', api_key: 'sk_test' }, formula: { id: f.body.data[0].id } },
    });
    expect(r.status).toBe(201);
    const res = await react(r.body.id, { args: { card: `{{ ${card.id} }}`, amount: '1000', currency: 'usd' } });
    expect(res.status).toBe(503);
    expect(res.text).not.toContain(VISA);
  });
});
