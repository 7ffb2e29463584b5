/**
 * Issue 25 item 2: the webhooks API, driven through @basis-theory/node-sdk 5.7.0 unchanged (`client.webhooks`
 * create, list, get, update, delete, ping and `webhooks.events.list`), and its refusals as problem documents.
 */
import { BasisTheory, BasisTheoryClient } from '@basis-theory/node-sdk';
import { api, apiDynamic, createTenant, type TestTenant } from '@coffer/testing';
import { nodeSdk } from '../compat/support';

jest.setTimeout(60_000);

const HOOK = 'http://127.0.0.1:9/hooks';

describe('the webhooks API through @basis-theory/node-sdk', () => {
  let tenant: TestTenant;
  let mgmt: BasisTheoryClient;

  beforeAll(async () => {
    tenant = await createTenant('webhooks-api');
    mgmt = nodeSdk(tenant.managementKey);
  });

  afterEach(async () => {
    const page = await api('GET', '/webhooks', { key: tenant.managementKey });
    for (const w of page.body.data ?? []) await api('DELETE', `/webhooks/${w.id}`, { key: tenant.managementKey });
  });

  it('create, get, list, update, delete — SDK fields parsed (camelCase, dates)', async () => {
    const created = await mgmt.webhooks.create({ name: 'ledger', url: HOOK, notifyEmail: 'ops@example.com', events: ['token.created', 'token.deleted'] });
    expect(created).toMatchObject({ name: 'ledger', url: HOOK, notifyEmail: 'ops@example.com', events: ['token.created', 'token.deleted'], status: 'enabled' });
    expect(created.tenantId).toBe(tenant.tenantId);
    expect(created.createdAt).toBeInstanceOf(Date);
    expect(created.createdBy).toEqual(expect.any(String));

    const got = await mgmt.webhooks.get(created.id);
    expect(got).toMatchObject({ id: created.id, name: 'ledger', events: ['token.created', 'token.deleted'] });

    const list = await mgmt.webhooks.list();
    expect(list.data.map((w) => w.id)).toEqual([created.id]);
    expect(list.pagination.pageSize).toEqual(expect.any(Number));

    const updated = await mgmt.webhooks.update(created.id, { name: 'ledger v2', url: HOOK, events: ['application.created'] });
    expect(updated).toMatchObject({ name: 'ledger v2', events: ['application.created'], status: 'enabled' });
    expect(updated.modifiedAt).toBeInstanceOf(Date);
    expect(updated.notifyEmail).toBeUndefined();

    await mgmt.webhooks.delete(created.id);
    await expect(mgmt.webhooks.get(created.id)).rejects.toBeInstanceOf(BasisTheory.NotFoundError);
  });

  it('lists the event types, and ping answers for any valid key', async () => {
    const types = await mgmt.webhooks.events.list();
    expect(types).toEqual(
      expect.arrayContaining(['token.created', 'token.updated', 'token.deleted', 'token.expired', 'application.key.created', 'reactor.created']),
    );
    await expect(mgmt.webhooks.ping()).resolves.toBeUndefined();
    const app = await tenant.app('private', { permissions: ['token:read'] });
    await expect(nodeSdk(app.key).webhooks.ping()).resolves.toBeUndefined();
    // the SDK's ping maps no status to a class: a plain BasisTheoryError carrying the 401
    await expect(nodeSdk('key_not-a-real-one').webhooks.ping()).rejects.toMatchObject({ statusCode: 401 });
  });

  it('a status update disables and re-enables a webhook (PUT with status)', async () => {
    const created = await mgmt.webhooks.create({ name: 'toggle', url: HOOK, events: ['token.created'] });
    const off = await api('PUT', `/webhooks/${created.id}`, {
      key: tenant.managementKey,
      body: { name: 'toggle', url: HOOK, events: ['token.created'], status: 'disabled' },
    });
    expect(off.status).toBe(200);
    expect(off.body.status).toBe('disabled');
    const on = await api('PUT', `/webhooks/${created.id}`, {
      key: tenant.managementKey,
      body: { name: 'toggle', url: HOOK, events: ['token.created'], status: 'enabled' },
    });
    expect(on.body.status).toBe('enabled');
  });

  it('holds at most five webhooks per tenant (the sixth is a 422 problem)', async () => {
    for (let i = 0; i < 5; i++) await mgmt.webhooks.create({ name: `w${i}`, url: HOOK, events: ['token.created'] });
    const sixth = await api('POST', '/webhooks', { key: tenant.managementKey, body: { name: 'w5', url: HOOK, events: ['token.created'] } });
    expect(sixth.status).toBe(422);
    expect(sixth.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(sixth.body.detail).toMatch(/at most 5 webhooks/);
  });

  it('refuses bad input with 400 problems naming the fields', async () => {
    const bad = await api('POST', '/webhooks', { key: tenant.managementKey, body: { name: '', url: HOOK, events: ['token.exploded'], notify_email: 'nope' } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['events', 'name', 'notify_email']);

    const noEvents = await api('POST', '/webhooks', { key: tenant.managementKey, body: { name: 'x', url: HOOK, events: [] } });
    expect(noEvents.status).toBe(400);
    expect(Object.keys(noEvents.body.errors)).toEqual(['events']);

    const badStatus = await api('POST', '/webhooks', { key: tenant.managementKey, body: { name: 'x', url: HOOK, events: ['token.created'] } });
    const put = await api('PUT', `/webhooks/${badStatus.body.id}`, {
      key: tenant.managementKey,
      body: { name: 'x', url: HOOK, events: ['token.created'], status: 'paused' },
    });
    expect(put.status).toBe(400);
    expect(Object.keys(put.body.errors)).toEqual(['status']);
  });

  it('applies the callback egress rules to the URL', async () => {
    for (const url of ['ftp://example.com/hook', 'not a url', 'http://[::1', 'http://no-such-host.invalid/hook']) {
      const res = await api('POST', '/webhooks', { key: tenant.managementKey, body: { name: 'x', url, events: ['token.created'] } });
      expect({ url, status: res.status, errors: res.body.errors && Object.keys(res.body.errors) }).toEqual({ url, status: 400, errors: ['url'] });
    }
  });

  it('needs the webhook permissions, and never shows another tenant’s webhooks', async () => {
    const created = await mgmt.webhooks.create({ name: 'mine', url: HOOK, events: ['token.created'] });
    const reader = await tenant.app('management', { permissions: ['webhook:read'] });
    expect((await api('GET', `/webhooks/${created.id}`, { key: reader.key })).status).toBe(200);
    expect((await api('GET', '/webhooks/event-types', { key: reader.key })).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', '/webhooks', { name: 'x', url: HOOK, events: ['token.created'] }],
      ['PUT', `/webhooks/${created.id}`, { name: 'x', url: HOOK, events: ['token.created'] }],
      ['DELETE', `/webhooks/${created.id}`, undefined],
    ] as const) {
      const res = await apiDynamic(method, path, { key: reader.key, body });
      expect({ method, status: res.status }).toEqual({ method, status: 403 });
    }
    const privateApp = await tenant.app('private', { permissions: ['token:create'] });
    expect((await api('GET', '/webhooks', { key: privateApp.key })).status).toBe(403);

    const other = await createTenant('webhooks-api-other');
    expect((await api('GET', `/webhooks/${created.id}`, { key: other.managementKey })).status).toBe(404);
    expect((await api('DELETE', `/webhooks/${created.id}`, { key: other.managementKey })).status).toBe(404);
    expect((await api('GET', '/webhooks', { key: other.managementKey })).body.data).toEqual([]);
    expect((await api('GET', `/webhooks/${created.id}/deliveries`, { key: other.managementKey })).status).toBe(404);
    expect((await api('GET', '/webhooks/not-a-uuid', { key: tenant.managementKey })).status).toBe(404);
  });
});
