/**
 * Issue 22, the data path: no request may stall token-service or its database for anyone else. Duplicate pairs in
 * one tokenize, a burst of idempotent writes on a tenant whose keys are not cached, out-of-range dates, oversized
 * searches, and searches whose caller has given up (the statement must be cancelled in PostgreSQL, not left running).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { api, createTenant, type ApiResponse, type TestTenant } from '@coffer/testing';

jest.setTimeout(120_000);

const ALL = ['token:create', 'token:read', 'token:use', 'token:search'];

function dbClient(): pg.Client {
  return new pg.Client({ connectionString: process.env['COFFER_E2E_DATABASE_URL'] });
}

async function dbQuery<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = dbClient();
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

async function timed(send: () => Promise<ApiResponse>): Promise<{ res: ApiResponse; ms: number }> {
  const t0 = performance.now();
  const res = await send();
  return { res, ms: performance.now() - t0 };
}

function expectQueryProblem(res: ApiResponse, field = 'query'): void {
  expect(res.status).toBe(400);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(res.body.errors).toHaveProperty(field);
}

/** Statements of token-service still running against token_search_indexes (our own locking session is idle). */
async function searchesStillRunning(): Promise<number> {
  const rows = await dbQuery<{ n: string }>(
    `SELECT count(*) AS n FROM pg_stat_activity
     WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active' AND query ILIKE '%token_search_indexes%'`,
  );
  return Number(rows[0]?.n ?? 0);
}

describe('availability: the data path', () => {
  let tenant: TestTenant;
  let key: string;

  beforeAll(async () => {
    tenant = await createTenant('availability-data');
    key = (await tenant.app('private', { permissions: ALL })).key;
  });

  describe('tokenize with a duplicate pair resolves both to one token, at once', () => {
    it('deduplicate_token on each request', async () => {
      const data = `dup-${randomUUID()}`;
      const item = { type: 'token', data, deduplicate_token: true };
      const { res, ms } = await timed(() => api('POST', '/tokenize', { key, body: [item, item] }));
      expect(res.status).toBe(200);
      expect(res.body[0].id).toBe(res.body[1].id);
      expect(ms).toBeLessThan(2000);
      // with an idempotency key too (the write and the record share one transaction)
      const keyed = await api('POST', '/tokenize', { key, body: [item, item, item], headers: { 'SVC-IDEMPOTENCY-KEY': randomUUID() } });
      expect(keyed.status).toBe(200);
      expect(new Set(keyed.body.map((t: { id: string }) => t.id))).toEqual(new Set([res.body[0].id]));
    });

    it('the tenant setting deduplicate_tokens, with plain values and with token requests', async () => {
      const other = await createTenant('availability-dedup');
      const k = (await other.app('private', { permissions: ALL })).key;
      const put = await api('PUT', '/tenants/self', { key: other.managementKey, body: { settings: { deduplicate_tokens: true } } });
      expect(put.status).toBe(200);
      const plain = await timed(() => api('POST', '/tokenize', { key: k, body: ['a', 'a'] }));
      expect(plain.res.status).toBe(200);
      expect(plain.res.body[0]).toBe(plain.res.body[1]);
      expect(plain.ms).toBeLessThan(2000);
      const requests = await timed(() =>
        api('POST', '/tokenize', {
          key: k,
          body: [
            { type: 'token', data: 'x' },
            { type: 'token', data: 'x' },
          ],
        }),
      );
      expect(requests.res.status).toBe(200);
      expect(requests.res.body[0].id).toBe(requests.res.body[1].id);
      expect(requests.ms).toBeLessThan(2000);
      // one token each, nothing more written
      const rows = await dbQuery<{ n: string }>(`SELECT count(*) AS n FROM tokens WHERE tenant_id = $1`, [other.tenantId]);
      expect(Number(rows[0].n)).toBe(2);
    });
  });

  it('a burst of idempotent creates on a tenant whose keys are not cached all succeed, well inside the deadline', async () => {
    const fresh = await createTenant('availability-fresh');
    const k = (await fresh.app('private', { permissions: ALL })).key;
    const burst = Array.from({ length: 14 }, (_, i) =>
      timed(() => api('POST', '/tokens', { key: k, body: { type: 'token', data: `burst ${i}` }, headers: { 'SVC-IDEMPOTENCY-KEY': randomUUID() } })),
    );
    // another tenant's idempotent write meanwhile
    const neighbour = timed(() =>
      api('POST', '/tokens', { key, body: { type: 'token', data: 'neighbour' }, headers: { 'SVC-IDEMPOTENCY-KEY': randomUUID() } }),
    );
    const results = await Promise.all(burst);
    const n = await neighbour;
    expect(results.map((r) => r.res.status)).toEqual(results.map(() => 201));
    expect(Math.max(...results.map((r) => r.ms))).toBeLessThan(2500);
    expect(n.res.status).toBe(201);
    expect(n.ms).toBeLessThan(2500);
  });

  describe('dates outside the years 0001–9999 (PostgreSQL cannot store some of them) are a 400, never a 500', () => {
    const queries = [
      'created_at:-271821-04-20T00:00:00.000Z',
      'created_at:+275760-09-14T00:00:01Z',
      'created_at:[* TO -271821-04-20T00:00:00Z]',
      'created_at:[-000001-01-01T00:00:00Z TO *]',
    ];

    it.each(queries)('v1 and v2 search: %s', async (query) => {
      expectQueryProblem(await api('POST', '/tokens/search', { key, body: { query } }));
      expectQueryProblem(await api('POST', '/v2/tokens/search', { key, body: { query } }));
    });

    it('a date range within the years 1 to 9999 still searches', async () => {
      const res = await api('POST', '/tokens/search', { key, body: { query: 'created_at:[0001-01-01T00:00:00Z TO 9999-12-31T23:59:59Z]' } });
      expect(res.status).toBe(200);
    });

    it('audit logs: start_date and end_date', async () => {
      expectQueryProblem(await api('GET', '/logs?start_date=-271821-04-20T00:00:00.000Z', { key: tenant.managementKey }), 'start_date');
      expectQueryProblem(await api('GET', `/logs?end_date=${encodeURIComponent('+200000-01-01T00:00:00Z')}`, { key: tenant.managementKey }), 'end_date');
      expect((await api('GET', '/logs?start_date=2020-01-01T00:00:00Z', { key: tenant.managementKey })).status).toBe(200);
    });

    it('a v1 list cursor holding such a date', async () => {
      const start = Buffer.from(JSON.stringify(['-271821-04-20T00:00:00.000Z', 'x'])).toString('base64url');
      expectQueryProblem(await api('GET', `/tokens?start=${start}`, { key }), 'start');
    });
  });

  describe('search size', () => {
    const terms = (n: number, op = ' AND ') => Array.from({ length: n }, (_, i) => `data:v${i}`).join(op);

    it('more than 64 terms is a 400 naming query, at once (v1 and v2)', async () => {
      expectQueryProblem(await api('POST', '/tokens/search', { key, body: { query: terms(65) } }));
      expectQueryProblem(await api('POST', '/v2/tokens/search', { key, body: { query: terms(65, ' OR ') } }));
      const { res, ms } = await timed(() => api('POST', '/tokens/search', { key, body: { query: terms(400) } }));
      expectQueryProblem(res);
      expect(ms).toBeLessThan(1000);
    });

    it('nesting deeper than 8 (parentheses or NOT) is a 400', async () => {
      expectQueryProblem(await api('POST', '/tokens/search', { key, body: { query: `${'('.repeat(9)}data:a${')'.repeat(9)}` } }));
      expectQueryProblem(await api('POST', '/tokens/search', { key, body: { query: `${'NOT '.repeat(9)}data:a` } }));
      expect((await api('POST', '/tokens/search', { key, body: { query: `${'('.repeat(8)}data:a${')'.repeat(8)}` } })).status).toBe(200);
    });

    it('64 AND-ed data terms (repeats included) find the token that has all of them; OR and NOT keep their meaning', async () => {
      const tag = randomUUID().slice(0, 8);
      const values = Array.from({ length: 10 }, (_, i) => `${tag}-${i}`);
      const data = Object.fromEntries(values.map((v, i) => [`f${i}`, v]));
      const t = await api('POST', '/tokens', { key, body: { type: 'token', data, search_indexes: values.map((_, i) => `{{ data.f${i} }}`) } });
      expect(t.status).toBe(201);
      const ids = async (query: string) => {
        const res = await api('POST', '/tokens/search', { key, body: { query } });
        expect(res.status).toBe(200);
        return res.body.data.map((x: { id: string }) => x.id);
      };
      const all = Array.from({ length: 64 }, (_, i) => `data:${values[i % 10]}`).join(' AND ');
      const t0 = performance.now();
      expect(await ids(all)).toEqual([t.body.id]);
      expect(performance.now() - t0).toBeLessThan(1000);
      const [a, b] = values;
      expect(await ids(`data:${a} AND data:${b} AND data:${tag}-missing`)).toEqual([]);
      expect(await ids(`data:${a} data:${b}`)).toEqual([t.body.id]);
      expect(await ids(`data:${a} AND NOT data:${b}`)).toEqual([]);
      expect(await ids(`data:${a} AND NOT data:${tag}-missing`)).toEqual([t.body.id]);
      expect(await ids(`data:${tag}-missing OR data:${b}`)).toEqual([t.body.id]);
      expect(await ids(`(data:${a} AND data:${tag}-missing) OR (data:${b} AND id:${t.body.id})`)).toEqual([t.body.id]);
      expect(await ids(`NOT (data:${a} OR data:${tag}-missing) AND id:${t.body.id}`)).toEqual([]);
    });
  });

  describe('a search whose caller has given up is cancelled in PostgreSQL', () => {
    // An honest slow statement: another session holds a lock the search must wait for (as a migration would).
    let locker: pg.Client;
    beforeEach(async () => {
      locker = dbClient();
      await locker.connect();
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE token_search_indexes IN ACCESS EXCLUSIVE MODE');
    });
    afterEach(async () => {
      await locker.query('ROLLBACK').catch(() => undefined);
      await locker.end();
    });

    it.each([
      ['v1', '/tokens/search'],
      ['v2', '/v2/tokens/search'],
    ] as const)('%s: 504 at the deadline, and no statement left running', async (_v, path) => {
      const { res, ms } = await timed(() => api('POST', path, { key, body: { query: 'data:anything' } }));
      expect(res.status).toBe(504);
      expect(ms).toBeLessThan(6000);
      const t0 = performance.now();
      let running = await searchesStillRunning();
      while (running > 0 && performance.now() - t0 < 1000) {
        await new Promise((r) => setTimeout(r, 100));
        running = await searchesStillRunning();
      }
      expect(running).toBe(0);
    });
  });
});
