/**
 * Issue 23: every request body is validated once, at the gateway, by its contract class (libs/contracts), members the
 * class does not declare dropped. For each of the 17 bodies: a bad body rejected with the 400 problem the services
 * gave (errors by field path), an unknown member dropped (or, where the contract refuses rather than drops, refused),
 * and the precedence of the errors that come before the body: a key without the route's permission (or, for
 * POST /sessions/authorize, a key that is not a private application's) still gets its 403 with a bad body, and a
 * merge patch in the wrong content type its 415.
 */
import { randomUUID } from 'node:crypto';
import { api, apiDynamic, createTenant, type TestTenant } from '@coffer/testing';
import { formulaCode, privateFormula } from '../reactors/support';

jest.setTimeout(180_000);

const MERGE_PATCH = 'application/merge-patch+json';
const CODE = formulaCode('return { raw: { args: req.args } };');

/** a document one level deeper than the JSON limits allow (libs/contracts json-limits) */
function tooDeep(): unknown {
  let deep: unknown = 'x';
  for (let i = 0; i < 70; i++) deep = { d: deep };
  return deep;
}

describe('edge validation of request bodies', () => {
  let tenant: TestTenant;
  let mk: string;
  /** token:create, read, update, search, use */
  let tokens: string;
  /** token:read only: lacks every permission of the body routes but detokenize's */
  let reader: string;
  /** token:create only: lacks detokenize's token:use and token:read */
  let creator: string;
  let publicKey: string;
  let appId: string;
  let tokenId: string;
  let formulaId: string;
  let reactorId: string;

  beforeAll(async () => {
    tenant = await createTenant('edge-validation');
    mk = tenant.managementKey;
    tokens = (await tenant.app('private', { permissions: ['token:create', 'token:read', 'token:update', 'token:search', 'token:use'] })).key;
    reader = (await tenant.app('private', { permissions: ['token:read'] })).key;
    creator = (await tenant.app('private', { permissions: ['token:create'] })).key;
    publicKey = (await tenant.app('public', { permissions: ['token:create'] })).key;
    appId = (await tenant.app('private', { permissions: ['token:read'] })).id;
    const token = await api('POST', '/tokens', { key: tokens, body: { type: 'token', data: 'edge' } });
    tokenId = token.body.id;
    const formula = await api('POST', '/reactor-formulas', { key: mk, body: privateFormula({ code: CODE }) });
    formulaId = formula.body.id;
    const reactor = await api('POST', '/reactors', { key: mk, body: { name: 'edge', code: CODE } });
    expect(reactor.status).toBe(201);
    reactorId = reactor.body.id;
  });

  interface Route {
    /** a key that may use the route */
    key: () => string;
    method: 'POST' | 'PUT' | 'PATCH';
    path: () => string;
    /** a key without the route's permission */
    without: () => string;
    contentType?: string;
    /** a body refused at the edge, and the field paths of its 400 */
    bad: { body: unknown; errors?: string[]; detail?: string };
    /**
     * tokenize and detokenize take any JSON: their only edge rule, the JSON limits, is the body parser's, which runs
     * before any guard (as it always did). The precedence is shown with a body their service refuses instead.
     */
    badAfterGuards?: unknown;
  }

  const unknownId = randomUUID();
  const ROUTES: Record<string, Route> = {
    'POST /tokens': {
      key: () => tokens,
      method: 'POST',
      path: () => '/tokens',
      without: () => reader,
      bad: { body: { type: 'token', data: 'x', metadata: { k: 'a\u0000b' } }, errors: ['metadata.k'] },
    },
    'PATCH /tokens/{id}': {
      key: () => tokens,
      method: 'PATCH',
      // an id no token has: the 400 comes from the edge, before token-service would answer 404
      path: () => `/tokens/${unknownId}`,
      without: () => reader,
      contentType: MERGE_PATCH,
      bad: { body: { colour: 'red' }, errors: ['colour'] },
    },
    'POST /tokens/search': {
      key: () => tokens,
      method: 'POST',
      path: () => '/tokens/search',
      without: () => reader,
      bad: { body: { size: 500 }, errors: ['query', 'size'], detail: 'The search request is invalid' },
    },
    'POST /v2/tokens/search': {
      key: () => tokens,
      method: 'POST',
      path: () => '/v2/tokens/search',
      without: () => reader,
      bad: { body: { page: 2 }, errors: ['page'], detail: 'The search request is invalid' },
    },
    'POST /tokenize': {
      key: () => tokens,
      method: 'POST',
      path: () => '/tokenize',
      without: () => reader,
      bad: { body: tooDeep() },
      badAfterGuards: { card: { type: 'card_number', data: '1234' } },
    },
    'POST /detokenize': {
      key: () => tokens,
      method: 'POST',
      path: () => '/detokenize',
      without: () => creator,
      bad: { body: tooDeep() },
      badAfterGuards: { t: '{{ 3c5d0a1e-8d2f-4a55-8f0e-8b6a4c113d3b }}' },
    },
    'POST /applications': {
      key: () => mk,
      method: 'POST',
      path: () => '/applications',
      without: () => reader,
      bad: { body: { name: '', type: 'admin' }, errors: ['name', 'type'] },
    },
    'PUT /applications/{id}': {
      key: () => mk,
      method: 'PUT',
      path: () => `/applications/${unknownId}`,
      without: () => reader,
      bad: { body: { name: '', permissions: 'token:read' }, errors: ['name', 'permissions'] },
    },
    'PUT /tenants/self': {
      key: () => mk,
      method: 'PUT',
      path: () => '/tenants/self',
      without: () => reader,
      bad: { body: { settings: { deduplicate_tokens: 'yes' } }, errors: ['settings.deduplicate_tokens'] },
    },
    'POST /reactors': {
      key: () => mk,
      method: 'POST',
      path: () => '/reactors',
      without: () => reader,
      bad: { body: { name: 'r', code: CODE, formula: { id: unknownId }, configuration: {} }, errors: ['code', 'formula'] },
    },
    'PUT /reactors/{id}': {
      key: () => mk,
      method: 'PUT',
      path: () => `/reactors/${unknownId}`,
      without: () => reader,
      bad: { body: { name: '', configuration: {} }, errors: ['name'] },
    },
    'PATCH /reactors/{id}': {
      key: () => mk,
      method: 'PATCH',
      path: () => `/reactors/${unknownId}`,
      without: () => reader,
      contentType: MERGE_PATCH,
      bad: { body: ['not', 'an', 'object'], detail: 'The request body must be a JSON object' },
    },
    'POST /reactors/{id}/react': {
      key: () => tokens,
      method: 'POST',
      path: () => `/reactors/${unknownId}/react`,
      without: () => reader,
      bad: { body: { callbackUrl: 'https://a.example.com/', callback_url: 'https://b.example.com/' }, errors: ['callbackUrl', 'callback_url'] },
    },
    'POST /reactors/{id}/react-async': {
      key: () => tokens,
      method: 'POST',
      path: () => `/reactors/${unknownId}/react-async`,
      without: () => reader,
      bad: { body: { args: {}, callback_url: 'https://a.example.com/' }, errors: ['callback_url'] },
    },
    'POST /reactor-formulas': {
      key: () => mk,
      method: 'POST',
      path: () => '/reactor-formulas',
      without: () => reader,
      bad: { body: { name: 'f', code: CODE, type: 'official' }, errors: ['type'] },
    },
    'PUT /reactor-formulas/{id}': {
      key: () => mk,
      method: 'PUT',
      path: () => `/reactor-formulas/${unknownId}`,
      without: () => reader,
      bad: { body: { name: 'f', code: CODE, type: 'official' }, errors: ['type'] },
    },
    'POST /sessions/authorize': {
      key: () => tokens,
      method: 'POST',
      path: () => '/sessions/authorize',
      without: () => publicKey,
      bad: { body: { nonce: 5, permissions: 'token:create' }, errors: ['nonce', 'permissions'] },
    },
  };

  const send = (route: Route, key: string, body: unknown, contentType = route.contentType) =>
    apiDynamic(route.method, route.path(), { key, body, ...(contentType ? { contentType } : {}) });

  it('covers every route that takes a body (17)', () => {
    expect(Object.keys(ROUTES)).toHaveLength(17);
  });

  describe.each(Object.keys(ROUTES))('%s', (name) => {
    it('a bad body is a 400 problem naming each bad field, from the edge', async () => {
      const route = ROUTES[name];
      const res = await send(route, route.key(), route.bad.body);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 400, title: expect.any(String) });
      if (route.bad.detail) expect(res.body.detail).toBe(route.bad.detail);
      if (route.bad.errors) expect(Object.keys(res.body.errors ?? {}).sort()).toEqual([...route.bad.errors].sort());
    });

    it('a key without the permission gets its 403 even with a bad body', async () => {
      const route = ROUTES[name];
      const bad = route.badAfterGuards ?? route.bad.body;
      if (route.badAfterGuards !== undefined) expect((await send(route, route.key(), bad)).status).toBe(400);
      const res = await send(route, route.without(), bad);
      expect(res.status).toBe(403);
    });

    if (ROUTES[name].contentType) {
      it('a merge patch in another content type is a 415 even with a bad body', async () => {
        const route = ROUTES[name];
        expect((await send(route, route.key(), route.bad.body, 'text/plain')).status).toBe(415);
      });
    }
  });

  describe('unknown members are dropped, every documented member kept', () => {
    it('POST /tokens keeps every field of the spec (and of the SDKs) and drops the rest', async () => {
      const body = {
        id: `edge-${randomUUID()}`,
        type: 'token',
        data: { a: 'b' },
        mask: { a: '{{ data.a }}' },
        containers: ['/general/low/'],
        metadata: { customer: 'c-1' },
        search_indexes: ['{{ data.a }}'],
        fingerprint_expression: '{{ data.a }}',
        deduplicate_token: false,
        expires_at: new Date(Date.now() + 86_400_000).toISOString(),
        colour: 'red',
      };
      const res = await api('POST', '/tokens', { key: tokens, body });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        id: body.id,
        type: 'token',
        data: { a: 'b' },
        mask: body.mask,
        containers: ['/general/low/'],
        metadata: body.metadata,
        search_indexes: body.search_indexes,
        fingerprint_expression: body.fingerprint_expression,
        expires_at: expect.any(String),
      });
      expect(res.body).not.toHaveProperty('colour');
      expect((await api('GET', `/tokens/${body.id}`, { key: tokens })).body).not.toHaveProperty('colour');
    });

    it('PATCH /tokens/{id} refuses a member that is no field of a token (a patch is not silently narrowed)', async () => {
      const res = await api('PATCH', `/tokens/${tokenId}`, { key: tokens, body: { metadata: { a: 'b' }, colour: 'red' }, contentType: MERGE_PATCH });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ colour: ['is not a field that can be updated'] });
      const ok = await api('PATCH', `/tokens/${tokenId}`, { key: tokens, body: { metadata: { a: 'b' } }, contentType: MERGE_PATCH });
      expect(ok.status).toBe(200);
      expect(ok.body.metadata).toEqual({ a: 'b' });
    });

    it('searches ignore members they do not know', async () => {
      expect((await api('POST', '/tokens/search', { key: tokens, body: { query: `id:${tokenId}`, colour: 1 } })).body.data).toHaveLength(1);
      expect((await api('POST', '/v2/tokens/search', { key: tokens, body: { query: `id:${tokenId}`, size: null, colour: 1 } })).body.data).toHaveLength(1);
    });

    it('tokenize and detokenize keep the whole document: any JSON, no member dropped', async () => {
      const tokenized = await api('POST', '/tokenize', { key: tokens, body: { anything: { type: 'token', data: 'x' }, nested: ['y'] } });
      expect(tokenized.status).toBe(200);
      expect(Object.keys(tokenized.body).sort()).toEqual(['anything', 'nested']);
      expect((await api('POST', '/tokenize', { key: tokens, body: 'just a string' })).body).toEqual(expect.any(String));
      const detokenized = await api('POST', '/detokenize', { key: tokens, body: { colour: 'red', t: `{{ ${tokenId} }}` } });
      expect(detokenized.body).toEqual({ colour: 'red', t: 'edge' });
    });

    it('applications, tenants and sessions drop unknown members', async () => {
      const updated = await api('PUT', `/applications/${appId}`, { key: mk, body: { name: 'renamed', permissions: ['token:read'], colour: 'red' } });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ name: 'renamed', permissions: ['token:read'] });
      expect(updated.body).not.toHaveProperty('colour');
      const tenantUpdate = await api('PUT', '/tenants/self', { key: mk, body: { name: 'edge', colour: 'red' } });
      expect(tenantUpdate.status).toBe(200);
      expect(tenantUpdate.body).not.toHaveProperty('colour');
      const session = await api('POST', '/sessions', { key: publicKey });
      const authorized = await api('POST', '/sessions/authorize', {
        key: tokens,
        body: { nonce: session.body.nonce, permissions: ['token:read'], colour: 'red' },
      });
      expect(authorized.status).toBe(200);
    });

    it('reactors and formulas drop unknown members on create, replace, patch and invoke', async () => {
      const created = await api('POST', '/reactors', { key: mk, body: { name: 'dropped', code: CODE, configuration: { K: 'v' }, colour: 'red' } });
      expect(created.status).toBe(201);
      expect(created.body).not.toHaveProperty('colour');
      const fromFormula = await api('POST', '/reactors', {
        key: mk,
        body: { name: 'f', configuration: {}, formula: { id: formulaId, colour: 1 }, colour: 'red' },
      });
      expect(fromFormula.status).toBe(201);
      const replaced = await api('PUT', `/reactors/${created.body.id}`, {
        key: mk,
        body: { name: 'replaced', code: CODE, configuration: { K: 'w' }, colour: 'red' },
      });
      expect(replaced.status).toBe(200);
      expect(replaced.body).toMatchObject({ name: 'replaced', configuration: { K: 'w' } });
      expect(replaced.body).not.toHaveProperty('colour');
      const patched = await api('PATCH', `/reactors/${created.body.id}`, { key: mk, body: { name: 'patched', colour: 'red' }, contentType: MERGE_PATCH });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ name: 'patched', configuration: { K: 'w' } });
      // formula still refused on PUT and PATCH (kept, not dropped: the formula of a reactor cannot change)
      const formulaChange = await api('PATCH', `/reactors/${created.body.id}`, { key: mk, body: { formula: { id: formulaId } }, contentType: MERGE_PATCH });
      expect(formulaChange.status).toBe(400);
      expect(formulaChange.body.errors).toHaveProperty(['formula']);
      const reacted = await api('POST', `/reactors/${reactorId}/react`, { key: tokens, body: { args: { a: 1 }, colour: 'red' } });
      expect(reacted.status).toBe(200);
      expect(reacted.body.raw).toEqual({ args: { a: 1 } });
      const asynchronous = await api('POST', `/reactors/${reactorId}/react-async`, { key: tokens, body: { args: { a: 1 }, colour: 'red' } });
      expect(asynchronous.status).toBe(202);
      const formula = await api('PUT', `/reactor-formulas/${formulaId}`, { key: mk, body: { ...privateFormula({ code: CODE }), colour: 'red' } });
      expect(formula.status).toBe(200);
      expect(formula.body).not.toHaveProperty('colour');
      const newFormula = await api('POST', '/reactor-formulas', { key: mk, body: { ...privateFormula({ code: CODE }), colour: 'red' } });
      expect(newFormula.status).toBe(201);
      expect(newFormula.body).not.toHaveProperty('colour');
    });
  });

  describe('what a bad member is told', () => {
    it('a member left out, null or of the wrong kind hears only what it must be; a value of the right kind every rule it breaks', async () => {
      const reactor = (body: Record<string, unknown>) =>
        api('POST', '/reactors', { key: mk, body: { configuration: { K: 'v' }, formula: { id: formulaId }, ...body } });
      for (const name of [undefined, null, 5]) {
        const res = await reactor(name === undefined ? {} : { name });
        expect({ name, status: res.status, errors: res.body.errors }).toEqual({ name, status: 400, errors: { name: ['is required and must be a string'] } });
      }
      expect((await reactor({ name: '' })).body.errors).toEqual({ name: ['must not be empty'] });
      expect((await reactor({ name: 'n'.repeat(201) })).body.errors).toEqual({ name: ['must be at most 200 characters'] });
      const app = await api('POST', '/applications', { key: mk, body: { type: 'private', permissions: ['token:read'] } });
      expect(app.body.errors).toEqual({ name: ['is required and must be a string'] });
    });

    it("no message repeats the member its path names, nor speaks the validation library's own words", async () => {
      const webhook = await api('POST', '/webhooks', { key: mk, body: { name: 7, url: 'https://hooks.example.com/x', events: [] } });
      expect(webhook.status).toBe(400);
      expect(webhook.body.errors).toEqual({ name: ['is required and must be a string'], events: ['must name at least one event type'] });
      const session = await api('POST', '/sessions', { key: publicKey });
      const authorize = await api('POST', '/sessions/authorize', { key: tokens, body: { nonce: 3, permissions: ['token:read'] } });
      expect(session.status).toBe(201);
      expect(authorize.body.errors).toEqual({ nonce: ['is required and must be a string'] });
    });
  });
});
