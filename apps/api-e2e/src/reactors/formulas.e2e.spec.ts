import { api, createTenant, type TestTenant } from '@coffer/testing';
import { formulaCode, importOfficialFormulas, privateFormula } from './support';

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('reactor formulas', () => {
  let tenant: TestTenant;
  let key: string;
  beforeAll(async () => {
    tenant = await createTenant('formulas');
    key = tenant.managementKey;
  });

  it('creates a private formula: 201, status verified, defaults, and reads it back', async () => {
    const body = {
      name: 'Charge card',
      description: 'forwards a card',
      type: 'private',
      icon: PNG,
      code: formulaCode('return { raw: req.args };'),
      configuration: [
        { name: 'api_key', description: 'secret', type: 'string' },
        { name: 'live', type: 'boolean' },
      ],
      request_parameters: [
        { name: 'card.number', type: 'string' },
        { name: 'amount', type: 'number', optional: true, description: 'cents' },
      ],
      status: 'coming_soon', // not part of the request: ignored
    };
    const res = await api('POST', '/reactor-formulas', { key, body });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Charge card',
      description: 'forwards a card',
      type: 'private',
      status: 'verified',
      icon: PNG,
      code: body.code,
      configuration: [
        { name: 'api_key', description: 'secret', type: 'string' },
        { name: 'live', type: 'boolean' },
      ],
      request_parameters: [
        { name: 'card.number', type: 'string', optional: false },
        { name: 'amount', type: 'number', optional: true, description: 'cents' },
      ],
    });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.created_at).toBeDefined();
    expect(res.body.created_by).toBeDefined();
    expect(res.body.modified_at).toBeUndefined();
    const got = await api('GET', `/reactor-formulas/${res.body.id}`, { key });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);

    const minimal = await api('POST', '/reactor-formulas', { key, body: { name: 'minimal', type: 'private', code: 'module.exports = async () => ({})' } });
    expect(minimal.status).toBe(201);
    expect(minimal.body).toMatchObject({ configuration: [], request_parameters: [] });
    expect(minimal.body.description).toBeUndefined();
  });

  it('refuses official and unknown types', async () => {
    for (const type of ['official', 'public', undefined]) {
      const res = await api('POST', '/reactor-formulas', { key, body: privateFormula({ type }) });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual(['type']);
    }
  });

  it('lists every offending field by path', async () => {
    const res = await api('POST', '/reactor-formulas', {
      key,
      body: {
        name: 'x'.repeat(201),
        description: 5,
        type: 'private',
        icon: 'data:image/gif;base64,R0lGOD==',
        code: 'x'.repeat(50_001),
        configuration: [{ name: 'a.b', type: 'string' }, { name: 'ok', type: 'date' }, { name: 'ok', type: 'number' }, { type: 'string' }],
        request_parameters: [
          { name: '.bad', type: 'string' },
          { name: 'p1', type: 'number', optional: 'no' },
          { name: 'p1', type: 'string' },
        ],
      },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(Object.keys(res.body.errors).sort()).toEqual(
      [
        'name',
        'description',
        'icon',
        'code',
        'configuration[0].name',
        'configuration[1].type',
        'configuration[2].name',
        'configuration[3].name',
        'request_parameters[0].name',
        'request_parameters[1].optional',
        'request_parameters[2].name',
      ].sort(),
    );
    const missing = await api('POST', '/reactor-formulas', { key, body: {} });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.errors).sort()).toEqual(['code', 'name', 'type']);
    expect((await api('POST', '/reactor-formulas', { key, body: [] })).status).toBe(400);
  });

  it('enforces the limits: 25 elements, parameter name pattern, nesting under a typed parameter, icon types', async () => {
    const many = Array.from({ length: 26 }, (_, i) => ({ name: `n${i}`, type: 'string' }));
    const tooMany = await api('POST', '/reactor-formulas', { key, body: privateFormula({ configuration: many, request_parameters: many }) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors).toEqual({ configuration: ['must contain at most 25 elements'], request_parameters: ['must contain at most 25 elements'] });
    const exactly25 = await api('POST', '/reactor-formulas', {
      key,
      body: privateFormula({ configuration: many.slice(0, 25), request_parameters: many.slice(0, 25) }),
    });
    expect(exactly25.status).toBe(201);
    const names = await api('POST', '/reactor-formulas', {
      key,
      body: privateFormula({
        request_parameters: [
          { name: 'ab', type: 'string' },
          { name: 'ab.cd', type: 'string' },
          { name: 'x_', type: 'string' },
          { name: 'y', type: 'string' }, // the pattern needs two characters at least
          { name: 'ok-name.with_under.9', type: 'string' },
        ],
      }),
    });
    expect(names.status).toBe(400);
    expect(Object.keys(names.body.errors).sort()).toEqual(['request_parameters[1].name', 'request_parameters[2].name', 'request_parameters[3].name']);
    for (const icon of ['data:image/jpeg;base64,/9j/4AAQ', 'data:image/jpg;base64,/9j/4AAQ']) {
      expect((await api('POST', '/reactor-formulas', { key, body: privateFormula({ icon }) })).status).toBe(201);
    }
    for (const icon of ['https://example.com/x.png', 'data:image/svg+xml;base64,PHN2Zz4=', 'data:image/png;base64,not base64!']) {
      expect((await api('POST', '/reactor-formulas', { key, body: privateFormula({ icon }) })).status).toBe(400);
    }
    expect((await api('POST', '/reactor-formulas', { key, body: privateFormula({ code: 'x'.repeat(50_000) }) })).status).toBe(201);
    expect((await api('POST', '/reactor-formulas', { key, body: privateFormula({ name: 'n'.repeat(200) }) })).status).toBe(201);
  });

  it('PUT replaces with the same rules and sets modified_by/modified_at; DELETE 204 then 404', async () => {
    const created = await api('POST', '/reactor-formulas', { key, body: privateFormula({ description: 'old' }) });
    const put = await api('PUT', `/reactor-formulas/${created.body.id}`, {
      key,
      body: { name: 'renamed', type: 'private', code: formulaCode('return {};'), request_parameters: [{ name: 'p1', type: 'boolean' }] },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      id: created.body.id,
      name: 'renamed',
      status: 'verified',
      configuration: [],
      request_parameters: [{ name: 'p1', type: 'boolean', optional: false }],
    });
    expect(put.body.description).toBeUndefined();
    expect(put.body.modified_at).toBeDefined();
    expect(put.body.modified_by).toBeDefined();
    expect(put.body.created_at).toBe(created.body.created_at);
    const bad = await api('PUT', `/reactor-formulas/${created.body.id}`, { key, body: { name: 'x', type: 'official', code: 'c', configuration: 'no' } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['configuration', 'type']);
    expect((await api('PUT', '/reactor-formulas/00000000-0000-4000-8000-000000000000', { key, body: privateFormula() })).status).toBe(404);
    expect((await api('DELETE', `/reactor-formulas/${created.body.id}`, { key })).status).toBe(204);
    expect((await api('GET', `/reactor-formulas/${created.body.id}`, { key })).status).toBe(404);
    expect((await api('DELETE', `/reactor-formulas/${created.body.id}`, { key })).status).toBe(404);
    expect((await api('GET', '/reactor-formulas/not-a-uuid', { key })).status).toBe(404);
  });

  it('a formula in use by a reactor cannot be deleted (409) until the reactor is gone', async () => {
    const f = await api('POST', '/reactor-formulas', { key, body: privateFormula() });
    const r = await api('POST', '/reactors', { key, body: { name: 'user', configuration: {}, formula: { id: f.body.id } } });
    expect(r.status).toBe(201);
    const del = await api('DELETE', `/reactor-formulas/${f.body.id}`, { key });
    expect(del.status).toBe(409);
    expect(del.body).toMatchObject({ status: 409, title: 'Conflict' });
    expect((await api('DELETE', `/reactors/${r.body.id}`, { key })).status).toBe(204);
    expect((await api('DELETE', `/reactor-formulas/${f.body.id}`, { key })).status).toBe(204);
  });

  it('lists newest first with page/size and cursor pagination, name filters with * wildcards', async () => {
    const tag = `zq${Date.now().toString(36)}`;
    const ids: string[] = [];
    for (const suffix of ['Alpha One', 'alpha two', 'Beta', 'ALPHA three', '100%_real']) {
      const res = await api('POST', '/reactor-formulas', { key, body: privateFormula({ name: `${tag} ${suffix}` }) });
      ids.unshift(res.body.id);
    }
    const all = await api('GET', `/reactor-formulas?name=${tag}&size=100`, { key });
    expect(all.status).toBe(200);
    expect(all.body.pagination).toEqual({ total_items: 5, page_number: 1, page_size: 100, total_pages: 1 });
    expect(all.body.data.map((f: { id: string }) => f.id)).toEqual(ids);
    const alpha = await api('GET', `/reactor-formulas?name=${tag.toUpperCase()}%20ALPHA`, { key });
    expect(alpha.body.data.map((f: { name: string }) => f.name).sort()).toEqual([`${tag} ALPHA three`, `${tag} Alpha One`, `${tag} alpha two`].sort());
    const wildcard = await api('GET', `/reactor-formulas?name=${tag}*a*e`, { key });
    expect(wildcard.body.data.map((f: { name: string }) => f.name).sort()).toEqual([`${tag} ALPHA three`, `${tag} Alpha One`].sort());
    // % and _ are literal characters, not SQL wildcards
    const literal = await api('GET', `/reactor-formulas?name=${encodeURIComponent('100%_')}`, { key });
    expect(literal.body.data.map((f: { name: string }) => f.name)).toEqual([`${tag} 100%_real`]);
    expect((await api('GET', `/reactor-formulas?name=${encodeURIComponent('0%r')}`, { key })).body.data).toEqual([]);

    const page2 = await api('GET', `/reactor-formulas?name=${tag}&page=2&size=2`, { key });
    expect(page2.body.pagination).toEqual({ total_items: 5, page_number: 2, page_size: 2, total_pages: 3 });
    expect(page2.body.data.map((f: { id: string }) => f.id)).toEqual(ids.slice(2, 4));

    const seen: string[] = [];
    let start = '';
    for (let i = 0; i < 5; i++) {
      const res = await api('GET', `/reactor-formulas?name=${tag}&size=2&start=${encodeURIComponent(start)}`, { key });
      expect(res.status).toBe(200);
      expect(res.body.pagination.total_items).toBeUndefined();
      seen.push(...res.body.data.map((f: { id: string }) => f.id));
      if (!res.body.pagination.next) break;
      start = res.body.pagination.next;
    }
    expect(seen).toEqual(ids);

    for (const q of ['page=0', 'size=101', 'size=-1', 'page=x', 'start=garbage', 'page=1&start=']) {
      const res = await api('GET', `/reactor-formulas?${q}`, { key });
      expect(res.status).toBe(400);
    }
  });

  it("another tenant's private formula is a 404 everywhere and never listed", async () => {
    const other = await createTenant('formulas-other');
    const mine = await api('POST', '/reactor-formulas', { key, body: privateFormula() });
    const ok = privateFormula();
    expect((await api('GET', `/reactor-formulas/${mine.body.id}`, { key: other.managementKey })).status).toBe(404);
    expect((await api('PUT', `/reactor-formulas/${mine.body.id}`, { key: other.managementKey, body: ok })).status).toBe(404);
    expect((await api('DELETE', `/reactor-formulas/${mine.body.id}`, { key: other.managementKey })).status).toBe(404);
    const list = await api('GET', `/reactor-formulas?name=${encodeURIComponent(String(mine.body.name))}`, { key: other.managementKey });
    expect(list.body.data).toEqual([]);
    const reactor = await api('POST', '/reactors', { key: other.managementKey, body: { name: 'r', configuration: {}, formula: { id: mine.body.id } } });
    expect(reactor.status).toBe(404);
    expect((await api('GET', `/reactor-formulas/${mine.body.id}`, { key })).status).toBe(200);
  });

  it('needs reactor permissions: a private key gets 403', async () => {
    const app = await tenant.app('private', { permissions: ['token:use', 'token:create'] });
    expect((await api('GET', '/reactor-formulas', { key: app.key })).status).toBe(403);
    expect((await api('POST', '/reactor-formulas', { key: app.key, body: privateFormula() })).status).toBe(403);
    expect((await api('GET', '/reactor-formulas')).status).toBe(401);
  });

  it('official formulas from the operator catalog: visible to every tenant, read-only for tenants, usable', async () => {
    const first = importOfficialFormulas();
    expect([...first.created, ...first.updated].sort()).toEqual(['Card details', 'Forward card to a payment processor', 'Reissue card with a new expiry']);
    const again = importOfficialFormulas(); // upsert by name: nothing duplicated
    expect(again.created).toEqual([]);
    const other = await createTenant('formulas-official');
    for (const k of [key, other.managementKey]) {
      const list = await api('GET', '/reactor-formulas?name=card%20details', { key: k });
      expect(list.body.data).toHaveLength(1);
      // it needs no network: its catalog entry declares an empty egress list, so its reactors reach nothing
      expect(list.body.data[0]).toMatchObject({ name: 'Card details', type: 'official', status: 'verified', egress: { allow: [] } });
      expect(list.body.data[0].code).toContain('module.exports');
    }
    const official = (await api('GET', '/reactor-formulas?name=card%20details', { key })).body.data[0];
    expect((await api('GET', `/reactor-formulas/${official.id}`, { key: other.managementKey })).status).toBe(200);
    const put = await api('PUT', `/reactor-formulas/${official.id}`, { key, body: privateFormula() });
    expect(put.status).toBe(403);
    expect((await api('DELETE', `/reactor-formulas/${official.id}`, { key })).status).toBe(403);
    const reactor = await api('POST', '/reactors', { key, body: { name: 'card details', configuration: {}, formula: { id: official.id } } });
    expect(reactor.status).toBe(201);
    expect(reactor.body.formula).toMatchObject({ id: official.id, type: 'official' });
    const caller = await tenant.app('private', { permissions: ['token:use', 'token:create'] });
    const card = await api('POST', '/tokens', {
      key: caller.key,
      body: { type: 'card', data: { number: '4242424242424242', expiration_month: 12, expiration_year: 2099 } },
    });
    const res = await api('POST', `/reactors/${reactor.body.id}/react`, { key: caller.key, body: { args: { card: `{{ ${card.body.id} }}` } } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ raw: { bin: '42424242', last4: '4242', length: 16, brand: 'visa', luhn_valid: true, expired: false } });
  });
});
