import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { Client } from 'pg';
import { api, createTenant, type TestTenant } from '@coffer/testing';

const root = path.resolve(__dirname, '../../../..');
function admin(...args: string[]): unknown {
  const out = execFileSync(process.execPath, [path.join(root, 'dist/tools/admin/main.js'), ...args, '--json'], {
    env: { ...process.env, DATABASE_URL: process.env['COFFER_E2E_DATABASE_URL'], KEY_ENCRYPTION_KEYS: process.env['COFFER_E2E_KEK'] },
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

describe('key rotation', () => {
  let tenant: TestTenant;
  let key: string;
  let db: Client;
  beforeAll(async () => {
    tenant = await createTenant('keys');
    key = (await tenant.app('private', { permissions: ['token:create', 'token:read', 'token:use'] })).key;
    db = new Client({ connectionString: process.env['COFFER_E2E_DATABASE_URL'] });
    await db.connect();
  }, 120_000);
  afterAll(() => db?.end());

  const keyOf = async (id: string) =>
    (await db.query('SELECT data_key_id FROM tokens WHERE tenant_id = $1 AND id = $2', [tenant.tenantId, id])).rows[0].data_key_id as string;

  it('keys rotate: new writes use a new data key, old tokens stay readable; keys reencrypt moves them', async () => {
    const before = await api('POST', '/tokens', { key, body: { type: 'token', data: 'written before rotation' } });
    const oldKey = await keyOf(before.body.id);
    expect(admin('keys', 'rotate', '--tenant', tenant.tenantId)).toMatchObject({ tenants: 1 });
    // services cache the active data key for up to a minute; a fresh tenant key is picked up by new processes at once
    const read = await api('GET', `/tokens/${before.body.id}`, { key });
    expect(read.status).toBe(200);
    expect(read.body.data).toBe('written before rotation');
    const moved = admin('keys', 'reencrypt', '--tenant', tenant.tenantId) as { state: string; kinds: { tokens: { rows_done: number } } };
    expect(moved.state).toBe('done');
    expect(moved.kinds.tokens.rows_done).toBeGreaterThanOrEqual(1);
    expect(await keyOf(before.body.id)).not.toBe(oldKey);
    const again = await api('GET', `/tokens/${before.body.id}`, { key });
    expect(again.body.data).toBe('written before rotation');
    const fp = before.body.fingerprint;
    const after = await api('POST', '/tokens', { key, body: { type: 'token', data: 'written before rotation' } });
    expect(after.body.fingerprint).toBe(fp); // the index key never rotates: fingerprints still match
  }, 90_000); // three runs of the admin CLI, each a cold Node start: slow on a loaded machine
});
