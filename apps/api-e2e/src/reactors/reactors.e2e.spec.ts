import { api, createTenant, type TestTenant } from '@coffer/testing';
import { privateFormula } from './support';

describe('reactors', () => {
  let tenant: TestTenant;
  let key: string;
  let formula: { id: string; name: string };
  let appId: string;
  beforeAll(async () => {
    tenant = await createTenant('reactors');
    key = tenant.managementKey;
    const f = await api('POST', '/reactor-formulas', {
      key,
      body: privateFormula({
        configuration: [
          { name: 'api_key', type: 'string' },
          { name: 'retries', type: 'number' },
          { name: 'live', type: 'boolean' },
        ],
      }),
    });
    formula = f.body;
    appId = (await tenant.app('private', { permissions: ['token:create', 'token:read'] })).id;
  });

  const config = { api_key: 'sk_live_secret', retries: 3, live: false };

  it('creates a reactor: 201 with the formula object, the application and the configuration as given', async () => {
    const res = await api('POST', '/reactors', {
      key,
      body: { name: 'charge', configuration: config, formula: { id: formula.id }, application: { id: appId } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ tenant_id: tenant.tenantId, name: 'charge', configuration: config, application: { id: appId } });
    expect(res.body.formula).toMatchObject({ id: formula.id, name: formula.name, type: 'private', status: 'verified' });
    expect(res.body.formula.configuration).toHaveLength(3);
    expect(res.body.created_by).toBeDefined();
    expect(res.body.created_at).toBeDefined();
    const got = await api('GET', `/reactors/${res.body.id}`, { key });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
    const without = await api('POST', '/reactors', { key, body: { name: 'no app', configuration: config, formula: { id: formula.id } } });
    expect(without.status).toBe(201);
    expect(without.body.application).toBeUndefined();
  });

  it('validates the body, listing every bad field', async () => {
    const res = await api('POST', '/reactors', { key, body: { name: 'x'.repeat(201), configuration: [], formula: { id: 'nope' }, application: { id: 5 } } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(['application.id', 'configuration', 'formula.id', 'name']);
    const missing = await api('POST', '/reactors', { key, body: {} });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.errors).sort()).toEqual(['configuration', 'formula', 'name']);
    expect((await api('POST', '/reactors', { key, body: { name: 'n'.repeat(200), configuration: config, formula: { id: formula.id } } })).status).toBe(201);
  });

  it('the configuration must satisfy the formula contract: names, types, nothing undeclared; values never echoed', async () => {
    const res = await api('POST', '/reactors', {
      key,
      body: { name: 'bad', configuration: { api_key: 42, live: 'false', extra: 'sk_live_other' }, formula: { id: formula.id } },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      'configuration.api_key': ['must be a string'],
      'configuration.retries': ['is required by the formula'],
      'configuration.live': ['must be a boolean'],
      'configuration.extra': ['is not declared by the formula'],
    });
    expect(res.text).not.toContain('sk_live_other');
    const empty = await api('POST', '/reactor-formulas', { key, body: privateFormula() });
    expect((await api('POST', '/reactors', { key, body: { name: 'e', configuration: {}, formula: { id: empty.body.id } } })).status).toBe(201);
    expect((await api('POST', '/reactors', { key, body: { name: 'e', configuration: { x: 1 }, formula: { id: empty.body.id } } })).status).toBe(400);
  });

  it('404 for an unknown formula or application, 400 for a management application', async () => {
    const unknownFormula = await api('POST', '/reactors', {
      key,
      body: { name: 'x', configuration: config, formula: { id: '00000000-0000-4000-8000-000000000000' } },
    });
    expect(unknownFormula.status).toBe(404);
    const unknownApp = await api('POST', '/reactors', {
      key,
      body: { name: 'x', configuration: config, formula: { id: formula.id }, application: { id: '00000000-0000-4000-8000-000000000000' } },
    });
    expect(unknownApp.status).toBe(404);
    const mgmt = await tenant.app('management', { permissions: ['reactor:read'] });
    const management = await api('POST', '/reactors', {
      key,
      body: { name: 'x', configuration: config, formula: { id: formula.id }, application: { id: mgmt.id } },
    });
    expect(management.status).toBe(400);
    expect(management.body.errors).toEqual({ 'application.id': ['must be a public or private application'] });
    const pub = await tenant.app('public', { permissions: ['token:create'] });
    expect(
      (await api('POST', '/reactors', { key, body: { name: 'x', configuration: config, formula: { id: formula.id }, application: { id: pub.id } } })).status,
    ).toBe(201);
  });

  it('PUT replaces name, configuration and application; the formula cannot be changed', async () => {
    const created = await api('POST', '/reactors', {
      key,
      body: { name: 'before', configuration: config, formula: { id: formula.id }, application: { id: appId } },
    });
    const next = { api_key: 'rotated', retries: 0, live: true };
    const put = await api('PUT', `/reactors/${created.body.id}`, { key, body: { name: 'after', configuration: next } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: created.body.id, name: 'after', configuration: next, created_at: created.body.created_at });
    expect(put.body.application).toBeUndefined(); // PUT replaces: no application given, none kept
    expect(put.body.modified_at).toBeDefined();
    expect(put.body.modified_by).toBeDefined();
    expect((await api('GET', `/reactors/${created.body.id}`, { key })).body.configuration).toEqual(next);
    const withApp = await api('PUT', `/reactors/${created.body.id}`, { key, body: { name: 'after', configuration: next, application: { id: appId } } });
    expect(withApp.body.application).toEqual({ id: appId });

    const formulaGiven = await api('PUT', `/reactors/${created.body.id}`, { key, body: { name: 'x', configuration: next, formula: { id: formula.id } } });
    expect(formulaGiven.status).toBe(400);
    expect(Object.keys(formulaGiven.body.errors)).toEqual(['formula']);
    const badConfig = await api('PUT', `/reactors/${created.body.id}`, { key, body: { name: 'x', configuration: { api_key: 'k' } } });
    expect(badConfig.status).toBe(400);
    expect(Object.keys(badConfig.body.errors).sort()).toEqual(['configuration.live', 'configuration.retries']);
    expect((await api('PUT', '/reactors/00000000-0000-4000-8000-000000000000', { key, body: { name: 'x', configuration: next } })).status).toBe(404);
  });

  it('DELETE 204, then 404', async () => {
    const created = await api('POST', '/reactors', { key, body: { name: 'gone', configuration: config, formula: { id: formula.id } } });
    expect((await api('DELETE', `/reactors/${created.body.id}`, { key })).status).toBe(204);
    expect((await api('GET', `/reactors/${created.body.id}`, { key })).status).toBe(404);
    expect((await api('DELETE', `/reactors/${created.body.id}`, { key })).status).toBe(404);
    expect((await api('GET', '/reactors/not-a-uuid', { key })).status).toBe(404);
  });

  it('lists newest first, filtered by repeated id and by name (wildcard), with both paging forms', async () => {
    const tag = `rq${Date.now().toString(36)}`;
    const ids: string[] = [];
    for (const n of ['Stripe live', 'stripe test', 'Adyen']) {
      const res = await api('POST', '/reactors', { key, body: { name: `${tag} ${n}`, configuration: config, formula: { id: formula.id } } });
      ids.unshift(res.body.id);
    }
    const byName = await api('GET', `/reactors?name=${tag}`, { key });
    expect(byName.body.pagination).toEqual({ total_items: 3, page_number: 1, page_size: 20, total_pages: 1 });
    expect(byName.body.data.map((r: { id: string }) => r.id)).toEqual(ids);
    expect(byName.body.data[0].configuration).toEqual(config);
    expect(byName.body.data[0].formula.id).toBe(formula.id);
    const stripe = await api('GET', `/reactors?name=${tag.toUpperCase()}%20STRIPE*E`, { key });
    expect(stripe.body.data.map((r: { name: string }) => r.name).sort()).toEqual([`${tag} Stripe live`, `${tag} stripe test`].sort());
    const byId = await api('GET', `/reactors?id=${ids[0]}&id=${ids[2]}&id=not-a-uuid`, { key });
    expect(byId.body.data.map((r: { id: string }) => r.id)).toEqual([ids[0], ids[2]]);
    expect((await api('GET', '/reactors?id=not-a-uuid', { key })).body.data).toEqual([]);
    const page = await api('GET', `/reactors?name=${tag}&page=2&size=2`, { key });
    expect(page.body.data.map((r: { id: string }) => r.id)).toEqual([ids[2]]);
    const first = await api('GET', `/reactors?name=${tag}&size=2&start=`, { key });
    expect(first.body.data.map((r: { id: string }) => r.id)).toEqual(ids.slice(0, 2));
    const second = await api('GET', `/reactors?name=${tag}&size=2&start=${first.body.pagination.next}`, { key });
    expect(second.body.data.map((r: { id: string }) => r.id)).toEqual([ids[2]]);
    expect(second.body.pagination.next).toBeUndefined();
    expect((await api('GET', '/reactors?size=500', { key })).status).toBe(400);
  });

  it("another tenant's reactor is a 404 everywhere and never listed; another tenant's application is a 404", async () => {
    const other = await createTenant('reactors-other');
    const mine = await api('POST', '/reactors', { key, body: { name: 'mine', configuration: config, formula: { id: formula.id } } });
    const ok = { name: 'x', configuration: config };
    expect((await api('GET', `/reactors/${mine.body.id}`, { key: other.managementKey })).status).toBe(404);
    expect((await api('PUT', `/reactors/${mine.body.id}`, { key: other.managementKey, body: ok })).status).toBe(404);
    expect((await api('DELETE', `/reactors/${mine.body.id}`, { key: other.managementKey })).status).toBe(404);
    expect((await api('GET', `/reactors?id=${mine.body.id}`, { key: other.managementKey })).body.data).toEqual([]);
    const caller = await other.app('private', { permissions: ['token:use'] });
    expect((await api('POST', `/reactors/${mine.body.id}/react`, { key: caller.key, body: {} })).status).toBe(404);
    const theirApp = await other.app('private', { permissions: ['token:create'] });
    const res = await api('POST', '/reactors', {
      key,
      body: { name: 'x', configuration: config, formula: { id: formula.id }, application: { id: theirApp.id } },
    });
    expect(res.status).toBe(404);
  });

  it('needs reactor permissions', async () => {
    const app = await tenant.app('private', { permissions: ['token:use'] });
    expect((await api('GET', '/reactors', { key: app.key })).status).toBe(403);
    const reader = await tenant.app('management', { permissions: ['reactor:read'] });
    expect((await api('GET', '/reactors', { key: reader.key })).status).toBe(200);
    expect((await api('POST', '/reactors', { key: reader.key, body: { name: 'x', configuration: config, formula: { id: formula.id } } })).status).toBe(403);
  });
});
