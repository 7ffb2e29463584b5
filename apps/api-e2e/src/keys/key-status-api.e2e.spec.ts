import { randomUUID } from 'node:crypto';
import { api, createTenant, type TestTenant } from '@coffer/testing';
import type { Client } from 'pg';
import { adminJson, database } from './support';

interface KeyVersion {
  id: string;
  version: number;
  active: boolean;
  created_at: string;
  kek_provider: string;
}

interface KeysBody {
  data: KeyVersion[];
  reencryption?: { started_at: string; kinds: Array<{ kind: string; rows_total: number; rows_done: number }> };
}

const VERSION_FIELDS = ['active', 'created_at', 'id', 'kek_provider', 'version'];

/** The body holds these fields and nothing else: ids, numbers, dates, the provider — no key, no wrapped key. */
function expectOnlyMetadata(body: KeysBody): void {
  expect(Object.keys(body).filter((k) => k !== 'reencryption')).toEqual(['data']);
  for (const v of body.data) {
    expect(Object.keys(v).sort()).toEqual(VERSION_FIELDS);
    expect(v.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number.isInteger(v.version)).toBe(true);
    expect(typeof v.active).toBe('boolean');
    expect(new Date(v.created_at).toISOString()).toBe(v.created_at);
    expect(['env', 'pkcs11']).toContain(v.kek_provider);
  }
  if (body.reencryption) {
    expect(Object.keys(body.reencryption).sort()).toEqual(['kinds', 'started_at']);
    for (const k of body.reencryption.kinds) expect(Object.keys(k).sort()).toEqual(['kind', 'rows_done', 'rows_total']);
  }
}

describe('GET /tenants/self/keys: a tenant sees its data key versions, never key material', () => {
  let tenant: TestTenant;
  let other: TestTenant;
  let db: Client;
  beforeAll(async () => {
    [tenant, other] = await Promise.all([createTenant('key-status'), createTenant('key-status-other')]);
    db = await database();
  }, 60_000);
  afterAll(() => db.end());

  const keys = async (key: string) => {
    const res = await api<KeysBody, 'GET'>('GET', '/tenants/self/keys', { key });
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
    expectOnlyMetadata(res.body);
    return res.body;
  };

  it('a fresh tenant has one active version, wrapped by the env KEK', async () => {
    const body = await keys(tenant.managementKey);
    expect(body.data).toEqual([{ id: expect.any(String), version: 1, active: true, created_at: expect.any(String), kek_provider: 'env' }]);
    expect(body.reencryption).toBeUndefined();
    // asked again: the same key (the first request created it, as a first write would)
    expect((await keys(tenant.managementKey)).data).toEqual(body.data);
  });

  it('after `keys rotate`, two versions: the new one active', async () => {
    const before = (await keys(tenant.managementKey)).data;
    const rotated = await adminJson<{ rotated: Array<{ tenant_id: string; key_id: string }> }>('keys', 'rotate', '--tenant', tenant.tenantId);
    const newKeyId = rotated.rotated[0].key_id;
    const after = (await keys(tenant.managementKey)).data;
    expect(after).toEqual([
      { ...before[0], active: false },
      { id: newKeyId, version: 2, active: true, created_at: expect.any(String), kek_provider: 'env' },
    ]);
    expect(after[1].created_at >= after[0].created_at).toBe(true);
  });

  it('another tenant sees only its own keys', async () => {
    const mine = (await keys(tenant.managementKey)).data.map((v) => v.id);
    const theirs = await keys(other.managementKey);
    expect(theirs.data).toHaveLength(1);
    expect(theirs.data[0]).toMatchObject({ version: 1, active: true });
    expect(mine).not.toContain(theirs.data[0].id);
  });

  it('needs tenant:read: a private key gets 403, no key 401', async () => {
    const priv = await tenant.app('private', { permissions: ['token:create', 'token:read', 'token:use'] });
    const res = await api('GET', '/tenants/self/keys', { key: priv.key });
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect((await api('GET', '/tenants/self/keys', {})).status).toBe(401);
  });

  it("shows a running re-encryption job's progress per kind to its tenant only, and none once it is done", async () => {
    // the rows `admin keys reencrypt` persists while it runs (key_jobs, reencryption_progress), written here directly
    // so the job stands still at a known point
    const jobId = randomUUID();
    const active = (await keys(tenant.managementKey)).data.find((v) => v.active);
    if (!active) throw new Error('no active version');
    await db.query(`INSERT INTO key_jobs (id, kind, tenant_id, created_by) VALUES ($1, 'reencrypt', $2, 'e2e')`, [jobId, tenant.tenantId]);
    try {
      await db.query(
        `INSERT INTO reencryption_progress (job_id, tenant_id, kind, target_key_id, rows_total, rows_done)
         VALUES ($1, $2, 'tokens', $3, 1200, 450), ($1, $2, 'webhook_secrets', $3, 1, 1)`,
        [jobId, tenant.tenantId, active.id],
      );
      const body = await keys(tenant.managementKey);
      expect(body.reencryption).toEqual({
        started_at: expect.any(String),
        kinds: [
          { kind: 'tokens', rows_total: 1200, rows_done: 450 },
          { kind: 'webhook_secrets', rows_total: 1, rows_done: 1 },
        ],
      });
      expect(Math.abs(Date.parse(body.reencryption?.started_at ?? '') - Date.now())).toBeLessThan(60_000);
      // the job is this tenant's: the other tenant sees none
      expect((await keys(other.managementKey)).reencryption).toBeUndefined();
      await db.query(`UPDATE key_jobs SET state = 'done', finished_at = now() WHERE id = $1`, [jobId]);
      expect((await keys(tenant.managementKey)).reencryption).toBeUndefined();
    } finally {
      await db.query('DELETE FROM reencryption_progress WHERE job_id = $1', [jobId]);
      await db.query('DELETE FROM key_jobs WHERE id = $1', [jobId]);
    }
  });
});
