// The bench's wait for the sealer and the relay, on a throwaway database with Coffer's own migrations (the query
// must match the real tables: a renamed column would make every window wait for its timeout).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { applyMigrations } from '../../db/migrate.mjs';
import { dropDatabase, ensureDatabase } from '../../dev/system.mjs';
import { drainDeferredWork } from './deferred-work.mjs';

const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `coffer_test_bench_${randomUUID().slice(0, 8)}`;
const url = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
const tenantId = randomUUID();
let pool;

before(async () => {
  await ensureDatabase(adminUrl, name);
  await applyMigrations(url);
  pool = new pg.Pool({ connectionString: url, max: 3 });
});

after(async () => {
  await pool?.end();
  await dropDatabase(adminUrl, name);
});

const audit = (operation) =>
  pool.query(`INSERT INTO audit_events (id, tenant_id, operation, entity_type, entity_id) VALUES ($1, $2, $3, 'token', 't1') RETURNING id`, [
    randomUUID(),
    tenantId,
    operation,
  ]);

test('nothing deferred: drained at the first look', async () => {
  const r = await drainDeferredWork(pool);
  assert.equal(r.drained, true);
  assert.ok(r.ms < 1000);
});

test('an unsealed record is waited for until the sealer has sealed it', async () => {
  const { rows } = await audit('read');
  const sealer = new Promise((r) => setTimeout(r, 150)).then(() => pool.query(`DELETE FROM audit_unsealed WHERE event_id = $1`, [rows[0].id]));
  const r = await drainDeferredWork(pool, { pollMs: 10 });
  await sealer;
  assert.equal(r.drained, true);
  assert.ok(r.ms >= 140, `waited ${r.ms} ms`);
});

test('an open refusal window is not waited for: it is sealed only when it closes, minutes later', async () => {
  await audit('refuse');
  assert.equal((await drainDeferredWork(pool, { timeoutMs: 200 })).drained, true);
});

test('an event not yet relayed is waited for; a system that never drains gives up at the timeout', async () => {
  await pool.query(`INSERT INTO event_outbox (id, tenant_id, type, event) VALUES ($1, $2, 'token.created', '{}')`, [randomUUID(), tenantId]);
  const r = await drainDeferredWork(pool, { timeoutMs: 200, pollMs: 20 });
  assert.equal(r.drained, false);
  assert.ok(r.ms >= 200 && r.ms < 2000, `gave up after ${r.ms} ms`);
  await pool.query('DELETE FROM event_outbox');
  assert.equal((await drainDeferredWork(pool)).drained, true);
});
