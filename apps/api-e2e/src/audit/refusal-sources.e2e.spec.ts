/**
 * Issue 34: the facts of a refusal (its source, actor and trace id) are the gateway's, not the client's. A refusal
 * with a huge X-Forwarded-For or the longest trace id the gateway takes used to make a window token-service rejected,
 * which the gateway re-sent for ever: no 401 or 403 of any tenant was recorded after it.
 */
import { Client } from 'pg';
import { api, apiRaw, createTenant } from '@coffer/testing';

const GLOBAL = '00000000-0000-0000-0000-000000000000';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A loopback address of its own per run (Linux answers all of 127.0.0.0/8): the socket address of these refusals. */
const loopback = () => `127.${Math.floor(Math.random() * 200) + 20}.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`;

describe('refusals: source and trace id are bounded and chosen by the gateway', () => {
  let db: Client;
  beforeAll(async () => {
    db = new Client({ connectionString: process.env['COFFER_E2E_DATABASE_URL'] });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
  });

  it('an 8,000-character X-Forwarded-For and a 128-character trace id block nothing: a later refusal of another tenant is recorded', async () => {
    const hostile = loopback();
    const traced = loopback();
    const later = loopback();
    const forged = `=cmd|' /C calc'!A0,${'9'.repeat(8_000)}`;
    const longTrace = `t${'0123456789abcdef'.repeat(8)}`.slice(0, 128);
    expect(longTrace).toHaveLength(128);
    // unauthenticated (missing key): the global chain
    const r1 = await apiRaw('GET', '/tokens', { localAddress: hostile, headers: { 'x-forwarded-for': forged } });
    expect(r1.status).toBe(401);
    const r2 = await apiRaw('GET', '/tokens', { localAddress: traced, headers: { 'svc-trace-id': longTrace, 'x-forwarded-for': '=cmd|calc' } });
    expect(r2.status).toBe(401);
    expect(r2.headers.get('svc-trace-id')).toBe(longTrace);

    // then another tenant's 403
    const tenant = await createTenant('refusal-sources');
    const weak = await tenant.app('private', { permissions: ['token:read'] });
    const r3 = await apiRaw('GET', '/applications', { key: weak.key, localAddress: later, headers: { 'svc-trace-id': 'refusal-sources-later' } });
    expect(r3.status).toBe(403);

    let mine: Array<Record<string, any>> = [];
    for (let i = 0; i < 80 && !mine.length; i++) {
      const logs = await api('GET', '/logs?entity_type=authentication&operation=refuse', { key: tenant.managementKey });
      expect(logs.status).toBe(200);
      mine = logs.body.data;
      if (!mine.length) await sleep(250);
    }
    expect(mine).toEqual([
      expect.objectContaining({ entity_id: 'forbidden', actor_type: 'anonymous', actor_id: later, source: later, count: 1, trace_id: 'refusal-sources-later' }),
    ]);

    // the earlier refusals are recorded too, under the address they came from: the header chose nothing
    const rows = async () =>
      (
        await db.query(
          `SELECT source, actor_id, trace_id, count FROM audit_events WHERE operation = 'refuse' AND tenant_id = $1 AND source = ANY($2::text[]) ORDER BY source`,
          [GLOBAL, [hostile, traced]],
        )
      ).rows;
    let found = await rows();
    for (let i = 0; i < 40 && found.length < 2; i++) {
      await sleep(250);
      found = await rows();
    }
    expect(found).toEqual(
      expect.arrayContaining([
        { source: hostile, actor_id: hostile, trace_id: expect.any(String), count: 1 },
        { source: traced, actor_id: traced, trace_id: longTrace, count: 1 },
      ]),
    );
    const { rows: chosen } = await db.query(
      `SELECT count(*)::int AS n FROM audit_events WHERE operation = 'refuse' AND (source LIKE '=cmd%' OR actor_id LIKE '=cmd%')`,
    );
    expect(chosen[0].n).toBe(0);
  }, 60_000);
});
