import { api, createTenant, type TestTenant } from '@coffer/testing';

describe('tenant settings and webhook secret', () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await createTenant('tenant-settings');
  });

  it('GET /tenants/self shows the tenant with default settings', async () => {
    const res = await api('GET', '/tenants/self', { key: tenant.managementKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: tenant.tenantId, name: 'tenant-settings', settings: { deduplicate_tokens: false } });
    expect(res.body.created_at).toEqual(expect.any(String));
  });

  it('PUT /tenants/self updates name and settings; bad values are 400', async () => {
    const res = await api('PUT', '/tenants/self', { key: tenant.managementKey, body: { name: 'renamed', settings: { deduplicate_tokens: true } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'renamed', settings: { deduplicate_tokens: true } });
    const bad = await api('PUT', '/tenants/self', { key: tenant.managementKey, body: { settings: { deduplicate_tokens: 'yes' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty(['settings.deduplicate_tokens']);
    expect((await api('GET', '/tenants/self', { key: tenant.managementKey })).body.settings.deduplicate_tokens).toBe(true);
  });

  it('tenant routes need management permissions', async () => {
    const priv = (await tenant.app('private', { permissions: ['token:read'] })).key;
    expect((await api('GET', '/tenants/self', { key: priv })).status).toBe(403);
    expect((await api('PUT', '/tenants/self', { key: priv, body: {} })).status).toBe(403);
    expect((await api('GET', '/tenants/self/webhook-secret', { key: priv })).status).toBe(403);
  });

  it('webhook secret: stable until rotated, whsec_ + 32 random bytes', async () => {
    const a = await api('GET', '/tenants/self/webhook-secret', { key: tenant.managementKey });
    expect(a.status).toBe(200);
    expect(a.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.body.secret.slice(6), 'base64')).toHaveLength(32);
    const b = await api('GET', '/tenants/self/webhook-secret', { key: tenant.managementKey });
    expect(b.body.secret).toBe(a.body.secret);
    const rotated = await api('POST', '/tenants/self/webhook-secret/rotate', { key: tenant.managementKey });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(a.body.secret);
    expect((await api('GET', '/tenants/self/webhook-secret', { key: tenant.managementKey })).body.secret).toBe(rotated.body.secret);
  });
});
