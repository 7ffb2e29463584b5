/**
 * Who acts, under concurrency. The services read their caller from the operation's context, and token-service writes
 * the creates (and the reads' audit records) of many requests together: a caller taken from the wrong request would
 * show up here as a token, reply or audit record naming another application, or another tenant. Generated rounds of
 * concurrent requests — creates, reads, updates and application writes by applications of two tenants, each with its
 * own trace id — are checked against a model of who made each request.
 */
import { randomUUID } from 'node:crypto';
import { api, createTenant, type TestTenant } from '@coffer/testing';

jest.setTimeout(300_000);

/** mulberry32: the same seed, the same sequence (the seed is printed with a failure) */
function generator(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Caller {
  tenant: TestTenant;
  id: string;
  key: string;
}

/** What a request was, as the model knows it: who made it, in which trace, on what. */
interface Act {
  kind: 'create' | 'read' | 'update' | 'application';
  by: Caller;
  trace: string;
  /** the token the act is on (create: the one it made) */
  tokenId?: string;
  /** the tenant that owns that token */
  owner?: TestTenant;
  status?: number;
}

/** a record of GET /logs */
type LogRecord = Record<string, unknown>;

const SEED = Number(process.env['ATTRIBUTION_SEED'] ?? Date.now() % 2 ** 31);
const ROUNDS = 5;
const PER_ROUND = 40;

describe(`who acts, under concurrency (seed ${SEED})`, () => {
  let tenants: TestTenant[];
  let callers: Caller[];
  const acts: Act[] = [];
  /**
   * token id → the tenant that created it, and who may have written it last: the updaters of the last round that
   * updated it (updates of one round race each other, so any of them may commit last)
   */
  const tokens = new Map<string, { owner: TestTenant; createdBy: string; lastWriters?: { round: number; ids: Set<string> } }>();

  beforeAll(async () => {
    tenants = await Promise.all([createTenant('attribution-a'), createTenant('attribution-b')]);
    callers = [];
    for (const tenant of tenants)
      for (let i = 0; i < 2; i++) {
        const app = await tenant.app('private', { permissions: ['token:create', 'token:read', 'token:update'] });
        callers.push({ tenant, ...app });
      }
    const random = generator(SEED);
    const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)];
    for (let round = 0; round < ROUNDS; round++) {
      const known = [...tokens.keys()];
      const batch: Act[] = [];
      for (let i = 0; i < PER_ROUND; i++) {
        const by = pick(callers);
        const r = random();
        const trace = `attribution-${randomUUID()}`;
        if (known.length === 0 || r < 0.45) batch.push({ kind: 'create', by, trace });
        else if (r < 0.7) batch.push({ kind: 'read', by, trace, ...target(pick(known)) });
        else if (r < 0.9) batch.push({ kind: 'update', by, trace, ...target(pick(known)) });
        else batch.push({ kind: 'application', by: { tenant: by.tenant, id: '', key: by.tenant.managementKey }, trace });
      }
      // all of a round at once: the creates meet in token-service's batches, the reads in its read batches
      await Promise.all(batch.map((act) => perform(act, round)));
      acts.push(...batch);
    }

    function target(id: string) {
      return { tokenId: id, owner: known(id).owner };
    }

    async function perform(act: Act, round: number): Promise<void> {
      const headers = { 'SVC-TRACE-ID': act.trace };
      const key = act.by.key;
      if (act.kind === 'create') {
        const res = await api('POST', '/tokens', { key, headers, body: { type: 'token', data: `secret-${act.trace}`, metadata: { by: act.by.id } } });
        act.status = res.status;
        expect(res.status).toBe(201);
        expect(res.body.created_by).toBe(act.by.id);
        act.tokenId = res.body.id;
        act.owner = act.by.tenant;
        tokens.set(res.body.id, { owner: act.by.tenant, createdBy: act.by.id });
      } else if (act.kind === 'read') {
        const res = await api('GET', `/tokens/${act.tokenId}`, { key, headers });
        act.status = res.status;
        expect(res.status).toBe(act.owner === act.by.tenant ? 200 : 404);
      } else if (act.kind === 'update') {
        const res = await api('PATCH', `/tokens/${act.tokenId}`, {
          key,
          headers,
          contentType: 'application/merge-patch+json',
          body: { metadata: { by: act.by.id } },
        });
        act.status = res.status;
        expect(res.status).toBe(act.owner === act.by.tenant ? 200 : 404);
        if (res.status === 200) {
          expect(res.body.modified_by).toBe(act.by.id);
          const t = known(act.tokenId);
          if (t.lastWriters?.round !== round) t.lastWriters = { round, ids: new Set() };
          t.lastWriters.ids.add(act.by.id);
        }
      } else {
        const res = await api('POST', '/applications', {
          key,
          headers,
          body: { name: `attribution ${act.trace}`, type: 'private', permissions: ['token:read'] },
        });
        act.status = res.status;
        expect(res.status).toBe(201);
      }
    }
  });

  it('every token names the application that created it, and the last one that updated it, in its own tenant only', async () => {
    for (const [id, t] of tokens) {
      const writer = callerOf(t.owner);
      const res = await api('GET', `/tokens/${id}`, { key: writer.key });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ created_by: t.createdBy, tenant_id: t.owner.tenantId });
      if (t.lastWriters) expect([...t.lastWriters.ids]).toContain(res.body.modified_by);
      const stranger = callerOf(t.owner, true);
      expect((await api('GET', `/tokens/${id}`, { key: stranger.key })).status).toBe(404);
    }
  });

  it("every act that succeeded is recorded once, as its caller, in its caller's tenant and trace; a refused one leaves nothing in the owner's", async () => {
    const records = new Map<string, LogRecord[]>();
    for (const tenant of tenants) {
      // the reads' records are written in batches: wait until every successful act of the tenant is there
      const expected = acts.filter((a) => a.by.tenant === tenant && (a.status ?? 500) < 300).length;
      let all: LogRecord[] = [];
      for (let attempt = 0; attempt < 50; attempt++) {
        all = await logsOf(tenant);
        if (all.filter((r) => String(r['trace_id'] ?? '').startsWith('attribution-')).length >= expected) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      for (const r of all)
        if (r['trace_id']) records.set(`${tenant.tenantId}/${r['trace_id']}`, [...(records.get(`${tenant.tenantId}/${r['trace_id']}`) ?? []), r]);
    }
    const operation = { create: 'create', read: 'read', update: 'update', application: 'create' } as const;
    for (const act of acts) {
      const mine = records.get(`${act.by.tenant.tenantId}/${act.trace}`) ?? [];
      const others = tenants.filter((t) => t !== act.by.tenant).flatMap((t) => records.get(`${t.tenantId}/${act.trace}`) ?? []);
      // nothing of this request in any other tenant's trail
      expect({ act: act.kind, others }).toEqual({ act: act.kind, others: [] });
      if ((act.status ?? 500) >= 300) {
        expect({ act: act.kind, status: act.status, mine }).toEqual({ act: act.kind, status: act.status, mine: [] });
        continue;
      }
      expect({ act: act.kind, records: mine.length }).toEqual({ act: act.kind, records: 1 });
      const [r] = mine;
      expect(r).toMatchObject({ tenant_id: act.by.tenant.tenantId, operation: operation[act.kind], trace_id: act.trace, actor_type: 'application' });
      if (act.kind === 'application') expect(r['entity_type']).toBe('application');
      else expect(r).toMatchObject({ actor_id: act.by.id, entity_type: 'token', entity_id: act.tokenId });
    }
  });

  function known(id: string | undefined) {
    const t = id === undefined ? undefined : tokens.get(id);
    if (!t) throw new Error(`token ${id} is not in the model`);
    return t;
  }

  /** A caller of the tenant (or, `other`, of the other tenant). */
  function callerOf(tenant: TestTenant, other = false): Caller {
    const c = callers.find((x) => (x.tenant === tenant) !== other);
    if (!c) throw new Error('no such caller');
    return c;
  }

  /** The tenant's whole trail, every page. */
  async function logsOf(tenant: TestTenant): Promise<LogRecord[]> {
    const out: LogRecord[] = [];
    for (let page = 1; ; page++) {
      const res = await api('GET', `/logs?page=${page}&size=100`, { key: tenant.managementKey });
      expect(res.status).toBe(200);
      out.push(...res.body.data);
      if (res.body.data.length < 100) return out;
    }
  }
});
