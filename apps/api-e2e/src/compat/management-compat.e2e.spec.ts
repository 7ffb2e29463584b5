/** Issue 13 items 4 and 5: application keys, the calling application, list filters, permissions, tenant settings, logs. */
import { api, createTenant, type TestTenant } from '@coffer/testing';

describe('application keys', () => {
  let tenant: TestTenant;
  let mk: string;
  beforeAll(async () => {
    tenant = await createTenant('app-keys');
    mk = tenant.managementKey;
  });

  it('create shows the key once (also in keys[]); several keys authenticate as the application; list and get never show a key', async () => {
    const app = await api('POST', '/applications', { key: mk, body: { name: 'multi', type: 'private', permissions: ['token:read'] } });
    expect(app.status).toBe(201);
    expect(app.body.keys).toEqual([{ id: expect.any(String), key: app.body.key, created_by: expect.any(String), created_at: expect.any(String) }]);
    const second = await api('POST', `/applications/${app.body.id}/keys`, { key: mk });
    expect(second.status).toBe(201);
    expect(second.body).toEqual({
      id: expect.any(String),
      key: expect.stringMatching(/^key_[A-Za-z0-9_-]{43}$/),
      created_by: expect.any(String),
      created_at: expect.any(String),
    });
    expect(second.body.key).not.toBe(app.body.key);
    for (const key of [app.body.key, second.body.key]) {
      expect((await api('GET', '/tokens', { key })).status).toBe(200);
      const self = await api('GET', '/applications/key', { key });
      expect(self.status).toBe(200);
      expect(self.body).toMatchObject({ id: app.body.id, name: 'multi', type: 'private', permissions: ['token:read'] });
      expect(self.body.key).toBeUndefined();
    }
    const list = await api('GET', `/applications/${app.body.id}/keys`, { key: mk });
    expect(list.status).toBe(200);
    expect(list.body.map((k: { id: string }) => k.id)).toEqual([app.body.keys[0].id, second.body.id]);
    expect(list.body.every((k: { key?: string }) => k.key === undefined)).toBe(true);
    const one = await api('GET', `/applications/${app.body.id}/keys/${second.body.id}`, { key: mk });
    expect(one.body).toEqual({ id: second.body.id, created_by: expect.any(String), created_at: second.body.created_at });
  });

  it('deleting a key revokes it at once and leaves the others working', async () => {
    const app = await tenant.app('private', { permissions: ['token:read'] });
    const other = (await api('POST', `/applications/${app.id}/keys`, { key: mk })).body;
    expect((await api('GET', '/tokens', { key: app.key })).status).toBe(200); // cached by the gateway now
    const [first] = (await api('GET', `/applications/${app.id}/keys`, { key: mk })).body;
    expect((await api('DELETE', `/applications/${app.id}/keys/${first.id}`, { key: mk })).status).toBe(204);
    expect((await api('GET', '/tokens', { key: app.key })).status).toBe(401);
    expect((await api('GET', '/tokens', { key: other.key })).status).toBe(200);
    expect((await api('GET', `/applications/${app.id}/keys/${first.id}`, { key: mk })).status).toBe(404);
    expect((await api('DELETE', `/applications/${app.id}/keys/${first.id}`, { key: mk })).status).toBe(404);
  });

  it('regenerate replaces every key with one new key', async () => {
    const app = await tenant.app('private', { permissions: ['token:read'] });
    const other = (await api('POST', `/applications/${app.id}/keys`, { key: mk })).body;
    const regen = await api('POST', `/applications/${app.id}/regenerate`, { key: mk });
    expect(regen.status).toBe(200);
    expect(regen.body.keys).toEqual([expect.objectContaining({ key: regen.body.key })]);
    for (const old of [app.key, other.key]) expect((await api('GET', '/tokens', { key: old })).status).toBe(401);
    expect((await api('GET', '/tokens', { key: regen.body.key })).status).toBe(200);
    expect((await api('GET', `/applications/${app.id}/keys`, { key: mk })).body).toHaveLength(1);
  });

  it('create_key: false makes an application without a key; keys come later', async () => {
    const app = await api('POST', '/applications', { key: mk, body: { name: 'keyless', type: 'management', permissions: ['log:read'], create_key: false } });
    expect(app.status).toBe(201);
    expect(app.body.key).toBeUndefined();
    expect(app.body.keys).toBeUndefined();
    expect((await api('GET', `/applications/${app.body.id}/keys`, { key: mk })).body).toEqual([]);
    const key = (await api('POST', `/applications/${app.body.id}/keys`, { key: mk })).body.key;
    expect((await api('GET', '/logs', { key })).status).toBe(200);
  });

  it('refuses what it must: unknown ids 404, other tenants 404, too many keys 422, wrong permission 403, sessions on /applications/key 403', async () => {
    const app = await tenant.app('private', { permissions: ['token:read'] });
    expect((await api('POST', '/applications/00000000-0000-4000-8000-000000000000/keys', { key: mk })).status).toBe(404);
    expect((await api('GET', `/applications/${app.id}/keys/not-a-uuid`, { key: mk })).status).toBe(404);
    const other = await createTenant('app-keys-other');
    expect((await api('GET', `/applications/${app.id}/keys`, { key: other.managementKey })).status).toBe(404);
    expect((await api('POST', `/applications/${app.id}/keys`, { key: other.managementKey })).status).toBe(404);
    for (let i = 1; i < 10; i++) expect((await api('POST', `/applications/${app.id}/keys`, { key: mk })).status).toBe(201);
    const tooMany = await api('POST', `/applications/${app.id}/keys`, { key: mk });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body).toMatchObject({ status: 422, detail: expect.stringContaining('10') });
    const reader = await tenant.app('management', { permissions: ['application:read'] });
    expect((await api('POST', `/applications/${app.id}/keys`, { key: reader.key })).status).toBe(403);
    expect((await api('GET', `/applications/${app.id}/keys`, { key: reader.key })).status).toBe(200);
    const web = await tenant.app('public', { permissions: ['token:create'] });
    const session = (await api('POST', '/sessions', { key: web.key })).body;
    expect((await api('GET', '/applications/key', { key: session.session_key })).status).toBe(403);
    expect((await api('GET', '/applications/key', { key: web.key })).body.id).toBe(web.id);
    expect((await api('GET', '/applications/key')).status).toBe(401);
  });

  it('the key limit holds under concurrent creates (the count and the insert are one locked step)', async () => {
    const app = await tenant.app('private', { permissions: ['token:read'] });
    const results = await Promise.all(Array.from({ length: 14 }, () => api('POST', `/applications/${app.id}/keys`, { key: mk })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(9);
    expect(statuses.filter((s) => s === 422)).toHaveLength(5);
    expect((await api('GET', `/applications/${app.id}/keys`, { key: mk })).body).toHaveLength(10);
  });

  it('GET /applications filters by id (repeatable) and type (repeatable)', async () => {
    const a = await tenant.app('public', { permissions: ['token:create'] });
    const b = await tenant.app('private', { permissions: ['token:read'] });
    const ids = (body: { data: Array<{ id: string }> }) => body.data.map((x) => x.id).sort();
    expect(ids((await api('GET', `/applications?id=${a.id}&id=${b.id}`, { key: mk })).body)).toEqual([a.id, b.id].sort());
    const one = await api('GET', `/applications?id=${a.id}`, { key: mk });
    expect(one.body.pagination).toMatchObject({ total_items: 1 });
    expect((await api('GET', '/applications?id=not-a-uuid', { key: mk })).body.data).toEqual([]);
    const publics = (await api('GET', '/applications?type=public&size=100', { key: mk })).body.data;
    expect(publics.length).toBeGreaterThan(0);
    expect(publics.every((x: { type: string }) => x.type === 'public')).toBe(true);
    const two = (await api('GET', '/applications?type=public&type=management&size=100', { key: mk })).body.data;
    expect(new Set(two.map((x: { type: string }) => x.type))).toEqual(new Set(['public', 'management']));
    expect(ids((await api('GET', `/applications?id=${a.id}&id=${b.id}&type=private`, { key: mk })).body)).toEqual([b.id]);
    const bad = await api('GET', '/applications?type=robot', { key: mk });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['type']);
  });
});

describe('permissions, tenant settings, logs', () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await createTenant('mgmt-compat');
  });

  it('GET /permissions lists every permission with the application types that may hold it', async () => {
    const all = await api('GET', '/permissions', { key: tenant.managementKey });
    expect(all.status).toBe(200);
    expect(all.body).toContainEqual({ type: 'token:use', description: expect.any(String), application_types: ['private'] });
    expect(all.body).toContainEqual({ type: 'token:create', description: expect.any(String), application_types: ['public', 'private'] });
    expect(all.body).toContainEqual({ type: 'token-intent:create', description: expect.any(String), application_types: ['public', 'private'] });
    // token 6, token-intent 3, proxy 5, reactor 4, application 4, tenant 2, log 1, webhook 4, member 3, invitation 4, owner 1
    expect(all.body).toHaveLength(37);
    const pub = await api('GET', '/permissions?application_type=public', { key: tenant.managementKey });
    expect(pub.body.map((p: { type: string }) => p.type).sort()).toEqual(['token-intent:create', 'token:create', 'token:update']);
    const web = await tenant.app('public', { permissions: ['token:create'] });
    expect((await api('GET', '/permissions', { key: web.key })).status).toBe(200);
    const bad = await api('GET', '/permissions?application_type=robot', { key: tenant.managementKey });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty('application_type');
  });

  it('tenant settings take "true"/"false" as well as booleans, and reply with booleans', async () => {
    const on = await api('PUT', '/tenants/self', { key: tenant.managementKey, body: { name: 'compat', settings: { deduplicate_tokens: 'true' } } });
    expect(on.status).toBe(200);
    expect(on.body.settings).toEqual({ deduplicate_tokens: true });
    const off = await api('PUT', '/tenants/self', { key: tenant.managementKey, body: { name: 'compat', settings: { deduplicate_tokens: 'FALSE' } } });
    expect(off.body.settings).toEqual({ deduplicate_tokens: false });
    expect(
      (await api('PUT', '/tenants/self', { key: tenant.managementKey, body: { settings: { deduplicate_tokens: true } } })).body.settings.deduplicate_tokens,
    ).toBe(true);
    const bad = await api('PUT', '/tenants/self', { key: tenant.managementKey, body: { settings: { deduplicate_tokens: 'yes' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty(['settings.deduplicate_tokens']);
  });

  it('log entries carry actor_id, actor_type and message besides today fields; /logs/entity-types lists the entity types', async () => {
    const app = await tenant.app('private', { permissions: ['token:create', 'token:read'] });
    const token = (await api('POST', '/tokens', { key: app.key, body: { type: 'token', data: 'logged' } })).body;
    const logs = await api('GET', `/logs?entity_type=token&entity_id=${token.id}`, { key: tenant.managementKey });
    expect(logs.status).toBe(200);
    expect(logs.body.data[0]).toEqual({
      id: expect.any(String),
      tenant_id: tenant.tenantId,
      actor_application_id: app.id,
      actor_id: app.id,
      actor_type: 'application',
      operation: 'create',
      entity_type: 'token',
      entity_id: token.id,
      message: 'Token created',
      trace_id: expect.any(String),
      created_at: expect.any(String),
    });
    const types = await api('GET', '/logs/entity-types', { key: tenant.managementKey });
    expect(types.status).toBe(200);
    expect(types.body).toEqual([
      { display_name: 'Token', value: 'token' },
      { display_name: 'Token intent', value: 'token_intent' },
      { display_name: 'Reactor', value: 'reactor' },
      { display_name: 'Reactor formula', value: 'reactor_formula' },
      { display_name: 'Application', value: 'application' },
      { display_name: 'Application key', value: 'application_key' },
      { display_name: 'Session', value: 'session' },
      { display_name: 'Tenant', value: 'tenant' },
      { display_name: 'Webhook secret', value: 'webhook_secret' },
      { display_name: 'Webhook', value: 'webhook' },
      { display_name: 'Webhook delivery', value: 'webhook_delivery' },
      { display_name: 'Proxy request', value: 'proxy' },
      { display_name: 'Authentication (refused)', value: 'authentication' },
      { display_name: 'Data keys (operator)', value: 'data_key' },
      { display_name: 'Audit log (operator)', value: 'audit_log' },
      { display_name: 'Audit retention (operator)', value: 'audit_retention' },
      { display_name: 'Tenant member', value: 'tenant_member' },
      { display_name: 'Tenant invitation', value: 'tenant_invitation' },
      { display_name: 'Console sign-in', value: 'console_session' },
    ]);
    expect((await api('GET', '/logs/entity-types', { key: app.key })).status).toBe(403);
  });
});
