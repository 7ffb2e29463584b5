import http from 'node:http';
import { api, createTenant, type TestTenant } from '@coffer/testing';
import type { Client } from 'pg';
import { adminChild, adminJson, database, expectAllReadable, inParallel, seed, type SeededTenant } from './support';

const KINDS = [
  'tokens',
  'token_intents',
  'reactor_configurations',
  'proxy_secrets',
  'job_arguments',
  'job_outcomes',
  'webhook_bodies',
  'webhook_secrets',
  'idempotency_replies',
];

interface Status {
  kinds: Record<string, Array<{ tenant_id: string; key_id: string; key_version: number | null; active: boolean; rows: number }>>;
  rows: number;
  rows_under_active_keys: number;
  rows_under_older_keys: number;
}

/** coffer_reencryption_rows_remaining{kind} as token-service exports it. */
async function gauge(kind: string): Promise<number | undefined> {
  const ports = JSON.parse(process.env['COFFER_E2E_METRICS_PORTS'] as string) as Record<string, number>;
  // a connection of its own (no keep-alive reuse across the long CLI runs of this file)
  const text = await new Promise<string>((resolve, reject) =>
    http
      .get({ host: '127.0.0.1', port: ports['token-service'], path: '/metrics', agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve(body));
      })
      .on('error', reject),
  );
  const line = text.split('\n').find((l) => l.startsWith(`coffer_reencryption_rows_remaining{kind="${kind}"}`));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

async function progressOf(db: Client, tenantId: string): Promise<{ done: number; total: number }> {
  const r = await db.query(
    `SELECT coalesce(sum(p.rows_done), 0)::int AS done, coalesce(sum(p.rows_total), 0)::int AS total
     FROM reencryption_progress p JOIN key_jobs j ON j.id = p.job_id WHERE j.tenant_id = $1 AND j.state = 'running'`,
    [tenantId],
  );
  return r.rows[0];
}

describe('keys rotate | reencrypt | status: every sealed value moves to the newest data key', () => {
  let db: Client;
  let tenant: TestTenant;
  let seeded: SeededTenant;
  beforeAll(async () => {
    db = await database();
    tenant = await createTenant('reencrypt');
    seeded = await seed(tenant, 600);
  }, 600_000);
  afterAll(() => db.end());

  it('status counts the rows of every kind per key version; rotate adds a version and the rows stay under the old one', async () => {
    const before = await adminJson<Status>('keys', 'status', '--tenant', tenant.tenantId);
    for (const kind of KINDS) {
      expect(before.kinds[kind]).toEqual([expect.objectContaining({ tenant_id: tenant.tenantId, key_version: 1, active: true })]);
    }
    expect(before.kinds['tokens'][0].rows).toBe(601);
    expect(before.rows_under_older_keys).toBe(0);
    const rotated = await adminJson<{ tenants: number; rotated: Array<{ tenant_id: string; key_id: string }> }>('keys', 'rotate', '--tenant', tenant.tenantId);
    expect(rotated).toMatchObject({ tenants: 1, rotated: [{ tenant_id: tenant.tenantId }] });
    expect(rotated.rotated[0].key_id).not.toBe(before.kinds['tokens'][0].key_id);
    const after = await adminJson<Status>('keys', 'status', '--tenant', tenant.tenantId);
    expect(after.rows_under_older_keys).toBe(before.rows);
    expect(after.kinds['tokens']).toEqual([expect.objectContaining({ key_version: 1, active: false, rows: 601 })]);
  }, 600_000);

  it('a job killed with kill -9 resumes from its last batch and finishes: every row under the new key, all of it readable', async () => {
    const first = adminChild('keys', 'reencrypt', '--tenant', tenant.tenantId, '--rate', '100', '--batch-size', '25', '--json');
    let at = { done: 0, total: 0 };
    // the CLI starts (slowly on a loaded machine), then moves 100 rows/s: stop it after the first 150
    for (const until = Date.now() + 240_000; Date.now() < until && at.done < 150; ) {
      await new Promise((r) => setTimeout(r, 100));
      at = await progressOf(db, tenant.tenantId);
    }
    expect(at.done).toBeGreaterThanOrEqual(150);
    // the gauge is computed from the persisted progress: it shows the rows still to move while the job runs (summed
    // over the kinds: the job may be done with tokens and waiting for the rotation to settle before the next kind)
    const remaining = (await Promise.all(KINDS.map((k) => gauge(k)))).reduce<number>((sum, n) => sum + (n ?? 0), 0);
    expect(remaining).toBeGreaterThan(0);
    first.kill('SIGKILL');
    const killed = await first.done;
    expect(killed.code).toBeNull();
    const stopped = await progressOf(db, tenant.tenantId);
    expect(stopped.done).toBeLessThan(stopped.total);
    // the persisted count is exactly the rows rewritten (progress moves in the statement of each batch)
    const moved = await db.query(`SELECT count(*)::int AS n FROM tokens t JOIN tenant_keys k ON k.id = t.data_key_id WHERE t.tenant_id = $1 AND k.active`, [
      tenant.tenantId,
    ]);
    const tokensDone = await db.query(
      `SELECT p.rows_done FROM reencryption_progress p JOIN key_jobs j ON j.id = p.job_id WHERE j.tenant_id = $1 AND j.state = 'running' AND p.kind = 'tokens'`,
      [tenant.tenantId],
    );
    expect(Number(tokensDone.rows[0].rows_done)).toBe(moved.rows[0].n);

    const second = await adminJson<{ state: string; resumed: boolean; rows_total: number; rows_done: number; rows_this_run: number; remaining: number }>(
      'keys',
      'reencrypt',
      '--tenant',
      tenant.tenantId,
    );
    expect(second).toMatchObject({ state: 'done', resumed: true, remaining: 0, rows_total: stopped.total, rows_done: stopped.total });
    expect(second.rows_this_run).toBe(stopped.total - stopped.done);
    expect(await gauge('tokens')).toBe(0);

    const status = await adminJson<Status>('keys', 'status', '--tenant', tenant.tenantId);
    expect(status.rows_under_older_keys).toBe(0);
    for (const kind of KINDS) expect(status.kinds[kind]).toEqual([expect.objectContaining({ key_version: 2, active: true })]);
    await expectAllReadable(tenant, seeded);
  }, 600_000);

  it('runs online: reads, writes and updates keep succeeding during the job (0 non-2xx) and no concurrent update is lost', async () => {
    const busy = await createTenant('reencrypt-online');
    const data = await seed(busy, 300);
    await adminJson('keys', 'rotate', '--tenant', busy.tenantId);
    let stop = false;
    const statuses = new Map<number, number>();
    const latest = new Map<string, string>();
    const count = (s: number) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
    // four clients, each updating only its own quarter of the tokens (so "the last update" is well defined)
    const traffic = Array.from({ length: 4 }, async (_, w) => {
      const mine = data.tokens.filter((_, i) => i % 4 === w);
      for (let n = 0; !stop; n++) {
        const t = mine[n % mine.length];
        const op = n % 4;
        if (op === 0) {
          const value = `updated ${w}-${n}`;
          const res = await api('PATCH', `/tokens/${t.id}`, { key: data.key, body: { data: value }, contentType: 'application/merge-patch+json' });
          count(res.status);
          if (res.status === 200) latest.set(t.id, value);
        } else if (op === 1) {
          count((await api('POST', '/tokens', { key: data.key, body: { type: 'token', data: `new ${w}-${n}` } })).status);
        } else {
          count((await api('GET', `/tokens/${t.id}`, { key: data.key })).status);
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    });
    const job = adminChild('keys', 'reencrypt', '--tenant', busy.tenantId, '--rate', '300', '--batch-size', '100', '--json');
    const finished = await job.done;
    stop = true;
    await Promise.all(traffic);
    const result = JSON.parse(finished.stdout) as { state: string; rows_this_run: number; conflicts_retried: number; seconds: number };
    const total = [...statuses.values()].reduce((a, b) => a + b, 0);
    const failed = [...statuses.entries()].filter(([s]) => s < 200 || s >= 300).reduce((a, [, n]) => a + n, 0);
    process.stdout.write(
      `online re-encryption: ${result.rows_this_run} rows in ${result.seconds} s, ${result.conflicts_retried} concurrent updates retried; ` +
        `${total} requests during the job, ${failed} non-2xx ${JSON.stringify(Object.fromEntries(statuses))}\n`,
    );
    expect(finished.code).toBe(0);
    expect(result.state).toBe('done');
    expect(total).toBeGreaterThan(100);
    expect(failed).toBe(0);
    const status = await adminJson<Status>('keys', 'status', '--tenant', busy.tenantId);
    expect(status.rows_under_older_keys).toBe(0);
    const lost = await inParallel([...latest.entries()], 8, async ([id, value]) => (await api('GET', `/tokens/${id}`, { key: data.key })).body.data !== value);
    expect(lost.filter(Boolean)).toHaveLength(0);
  }, 600_000);
});
