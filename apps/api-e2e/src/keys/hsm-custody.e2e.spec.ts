import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { SystemDriver } from '../support/system-driver';

// KEK_PROVIDER=pkcs11 against SoftHSM2: a Coffer of its own (tools/dev/system-driver.mjs), next to the suite's.
jest.setTimeout(240_000);

const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-hsm-e2e-logs-'));

let sys: SystemDriver;
let url: string;
let env: Record<string, string>;
let ports: Record<string, number>;

async function http(method: string, p: string, key: string, body?: unknown) {
  const res = await fetch(`${url}${p}`, {
    method,
    headers: { 'SVC-API-KEY': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type'), body: text ? JSON.parse(text) : undefined };
}

/** A tenant with a private application that can create and read tokens, and one token of it. */
async function tenantWithToken(name: string, data: string) {
  const t = await sys.call<{ tenant_id: string; management_key: string }>('createTenant', { name });
  const app = await http('POST', '/applications', t.management_key, {
    name: 'hsm app',
    type: 'private',
    permissions: ['token:create', 'token:read', 'token:use'],
  });
  expect(app.status).toBe(201);
  const created = await http('POST', '/tokens', app.body.key, { type: 'token', data });
  expect(created.status).toBe(201);
  return { tenantId: t.tenant_id, key: app.body.key as string, tokenId: created.body.id as string, data };
}

async function restart(name: string) {
  await sys.call('stopService', { name });
  await sys.call('startService', { name });
}

async function kekIds(): Promise<string[]> {
  const db = new Client({ connectionString: env['DATABASE_URL'] });
  await db.connect();
  try {
    return (await db.query('SELECT DISTINCT kek_id FROM tenant_keys ORDER BY 1')).rows.map((r) => r.kek_id);
  } finally {
    await db.end();
  }
}

const admin = (args: string[]) => sys.call<{ status: number; stdout: string; stderr: string }>('admin', { args });

async function eventually<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  let last: T = await fn();
  for (const end = Date.now() + ms; !ok(last) && Date.now() < end; ) {
    await new Promise((r) => setTimeout(r, 250));
    last = await fn();
  }
  return last;
}

beforeAll(async () => {
  sys = new SystemDriver({ hsm: true, logDir });
  ({ url, env, ports } = await sys.ready);
});

afterAll(async () => {
  if (sys && !sys.exited) await sys.call('stop');
  fs.rmSync(logDir, { recursive: true, force: true });
});

describe('KEK_PROVIDER=pkcs11 (SoftHSM2)', () => {
  let a: Awaited<ReturnType<typeof tenantWithToken>>;

  it('tokenizes and reads back with the tenant keys wrapped by the HSM key, which is sensitive and non-extractable', async () => {
    a = await tenantWithToken('hsm-a', '4242424242424242');
    const read = await http('GET', `/tokens/${a.tokenId}`, a.key);
    expect(read).toMatchObject({ status: 200, body: { data: a.data } });
    expect(await kekIds()).toEqual(['pkcs11:coffer-e2e-kek']);
    const init = await admin(['keys', 'init', '--json']);
    expect(init.status).toBe(0);
    expect(JSON.parse(init.stdout)).toEqual({ provider: 'pkcs11', kek_id: 'pkcs11:coffer-e2e-kek', created: false, sensitive: true, extractable: false });
  });

  it('after a restart finds the same key by its label (not a new one) and reads the token back', async () => {
    await restart('token-service');
    expect(await http('GET', `/tokens/${a.tokenId}`, a.key)).toMatchObject({ status: 200, body: { data: a.data } });
    const log = fs.readFileSync(path.join(logDir, 'token-service.log'), 'utf8');
    expect(log).not.toMatch(/created the key-encryption key/);
  });

  it('HSM lost: cached keys keep serving, a cold key is a 503 problem (no hang), and it recovers when the HSM returns', async () => {
    const b = await tenantWithToken('hsm-b', 'cold tenant');
    // a fresh token-service that has read only tenant a's token: b's key is cold there
    await restart('token-service');
    expect((await http('GET', `/tokens/${a.tokenId}`, a.key)).status).toBe(200);
    await sys.call('hsmAway');
    try {
      expect(await http('GET', `/tokens/${a.tokenId}`, a.key)).toMatchObject({ status: 200, body: { data: a.data } });
      const started = Date.now();
      const cold = await http('GET', `/tokens/${b.tokenId}`, b.key);
      expect(cold).toMatchObject({ status: 503, contentType: expect.stringContaining('application/problem+json'), body: { status: 503 } });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(JSON.stringify(cold.body)).not.toMatch(/CKR_|pkcs11|PIN/i);
    } finally {
      await sys.call('hsmBack');
    }
    const back = await eventually(
      () => http('GET', `/tokens/${b.tokenId}`, b.key),
      (r) => r.status === 200,
    );
    expect(back).toMatchObject({ status: 200, body: { data: 'cold tenant' } });
    const log = fs.readFileSync(path.join(logDir, 'token-service.log'), 'utf8');
    expect(log.match(/HSM lost/g)).toHaveLength(1);
    expect(log).toMatch(/HSM session established again/);
  });

  it('HSM unreachable at start: readiness stays red with one log line, then turns green when the HSM returns', async () => {
    await sys.call('stopService', { name: 'token-service' });
    const logFile = path.join(logDir, 'token-service.log');
    const before = fs.readFileSync(logFile, 'utf8').length;
    await sys.call('hsmAway');
    const starting = sys.call('startService', { name: 'token-service' });
    try {
      const readyz = () =>
        fetch(`http://127.0.0.1:${ports['token-service']}/readyz`)
          .then(async (r) => ({ status: r.status, body: (await r.json()) as { checks?: Record<string, string> } }))
          .catch(() => ({ status: 0, body: {} as { checks?: Record<string, string> } }));
      const red = await eventually(readyz, (r) => r.status === 503);
      expect(red.body.checks).toMatchObject({ key_encryption_key: 'failing', database: 'ok' });
      await new Promise((r) => setTimeout(r, 2000)); // several retries
      const lines = fs.readFileSync(logFile, 'utf8').slice(before);
      expect(lines.match(/HSM not available/g)).toHaveLength(1);
      expect(lines).not.toContain(env['PKCS11_PIN_FILE'] ? fs.readFileSync(env['PKCS11_PIN_FILE'], 'utf8').trim() + '"' : 'never');
    } finally {
      await sys.call('hsmBack');
    }
    await starting;
    expect(await http('GET', `/tokens/${a.tokenId}`, a.key)).toMatchObject({ status: 200, body: { data: a.data } });
  });

  it('moves an install from KEY_ENCRYPTION_KEYS to the HSM online: keys re-wrapped, data rows untouched', async () => {
    const old = `env-kek:${Buffer.alloc(32, 3).toString('base64')}`;
    // an install on the env KEK
    await sys.call('setEnv', { env: { KEK_PROVIDER: 'env', KEY_ENCRYPTION_KEYS: old } });
    await restart('token-service');
    const c = await tenantWithToken('env-c', 'written under the env key');
    expect(await kekIds()).toContain('env-kek');
    // the move: the HSM wraps new keys, the old key still opens the rest while `keys rewrap` runs
    await sys.call('setEnv', { env: { KEK_PROVIDER: 'pkcs11' } });
    await restart('token-service');
    expect((await http('GET', `/tokens/${c.tokenId}`, c.key)).status).toBe(200);
    const rewrap = await admin(['keys', 'rewrap', '--to', 'pkcs11', '--batch', '1', '--json']);
    expect(rewrap.status).toBe(0);
    expect(JSON.parse(rewrap.stdout)).toMatchObject({ kek_id: 'pkcs11:coffer-e2e-kek', remaining: 0 });
    expect(JSON.parse(rewrap.stdout).rewrapped).toBeGreaterThanOrEqual(1);
    expect(await kekIds()).toEqual(['pkcs11:coffer-e2e-kek']);
    // the old key removed from configuration: everything reads through the HSM
    await sys.call('setEnv', { env: { KEY_ENCRYPTION_KEYS: '' } });
    await restart('token-service');
    expect(await http('GET', `/tokens/${c.tokenId}`, c.key)).toMatchObject({ status: 200, body: { data: c.data } });
    expect(await http('GET', `/tokens/${a.tokenId}`, a.key)).toMatchObject({ status: 200, body: { data: a.data } });
    expect((await admin(['keys', 'rewrap', '--to', 'env'])).status).toBe(2);
  });

  it('under the HSM key: rotate, re-encrypt online under traffic (no failed request), then delete the tenant: its keys are destroyed', async () => {
    const d = await tenantWithToken('hsm-d', 'rotated under the HSM');
    const ids = [d.tokenId];
    for (let i = 0; i < 40; i++) {
      const r = await http('POST', '/tokens', d.key, { type: 'token', data: `row ${i}` });
      expect(r.status).toBe(201);
      ids.push(r.body.id);
    }
    const rotated = await admin(['keys', 'rotate', '--tenant', d.tenantId, '--json']);
    expect(rotated.status).toBe(0);
    let stop = false;
    const statuses: number[] = [];
    const traffic = (async () => {
      for (let n = 0; !stop; n++) {
        statuses.push((await http('GET', `/tokens/${ids[n % ids.length]}`, d.key)).status);
        if (n % 3 === 0) statuses.push((await http('POST', '/tokens', d.key, { type: 'token', data: `during ${n}` })).status);
        await new Promise((r) => setTimeout(r, 20)); // a client's pace, under the application's rate limit
      }
    })();
    const job = await admin(['keys', 'reencrypt', '--tenant', d.tenantId, '--batch-size', '10', '--json']);
    stop = true;
    await traffic;
    expect(job.status).toBe(0);
    expect(JSON.parse(job.stdout)).toMatchObject({ state: 'done', remaining: 0 });
    expect(statuses.length).toBeGreaterThan(0);
    const failed = statuses.filter((s) => s < 200 || s >= 300);
    expect({ requests: statuses.length, failed: failed.length, first: failed.slice(0, 5) }).toEqual({ requests: statuses.length, failed: 0, first: [] });
    const status = JSON.parse((await admin(['keys', 'status', '--tenant', d.tenantId, '--json'])).stdout);
    expect(status.rows_under_older_keys).toBe(0);
    expect(await kekIds()).toEqual(['pkcs11:coffer-e2e-kek']);
    for (const id of ids.slice(0, 5)) expect((await http('GET', `/tokens/${id}`, d.key)).status).toBe(200);

    const deleted = await admin(['tenants', 'delete', d.tenantId, '--yes', '--no-purge', '--json']);
    expect(deleted.status).toBe(0);
    expect(JSON.parse(deleted.stdout)).toMatchObject({ state: 'deleting' });
    const db = new Client({ connectionString: env['DATABASE_URL'] });
    await db.connect();
    try {
      expect((await db.query('SELECT count(*)::int AS n FROM tenant_keys WHERE tenant_id = $1', [d.tenantId])).rows[0].n).toBe(0);
      expect((await db.query('SELECT count(*)::int AS n FROM tokens WHERE tenant_id = $1', [d.tenantId])).rows[0].n).toBeGreaterThan(40);
    } finally {
      await db.end();
    }
    // once the gateway's key cache (5 s) has passed, the tenant's keys are refused
    const refused = await eventually(
      () => http('GET', `/tokens/${d.tokenId}`, d.key),
      (r) => r.status === 401,
    );
    expect(refused.status).toBe(401);
  });

  it('backup-and-restore drill: pg_dump, restore into a new database, start on it with the same HSM key, read the tokens back', async () => {
    const restored = await sys.call<{ databaseUrl: string; bytes: number }>('backupRestore');
    expect(restored.bytes).toBeGreaterThan(0);
    await sys.call('setEnv', { env: { DATABASE_URL: restored.databaseUrl } });
    await restart('token-service');
    expect(await http('GET', `/tokens/${a.tokenId}`, a.key)).toMatchObject({ status: 200, body: { data: a.data } });
    const log = fs.readFileSync(path.join(logDir, 'token-service.log'), 'utf8');
    expect(log).not.toMatch(/created the key-encryption key/);
  });
});
