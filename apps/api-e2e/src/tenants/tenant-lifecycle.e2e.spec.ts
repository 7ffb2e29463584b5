import { KeyEncryptionKeys, open } from '@coffer/crypto';
import { api, createTenant, type TestTenant } from '@coffer/testing';
import type { Client } from 'pg';
import { admin, adminJson, database } from '../keys/support';
import { Destination, proxy } from '../proxy/support';

/**
 * The gateway caches a resolved key for AUTH_CACHE_TTL_MS (5 s by default), but an operator's act on a tenant reaches
 * it once the act commits (the CLI notifies, session-service relays): the call is retried for up to 2 s until `done`.
 * Every key tried was used just before the act, so a refusal inside 2 s is the announcement, not the cache expiring.
 */
async function soon<T>(call: () => Promise<T>, done: (reply: T) => boolean): Promise<T> {
  const until = Date.now() + 2_000;
  let reply = await call();
  while (!done(reply) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
    reply = await call();
  }
  return reply;
}

describe('operator CLI: tenants list | create | suspend | resume | reissue-key | delete | purge', () => {
  let db: Client;
  beforeAll(async () => {
    db = await database();
  });
  afterAll(() => db.end());

  it('creates and lists tenants with their status, as JSON and as text', async () => {
    const created = await adminJson<{ tenant_id: string; management_key: string }>('tenants', 'create', '--name', 'lifecycle');
    expect(created.management_key).toMatch(/^key_/);
    const listed = await adminJson<{ data: Array<{ id: string; name: string; status: string }> }>('tenants', 'list');
    expect(listed.data).toContainEqual(expect.objectContaining({ id: created.tenant_id, name: 'lifecycle', status: 'active' }));
    const text = await admin('tenants', 'list');
    expect(text.stdout).toMatch(new RegExp(`${created.tenant_id}\\s+active`));
  }, 300_000);

  it('suspend refuses every key of the tenant with a 403 problem (other tenants unaffected) until resume', async () => {
    const tenant = await createTenant('suspend');
    const other = await createTenant('bystander');
    const key = (await tenant.app('private', { permissions: ['token:create', 'token:read', 'token:use'] })).key; // token:use: read revealed
    const token = await api('POST', '/tokens', { key, body: { type: 'token', data: 'kept' } });
    expect(token.status).toBe(201);
    const suspended = await admin('tenants', 'suspend', tenant.tenantId, '--json');
    expect(suspended.status).toBe(0);
    expect(JSON.parse(suspended.stdout)).toMatchObject({ id: tenant.tenantId, status: 'suspended' });
    expect(suspended.stderr).toContain('"action":"tenant.suspend"');
    for (const k of [key, tenant.managementKey]) {
      const refused = await soon(
        () => api('GET', `/tokens/${token.body.id}`, { key: k }),
        (r) => r.status !== 200,
      );
      expect(refused.status).toBe(403);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
      expect(refused.body).toMatchObject({ status: 403, detail: expect.stringContaining('suspended') });
      expect(refused.text).not.toContain('kept');
    }
    expect((await api('GET', '/tenants/self', { key: other.managementKey })).status).toBe(200);
    expect((await adminJson<{ status: string }>('tenants', 'resume', tenant.tenantId)).status).toBe('active');
    const back = await api('GET', `/tokens/${token.body.id}`, { key });
    expect(back.status).toBe(200);
    expect(back.body.data).toBe('kept');
  }, 300_000);

  it('an anonymous call to a pre-configured proxy of a suspended tenant is refused (403) until resume, of a deleted tenant (401); its destination hears nothing', async () => {
    const dest = await new Destination().start();
    try {
      const tenant = await createTenant('proxy-standing');
      const made = await api('POST', '/proxies', {
        key: tenant.managementKey,
        body: {
          name: 'partner intake',
          destination_url: dest.url('/in'),
          require_auth: false,
          configuration: { API_KEY: 'sk_live_standing' },
          request_transforms: [{ type: 'append_header', options: { location: 'Authorization', value: 'Bearer {{ configuration.API_KEY }}' } }],
        },
      });
      expect(made.status).toBe(201);
      const call = () => proxy('POST', '/proxy', { headers: { 'BT-PROXY-KEY': made.body.key }, contentType: 'application/json', body: '{}' });
      expect((await call()).status).toBe(200);
      const heard = dest.received.length;

      expect((await admin('tenants', 'suspend', tenant.tenantId)).status).toBe(0);
      const refused = await soon(call, (r) => r.status !== 200);
      expect({ status: refused.status, body: refused.body }).toMatchObject({
        status: 403,
        body: { status: 403, detail: expect.stringContaining('suspended') },
      });
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
      expect(dest.received.length).toBe(heard);

      expect((await adminJson<{ status: string }>('tenants', 'resume', tenant.tenantId)).status).toBe('active');
      expect((await call()).status).toBe(200);

      expect((await adminJson<{ state: string }>('tenants', 'delete', tenant.tenantId, '--yes', '--no-purge')).state).toBe('deleting');
      const gone = await soon(call, (r) => r.status !== 200);
      expect({ status: gone.status, body: gone.body }).toMatchObject({ status: 401, body: { status: 401 } });
      expect(dest.received.length).toBe(heard + 1);
    } finally {
      await dest.stop();
    }
  }, 300_000);

  it('reissue-key revokes the management key and prints a new one once; the new key works, the old is refused', async () => {
    const tenant = await createTenant('reissue');
    expect((await api('GET', '/tenants/self', { key: tenant.managementKey })).status).toBe(200);
    const issued = await adminJson<{ management_key: string; revoked_keys: number; application_id: string }>('tenants', 'reissue-key', tenant.tenantId);
    expect(issued.revoked_keys).toBe(1);
    expect(issued.management_key).not.toBe(tenant.managementKey);
    const stored = await db.query('SELECT key_hash FROM application_keys WHERE application_id = $1', [issued.application_id]);
    expect(JSON.stringify(stored.rows)).not.toContain(issued.management_key);
    expect((await api('GET', '/tenants/self', { key: issued.management_key })).status).toBe(200);
    const old = await soon(
      () => api('GET', '/tenants/self', { key: tenant.managementKey }),
      (r) => r.status !== 200,
    );
    expect(old.status).toBe(401);
    expect((await admin('tenants', 'reissue-key', '00000000-0000-4000-8000-000000000000')).status).toBe(1);
  }, 300_000);

  it('delete destroys the keys at once (nothing can decrypt the data any more), then purge removes every row', async () => {
    // another tenant with data, so that keys remain to try against the shredded tenant's ciphertext
    const bystander = await createTenant('bystander-keys');
    const bystanderKey = (await bystander.app('private', { permissions: ['token:create'] })).key;
    expect((await api('POST', '/tokens', { key: bystanderKey, body: { type: 'token', data: 'other' } })).status).toBe(201);
    const tenant: TestTenant = await createTenant('shredded');
    const key = (await tenant.app('private', { permissions: ['token:create', 'token:read', 'token:use'] })).key; // token:use: read revealed
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push((await api('POST', '/tokens', { key, body: { type: 'token', data: `secret ${i}` } })).body.id);
    const rows = await db.query('SELECT id, data_ciphertext FROM tokens WHERE tenant_id = $1', [tenant.tenantId]);
    expect(rows.rows).toHaveLength(30);

    expect((await admin('tenants', 'delete', tenant.tenantId)).status).toBe(2); // without --yes: refused, nothing changed
    expect((await api('GET', `/tokens/${ids[0]}`, { key })).status).toBe(200);
    const deleted = await adminJson<{ destroyed_keys: number; state: string }>('tenants', 'delete', tenant.tenantId, '--yes', '--no-purge');
    expect(deleted).toMatchObject({ state: 'deleting' });
    expect(deleted.destroyed_keys).toBeGreaterThanOrEqual(2);
    expect((await db.query('SELECT count(*)::int AS n FROM tenant_keys WHERE tenant_id = $1', [tenant.tenantId])).rows[0].n).toBe(0);
    // the rows are still there, but no key that remains opens them: every remaining data or index key, unwrapped
    // with the key-encryption key, fails to authenticate the ciphertext
    const keks = KeyEncryptionKeys.parse(process.env['COFFER_E2E_KEK']);
    const remaining = await db.query('SELECT id, tenant_id, purpose, kek_id, wrapped_key FROM tenant_keys');
    expect(remaining.rows.length).toBeGreaterThan(0);
    const dataKeys = remaining.rows.map((k) => keks.unwrap(k.kek_id, k.wrapped_key, `coffer:${k.purpose}:${k.tenant_id}:${k.id}`));
    for (const row of rows.rows.slice(0, 5))
      for (const dataKey of dataKeys)
        expect(() => open(dataKey, row.data_ciphertext, Buffer.from(`${tenant.tenantId}\u0000token:${row.id}`, 'utf8'))).toThrow();
    expect((await adminJson<{ data: Array<{ id: string; status: string }> }>('tenants', 'list')).data).toContainEqual(
      expect.objectContaining({ id: tenant.tenantId, status: 'deleting' }),
    );
    for (const k of [key, tenant.managementKey])
      expect(
        (
          await soon(
            () => api('GET', `/tokens/${ids[0]}`, { key: k }),
            (r) => r.status !== 200,
          )
        ).status,
      ).toBe(401);

    const purged = await adminJson<{ purged_rows: number }>('tenants', 'purge', tenant.tenantId, '--batch-size', '7');
    expect(purged.purged_rows).toBeGreaterThanOrEqual(30);
    for (const table of ['tokens', 'applications', 'application_keys', 'tenant_keys', 'webhook_secrets', 'tenants']) {
      const column = table === 'tenants' ? 'id' : 'tenant_id';
      expect((await db.query(`SELECT count(*)::int AS n FROM ${table} WHERE ${column} = $1`, [tenant.tenantId])).rows[0].n).toBe(0);
    }
    expect((await adminJson<{ data: Array<{ id: string }> }>('tenants', 'list')).data.map((t) => t.id)).not.toContain(tenant.tenantId);
  }, 300_000);

  it('delete without --no-purge removes the rows in the same run; unknown ids and bad flags are refused', async () => {
    const created = await adminJson<{ tenant_id: string }>('tenants', 'create', '--name', 'gone');
    const gone = await adminJson<{ state: string; revoked_keys: number }>('tenants', 'delete', created.tenant_id, '--yes');
    expect(gone).toMatchObject({ state: 'deleted', revoked_keys: 1 });
    expect((await adminJson<{ data: Array<{ id: string }> }>('tenants', 'list')).data.map((t) => t.id)).not.toContain(created.tenant_id);
    expect((await admin('tenants', 'delete', created.tenant_id, '--yes')).status).toBe(1);
    expect((await admin('tenants', 'suspend', 'not-a-uuid')).status).toBe(2);
    expect((await admin('tenants', 'delete', created.tenant_id, '--yes', '--batch-size', '0')).status).toBe(2);
  }, 300_000);
});
