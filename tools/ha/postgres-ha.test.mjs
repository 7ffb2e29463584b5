// Smoke test of the PostgreSQL HA pieces (node --test tools/ha/postgres-ha.test.mjs; root, Debian's packages):
// writes through HAProxy while the leader dies; they resume within 30 s on the synchronous standby, which holds every
// write that was acknowledged; the old leader rejoins as the standby; stop() leaves no process behind.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { startPostgresHa } from './postgres-ha.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (msg) => process.stderr.write(`[ha] ${msg}\n`);
const pgrep = (pattern) => spawnSync('pgrep', ['-af', '--', pattern], { encoding: 'utf8' }).stdout.trim();

test('PostgreSQL HA: failover within 30 s through the same HAProxy URL, no acknowledged write lost, the old leader rejoins', { timeout: 240_000 }, async () => {
  const { default: pg } = await import('pg');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-pgha-'));
  const startedAt = Date.now();
  const ha = await startPostgresHa({ dir, log });
  log(`started in ${Date.now() - startedAt} ms`);
  const query = async (sql, params, url = ha.url) => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return await client.query(sql, params);
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  try {
    assert.equal(ha.members.length, 2);
    const max = await query('SHOW max_connections');
    assert.ok(Number(max.rows[0].max_connections) >= 200, `max_connections is ${max.rows[0].max_connections}`);
    await query('CREATE TABLE ha_drill (id int PRIMARY KEY, written_at timestamptz NOT NULL DEFAULT clock_timestamp())');

    // one writer, as a service would: a connection through HAProxy, reopened whenever it fails
    const acked = [];
    const failures = [];
    let client = null;
    let running = true;
    let nextId = 1;
    const writer = (async () => {
      while (running) {
        const id = nextId++;
        try {
          if (!client) {
            client = new pg.Client({ connectionString: ha.url, connectionTimeoutMillis: 1000 });
            client.on('error', () => undefined);
            await client.connect();
          }
          await client.query('INSERT INTO ha_drill (id) VALUES ($1)', [id]);
          acked.push({ id, at: Date.now() });
        } catch (err) {
          failures.push({ id, at: Date.now(), message: err.message });
          const dead = client;
          client = null;
          await dead?.end().catch(() => undefined);
          await sleep(100);
        }
      }
      await client?.end().catch(() => undefined);
    })();

    await sleep(1500);
    assert.ok(acked.length > 0, `no write succeeded before the kill: ${failures.map((f) => f.message).join('; ')}`);
    const before = await ha.leader();
    const killed = await ha.killLeader();
    assert.equal(killed.name, before);

    // until writes succeed again (a write after the first one that failed), then a little longer
    const firstAfterKill = () => {
      const broke = failures.find((f) => f.at >= killed.at);
      return broke && acked.find((a) => a.id > broke.id);
    };
    while (!firstAfterKill() && Date.now() - killed.at < 45_000) await sleep(50);
    await sleep(1000);
    running = false;
    await writer;

    const lastBefore = acked.filter((a) => a.at <= killed.at).at(-1);
    const firstAfter = firstAfterKill();
    assert.ok(firstAfter, `writes did not resume within 45 s (${failures.length} failed; last: ${failures.at(-1)?.message})`);
    const sinceKill = firstAfter.at - killed.at;
    const window = firstAfter.at - (lastBefore?.at ?? killed.at);
    log(
      `killed ${killed.name}; writes resumed ${sinceKill} ms after the kill (unavailable window ${window} ms: last write before ` +
        `at -${killed.at - (lastBefore?.at ?? killed.at)} ms, ${failures.length} failed attempts); new leader ${await ha.leader()}`,
    );
    assert.ok(sinceKill < 30_000, `writes resumed only ${sinceKill} ms after the kill`);
    const after = await ha.leader();
    assert.ok(after && after !== killed.name, `the leader is ${after}`);

    // synchronous replication: every acknowledged INSERT is on the new leader
    const ids = acked.map((a) => a.id);
    const present = await query('SELECT id FROM ha_drill WHERE id = ANY($1::int[])', [ids]);
    const found = new Set(present.rows.map((r) => r.id));
    const lost = ids.filter((id) => !found.has(id));
    log(`${acked.length} writes acknowledged (${acked.filter((a) => a.at <= killed.at).length} before the kill), ${lost.length} lost`);
    assert.deepEqual(lost, [], 'acknowledged writes were lost');

    // the old leader comes back as the synchronous standby, rewound onto the new timeline, with every row
    const rejoinAt = Date.now();
    await ha.restart(killed.name);
    const healthy = await ha.waitHealthy({ timeoutMs: 90_000 });
    const rewound = fs
      .readFileSync(path.join(dir, killed.name, 'patroni.log'), 'utf8')
      .split('\n')
      .filter((line) => /rewind|crash recovery|clean shutdown|basebackup/i.test(line));
    const how = rewound.length ? `its log:\n  ${rewound.slice(0, 12).join('\n  ')}` : 'without a rewind (its WAL had not gone past the new leader)';
    log(`${killed.name} rejoined as the synchronous standby in ${Date.now() - rejoinAt} ms, ${how}`);
    assert.deepEqual(healthy, { leader: after, syncStandby: killed.name });
    const old = ha.members.find((m) => m.name === killed.name);
    const direct = new URL(ha.url);
    direct.port = String(old.pgPort);
    const onOld = await query('SELECT pg_is_in_recovery() AS recovery, count(*)::int AS n FROM ha_drill WHERE id = ANY($1::int[])', [ids], direct.toString());
    assert.equal(onOld.rows[0].recovery, true);
    assert.equal(onOld.rows[0].n, ids.length);
    // and it writes again through HAProxy
    await query('INSERT INTO ha_drill (id) VALUES ($1)', [nextId + 1000]);
  } finally {
    await ha.stop();
  }
  assert.equal(pgrep(dir), '', 'processes left behind');
  assert.equal(pgrep(ha.scope), '', 'PostgreSQL processes left behind');
  assert.equal(fs.existsSync(dir), false);
});
