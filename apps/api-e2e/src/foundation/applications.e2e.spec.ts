import { api, createTenant, type TestTenant } from '@coffer/testing';

describe('applications and API keys', () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await createTenant('applications');
  });

  it('401 without a key, with an unknown key, in the problem format', async () => {
    for (const key of [undefined, 'key_unknown']) {
      const res = await api('GET', '/applications', { key });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body).toMatchObject({ status: 401, title: 'Unauthorized' });
    }
  });

  it('creates an application, shows its key once, stores only a hash', async () => {
    const res = await api('POST', '/applications', {
      key: tenant.managementKey,
      body: { name: 'backend', type: 'private', permissions: ['token:create', 'token:read'] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'backend', type: 'private', tenant_id: tenant.tenantId, permissions: ['token:create', 'token:read'] });
    expect(res.body.key).toMatch(/^key_[A-Za-z0-9_-]{43}$/);
    expect(res.body.created_at).toBeDefined();
    const got = await api('GET', `/applications/${res.body.id}`, { key: tenant.managementKey });
    expect(got.status).toBe(200);
    expect(got.body.key).toBeUndefined();
    const list = await api('GET', '/applications?size=100', { key: tenant.managementKey });
    expect(list.status).toBe(200);
    expect(list.body.pagination).toMatchObject({ page_number: 1, page_size: 100 });
    expect(list.body.data.map((a: { id: string }) => a.id)).toContain(res.body.id);
  });

  it('refuses permissions the application type may not hold, listing every bad field', async () => {
    const res = await api('POST', '/applications', {
      key: tenant.managementKey,
      body: { name: 'web', type: 'public', permissions: ['token:read', 'token:create', 'nope'] },
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(expect.arrayContaining(['permissions[0]', 'permissions[2]']));
    const bad = await api('POST', '/applications', { key: tenant.managementKey, body: { name: '', type: 'robot' } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(expect.arrayContaining(['name', 'type']));
  });

  it('403 for a key without the route permission; management keys never read tokens', async () => {
    const app = await tenant.app('private', { permissions: ['token:read'] });
    expect((await api('GET', '/applications', { key: app.key })).status).toBe(403);
    expect((await api('GET', '/tokens', { key: tenant.managementKey })).status).toBe(403);
  });

  it('regenerate invalidates the old key at once', async () => {
    const app = await tenant.app('private', { permissions: ['token:read'] });
    expect((await api('GET', '/tokens', { key: app.key })).status).toBe(200);
    const regen = await api('POST', `/applications/${app.id}/regenerate`, { key: tenant.managementKey });
    expect(regen.status).toBe(200);
    expect(regen.body.key).toBeDefined();
    expect((await api('GET', '/tokens', { key: app.key })).status).toBe(401);
    expect((await api('GET', '/tokens', { key: regen.body.key })).status).toBe(200);
  });

  it('update changes permissions at once; delete revokes the key', async () => {
    const app = await tenant.app('private', { permissions: ['token:read'] });
    expect((await api('GET', '/tokens', { key: app.key })).status).toBe(200);
    const upd = await api('PUT', `/applications/${app.id}`, { key: tenant.managementKey, body: { name: 'renamed', permissions: ['token:create'] } });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ name: 'renamed', permissions: ['token:create'] });
    expect(upd.body.modified_at).toBeDefined();
    expect((await api('GET', '/tokens', { key: app.key })).status).toBe(403);
    expect((await api('DELETE', `/applications/${app.id}`, { key: tenant.managementKey })).status).toBe(204);
    expect((await api('GET', '/tokens', { key: app.key })).status).toBe(401);
    expect((await api('GET', `/applications/${app.id}`, { key: tenant.managementKey })).status).toBe(404);
  });

  it('another tenant sees 404 for my application', async () => {
    const other = await createTenant('other');
    const app = await tenant.app('private', { permissions: ['token:read'] });
    expect((await api('GET', `/applications/${app.id}`, { key: other.managementKey })).status).toBe(404);
    expect((await api('DELETE', `/applications/${app.id}`, { key: other.managementKey })).status).toBe(404);
  });

  it('paging out of range is a 400', async () => {
    expect((await api('GET', '/applications?page=0', { key: tenant.managementKey })).status).toBe(400);
    expect((await api('GET', '/applications?size=101', { key: tenant.managementKey })).status).toBe(400);
  });
});
