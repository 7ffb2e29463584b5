// The upgrade to 20261201000000_audit_seals on a database that already holds an audit trail: every sealed record keeps
// its place in its chain (seq, hash), every unsealed record is queued for the sealer, and what is written afterwards is
// queued by the trigger.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { MIGRATIONS_DIR, applyMigrations } from './migrate.mjs';

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MIGRATION = '20261201000000_audit_seals';
const name = `coffer_migrate_${randomBytes(5).toString('hex')}`;
const url = Object.assign(new URL(ADMIN_URL), { pathname: `/${name}` }).toString();
let db;
let before_;

/** The repository's history up to (not including) the audit seals migration. */
function historyBefore(migration) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-migrations-'));
  for (const entry of fs.readdirSync(MIGRATIONS_DIR)) {
    if (/^\d/.test(entry) && entry >= migration) continue;
    fs.cpSync(path.join(MIGRATIONS_DIR, entry), path.join(dir, entry), { recursive: true });
  }
  return dir;
}

async function admin(sql) {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

describe(`upgrading to ${MIGRATION}`, () => {
  const tenant = randomUUID();
  const sealed = [randomUUID(), randomUUID()];
  const unsealed = randomUUID();
  const refusal = randomUUID();

  before(async () => {
    await admin(`CREATE DATABASE "${name}"`);
    before_ = historyBefore(MIGRATION);
    await applyMigrations(url, { dir: before_ });
    db = new pg.Client({ connectionString: url });
    await db.connect();
    await db.query(
      `INSERT INTO audit_events (id, tenant_id, operation, entity_type, entity_id, seq, hash, created_at) VALUES
        ($1, $3, 'create', 'token', 't1', 1, 'h1', now() - interval '2 minutes'),
        ($2, $3, 'read', 'token', 't1', 2, 'h2', now() - interval '1 minute')`,
      [...sealed, tenant],
    );
    await db.query(
      `INSERT INTO audit_events (id, tenant_id, operation, entity_type, entity_id, source, created_at) VALUES
        ($1, $3, 'read', 'token', 't1', NULL, now()), ($2, $3, 'refuse', 'authentication', 'missing_key', '198.51.100.1', now())`,
      [unsealed, refusal, tenant],
    );
    await applyMigrations(url);
  });

  after(async () => {
    await db?.end();
    if (before_) fs.rmSync(before_, { recursive: true, force: true });
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });

  it('moves each sealed record’s seq and hash to audit_seals and drops them from audit_events', async () => {
    const { rows } = await db.query('SELECT tenant_id::text, seq::int, event_id::text, hash FROM audit_seals ORDER BY seq');
    assert.deepEqual(rows, [
      { tenant_id: tenant, seq: 1, event_id: sealed[0], hash: 'h1' },
      { tenant_id: tenant, seq: 2, event_id: sealed[1], hash: 'h2' },
    ]);
    const columns = await db.query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'audit_events' AND column_name IN ('seq', 'hash')`);
    assert.deepEqual(columns.rows, []);
  });

  it('queues the records not yet sealed, a refusal window as one', async () => {
    const { rows } = await db.query('SELECT event_id::text, refusal FROM audit_unsealed ORDER BY refusal');
    assert.deepEqual(rows, [
      { event_id: unsealed, refusal: false },
      { event_id: refusal, refusal: true },
    ]);
  });

  it('queues what is written afterwards, several records of one statement included', async () => {
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    await db.query(
      `INSERT INTO audit_events (id, tenant_id, operation, entity_type, entity_id) SELECT id, $2, 'read', 'token', 't2' FROM unnest($1::uuid[]) id`,
      [ids, tenant],
    );
    const { rows } = await db.query('SELECT count(*)::int AS n FROM audit_unsealed WHERE event_id = ANY($1::uuid[]) AND NOT refusal', [ids]);
    assert.equal(rows[0].n, 3);
  });
});
