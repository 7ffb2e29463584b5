// tools/db/migrate.mjs against a real PostgreSQL (TEST_DATABASE_URL's server, else 127.0.0.1:5432): the history it
// records is the one `prisma migrate deploy` records, failures and concurrency included.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { applyMigrations, readMigrations } from './migrate.mjs';

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const created = [];

async function admin(sql) {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    return await c.query(sql);
  } finally {
    await c.end();
  }
}

async function freshDatabase() {
  const name = `coffer_migrate_${randomBytes(5).toString('hex')}`;
  await admin(`CREATE DATABASE "${name}"`);
  created.push(name);
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

async function query(url, sql, params) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql, params)).rows;
  } finally {
    await c.end();
  }
}

function historyDir(migrations) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-migrations-'));
  fs.writeFileSync(path.join(dir, 'migration_lock.toml'), 'provider = "postgresql"\n');
  for (const [name, sql] of Object.entries(migrations)) {
    fs.mkdirSync(path.join(dir, name));
    fs.writeFileSync(path.join(dir, name, 'migration.sql'), sql);
  }
  return dir;
}

after(async () => {
  for (const name of created) await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
});

describe('migrate deploy', () => {
  let url;
  before(async () => {
    url = await freshDatabase();
  });

  it('applies the repository history and records each migration as Prisma does', async () => {
    const applied = await applyMigrations(url);
    const history = readMigrations();
    assert.deepEqual(
      applied,
      history.map((m) => m.name),
    );
    const rows = await query(url, 'SELECT * FROM _prisma_migrations ORDER BY migration_name');
    assert.equal(rows.length, history.length);
    for (const [i, m] of history.entries()) {
      const row = rows[i];
      assert.equal(row.migration_name, m.name);
      assert.equal(
        row.checksum,
        createHash('sha256')
          .update(fs.readFileSync(`prisma/migrations/${m.name}/migration.sql`))
          .digest('hex'),
      );
      assert.match(row.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.equal(row.applied_steps_count, 1);
      assert.equal(row.logs, null);
      assert.equal(row.rolled_back_at, null);
      assert.ok(row.finished_at >= row.started_at);
    }
  });

  it('creates the table with the columns, types and defaults of Prisma schema engine', async () => {
    const columns = await query(
      url,
      `SELECT column_name, data_type, character_maximum_length AS len, is_nullable, column_default FROM information_schema.columns
        WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
    );
    assert.deepEqual(
      columns.map((c) => [c.column_name, c.data_type, c.len, c.is_nullable, c.column_default]),
      [
        ['id', 'character varying', 36, 'NO', null],
        ['checksum', 'character varying', 64, 'NO', null],
        ['finished_at', 'timestamp with time zone', null, 'YES', null],
        ['migration_name', 'character varying', 255, 'NO', null],
        ['logs', 'text', null, 'YES', null],
        ['rolled_back_at', 'timestamp with time zone', null, 'YES', null],
        ['started_at', 'timestamp with time zone', null, 'NO', 'now()'],
        ['applied_steps_count', 'integer', null, 'NO', '0'],
      ],
    );
  });

  it('applies nothing the second time', async () => {
    assert.deepEqual(await applyMigrations(url), []);
  });
});

describe('migrate deploy with a failing migration', () => {
  it('applies nothing of it, records it as failed with the error, and refuses to go on (P3009)', async () => {
    const url = await freshDatabase();
    const dir = historyDir({
      '20260101000000_one': 'CREATE TABLE "One" ("id" TEXT PRIMARY KEY);\n',
      '20260101000001_two': 'CREATE TABLE "Two" ("id" TEXT PRIMARY KEY);\nSELECT no_such_function();\n',
    });
    await assert.rejects(applyMigrations(url, { dir }), /20260101000001_two failed: function no_such_function\(\) does not exist/);
    const rows = await query(url, 'SELECT migration_name, finished_at, applied_steps_count, logs FROM _prisma_migrations ORDER BY migration_name');
    assert.equal(rows.length, 2);
    assert.ok(rows[0].finished_at);
    assert.equal(rows[1].finished_at, null);
    assert.equal(rows[1].applied_steps_count, 0);
    assert.match(rows[1].logs, /no_such_function/);
    const tables = await query(url, `SELECT table_name FROM information_schema.tables WHERE table_name IN ('One', 'Two') ORDER BY 1`);
    assert.deepEqual(
      tables.map((t) => t.table_name),
      ['One'],
    );
    await assert.rejects(applyMigrations(url, { dir }), /P3009: .*20260101000001_two/);
  });
});

describe('migrate deploy on a database it did not create', () => {
  it('refuses a schema with tables but no history (P3005)', async () => {
    const url = await freshDatabase();
    await query(url, 'CREATE TABLE "Elsewhere" (id int)');
    await assert.rejects(applyMigrations(url, { dir: historyDir({ '20260101000000_one': 'CREATE TABLE "One" (id int);' }) }), /P3005/);
  });

  it("waits for Prisma Migrate's advisory lock", async () => {
    const url = await freshDatabase();
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query('SELECT pg_advisory_lock(72707369)');
    let done = false;
    const run = applyMigrations(url, { dir: historyDir({ '20260101000000_one': 'CREATE TABLE "One" (id int);' }) }).then((r) => ((done = true), r));
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(done, false);
    await holder.end();
    assert.deepEqual(await run, ['20260101000000_one']);
  });
});
