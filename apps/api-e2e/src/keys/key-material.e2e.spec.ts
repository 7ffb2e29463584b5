/**
 * Issue 24, security: no key material in clear in the services' logs, the operator CLI's output or the database.
 * Every tenant key of the suite's database is unwrapped here with the key-encryption key (the test knows it; the
 * services never write it anywhere), and the logs, the CLI's output and a plain-text pg_dump are searched for each
 * key and for the key-encryption key, in every encoding a careless line would use (hex, base64, base64url).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { KeyEncryptionKeys } from '@coffer/crypto';
import { createTenant } from '@coffer/testing';
import type { Client } from 'pg';
import { admin, database, seed } from './support';

jest.setTimeout(300_000);

const encodings = (key: Uint8Array): string[] => {
  const b = Buffer.from(key);
  return [b.toString('hex'), b.toString('base64').replace(/=+$/, ''), b.toString('base64url')];
};

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

describe('key material never in clear', () => {
  let db: Client;
  beforeAll(async () => {
    db = await database();
  });
  afterAll(() => db.end());

  it('no data or index key, nor the key-encryption key, appears in the logs, the CLI output or a dump of the database', async () => {
    // a tenant with every kind of sealed value, a rotation and a re-encryption: the paths that handle keys
    const tenant = await createTenant('key-material');
    await seed(tenant, 20);
    const cli = [await admin('keys', 'rotate', '--tenant', tenant.tenantId, '--json'), await admin('keys', 'status', '--json')];
    for (const r of cli) expect(r.status).toBe(0);

    const kekEntry = process.env['COFFER_E2E_KEK'] as string;
    const keks = KeyEncryptionKeys.parse(kekEntry);
    const secrets = new Map<string, string>();
    for (const s of kekEntry.split(',').map((e) => e.slice(e.indexOf(':') + 1))) secrets.set(s.replace(/=+$/, ''), 'the key-encryption key');
    const rows = await db.query<{ id: string; tenant_id: string; purpose: string; kek_id: string; wrapped_key: Buffer }>(
      'SELECT id, tenant_id, purpose, kek_id, wrapped_key FROM tenant_keys',
    );
    let unwrapped = 0;
    for (const k of rows.rows) {
      let key: Uint8Array;
      try {
        key = keks.unwrap(k.kek_id, k.wrapped_key, `coffer:${k.purpose}:${k.tenant_id}:${k.id}`);
      } catch {
        continue; // wrapped by a key this test does not hold (none in this suite)
      }
      unwrapped++;
      for (const e of encodings(key)) secrets.set(e, `${k.purpose} key ${k.id}`);
    }
    expect(unwrapped).toBeGreaterThanOrEqual(2);
    expect(unwrapped).toBe(rows.rows.length);

    const dump = spawnSync('pg_dump', ['--data-only', '--no-owner', process.env['COFFER_E2E_DATABASE_URL'] as string], {
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    });
    expect(dump.status).toBe(0);
    const places: Array<[string, string]> = [
      ['pg_dump', dump.stdout],
      ...cli.map((r, i): [string, string] => [`admin output ${i}`, r.stdout + r.stderr]),
      ...filesUnder(process.env['COFFER_E2E_LOG_DIR'] as string).map((f): [string, string] => [f, fs.readFileSync(f, 'utf8')]),
    ];
    expect(places.length).toBeGreaterThan(3);
    const found: string[] = [];
    for (const [where, text] of places) {
      const lower = text.toLowerCase();
      // hex is compared case-insensitively (pg_dump prints bytea as \x + lower-case hex), base64 as written
      for (const [secret, what] of secrets) if ((/^[0-9a-f]+$/.test(secret) ? lower : text).includes(secret)) found.push(`${what} in ${where}`);
    }
    expect(found).toEqual([]);
  });
});
