/**
 * Issue 13: GET /v2/tokens and POST /v2/tokens/search, the cursor-paged token lists of the mirrored API's v2, as
 * `@basis-theory/node-sdk` sends and parses them (metadata as one JSON object in the query; `{data, pagination:
 * {page_size, next}}`), with v1's access rules, and cursors that are opaque and refuse tampering with a 400.
 */
import { BasisTheoryClient } from '@basis-theory/node-sdk';
import { VISA, api, createTenant, gatewayUrl, type TestTenant, apiDynamic } from '@coffer/testing';

jest.setTimeout(180_000);

const PAGE = (body: { data: Array<{ id: string }>; pagination: { page_size: number; next?: string } }) => body;
const q = (params: Record<string, string | number>) =>
  Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');

describe('tokens v2: cursor-paged list and search', () => {
  let tenant: TestTenant;
  let key: string;
  const WALK = 2500;
  /** ids of the walk batch, newest first, as the list orders them */
  let walkIds: string[] = [];

  beforeAll(async () => {
    tenant = await createTenant('tokens-v2');
    key = (await tenant.app('private', { permissions: ['token:create', 'token:read', 'token:use', 'token:search'] })).key;
    // a few thousand tokens, 100 per tokenize call; each call's tokens share created_at up to the millisecond
    const created: string[] = [];
    for (let i = 0; i < WALK; i += 100) {
      const body = Array.from({ length: 100 }, (_, j) => ({ type: 'token', data: `walk ${i + j}`, metadata: { batch: 'Walk', n: String(i + j) } }));
      const res = await api('POST', '/tokenize', { key, body });
      expect(res.status).toBe(200);
      created.push(...(res.body as Array<{ id: string }>).map((t) => t.id));
    }
    walkIds = created;
  });

  it('GET /v2/tokens answers {data, pagination: {page_size, next}} and filters by metadata sent as a JSON object', async () => {
    const a = await api('POST', '/tokens', {
      key,
      body: { type: 'card', data: { number: VISA, expiration_month: 1, expiration_year: 2031 }, metadata: { customer: 'C-1', tier: 'gold' } },
    });
    const b = await api('POST', '/tokens', { key, body: { type: 'token', data: 'b', metadata: { customer: 'c-1' } } });
    await api('POST', '/tokens', { key, body: { type: 'token', data: 'c', metadata: { customer: 'c-2' } } });
    const res = await api('GET', `/v2/tokens?${q({ metadata: JSON.stringify({ customer: 'c-1' }) })}`, { key });
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page_size: 20 });
    expect(res.body.data.map((t: { id: string }) => t.id)).toEqual([b.body.id, a.body.id]);
    expect(res.body.data[1].data.number).toBe(VISA); // token:use reveals, as in v1
    // keys ANDed, values case-insensitive; type, container and fingerprint filter too; the v1 form works as well
    const both = await api('GET', `/v2/tokens?${q({ metadata: JSON.stringify({ Customer: 'C-1', tier: 'GOLD' }) })}`, { key });
    expect(both.body.data.map((t: { id: string }) => t.id)).toEqual([a.body.id]);
    const typed = await api('GET', `/v2/tokens?${q({ metadata: JSON.stringify({ customer: 'c-1' }), type: 'card' })}`, { key });
    expect(typed.body.data.map((t: { id: string }) => t.id)).toEqual([a.body.id]);
    const contained = await api('GET', `/v2/tokens?${q({ metadata: JSON.stringify({ customer: 'c-1' }), container: '/PCI/*' })}`, { key });
    expect(contained.body.data.map((t: { id: string }) => t.id)).toEqual([a.body.id]);
    const exact = await api('GET', `/v2/tokens?${q({ container: '/general/high/', metadata: JSON.stringify({ customer: 'c-1' }) })}`, { key });
    expect(exact.body.data.map((t: { id: string }) => t.id)).toEqual([b.body.id]);
    const fp = await api('GET', `/v2/tokens?${q({ fingerprint: a.body.fingerprint })}`, { key });
    expect(fp.body.data.map((t: { id: string }) => t.id)).toEqual([a.body.id]);
    const v1Form = await api('GET', `/v2/tokens?metadata.customer=C-1&size=1`, { key });
    expect(v1Form.body.data.map((t: { id: string }) => t.id)).toEqual([b.body.id]);
    expect(typeof v1Form.body.pagination.next).toBe('string');
  });

  it('walks a few thousand tokens page by page with no duplicates, no gaps, newest first', async () => {
    const seen: string[] = [];
    const createdAt: number[] = [];
    const timings: number[] = [];
    let start: string | undefined;
    for (let pages = 0; pages < 100; pages++) {
      const t0 = performance.now();
      const res = await api('GET', `/v2/tokens?${q({ metadata: JSON.stringify({ batch: 'walk' }), size: 100, ...(start ? { start } : {}) })}`, { key });
      timings.push(performance.now() - t0);
      expect(res.status).toBe(200);
      const page = PAGE(res.body);
      expect(page.pagination.page_size).toBe(100);
      seen.push(...page.data.map((t) => t.id));
      createdAt.push(...(page.data as unknown as Array<{ created_at: string }>).map((t) => Date.parse(t.created_at)));
      if (!page.pagination.next) break;
      start = page.pagination.next;
    }
    expect(seen.length).toBe(WALK);
    expect(new Set(seen).size).toBe(WALK);
    expect(new Set(seen)).toEqual(new Set(walkIds));
    // newest first across every page boundary; the last tokenize call's tokens lead
    expect(createdAt.every((t, i) => i === 0 || t <= createdAt[i - 1])).toBe(true);
    expect(new Set(seen.slice(0, 100))).toEqual(new Set(walkIds.slice(WALK - 100)));
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    console.log(
      `[tokens v2] ${timings.length} pages of 100: first ${timings[0].toFixed(1)} ms, median ${median(timings).toFixed(1)} ms, last ${timings[timings.length - 1].toFixed(1)} ms`,
    );
  });

  it('POST /v2/tokens/search pages by cursor too; no query means every searchable token', async () => {
    const seen = new Set<string>();
    let start: string | undefined;
    let pages = 0;
    do {
      const res = await api('POST', '/v2/tokens/search', { key, body: { query: 'metadata.batch:walk', size: 100, ...(start ? { start } : {}) } });
      expect(res.status).toBe(200);
      for (const t of res.body.data) seen.add(t.id);
      start = res.body.pagination.next;
      pages++;
    } while (start && pages < 100);
    expect(seen.size).toBe(WALK);
    const narrow = await api('POST', '/v2/tokens/search', { key, body: { query: 'metadata.n:7 OR metadata.n:1234', size: 5 } });
    expect(narrow.status).toBe(200);
    expect(narrow.body.data.map((t: { data: string }) => t.data).sort()).toEqual(['walk 1234', 'walk 7']);
    expect(narrow.body.pagination).toEqual({ page_size: 5 });
    const all = await api('POST', '/v2/tokens/search', { key, body: {} });
    expect(all.status).toBe(200);
    expect(all.body.data).toHaveLength(20);
    expect(typeof all.body.pagination.next).toBe('string');
    expect((await api('POST', '/v2/tokens/search', { key, body: { query: 'metadata.batch:(' } })).status).toBe(400);
  });

  it('bad cursors are 400 problems: garbage, tampered, too long, from another query, from another tenant, v1-style', async () => {
    const first = await api('GET', `/v2/tokens?${q({ metadata: JSON.stringify({ batch: 'walk' }), size: 10 })}`, { key });
    const next: string = first.body.pagination.next;
    expect(next).toMatch(/^[A-Za-z0-9_-]+$/);
    // opaque: nothing of the position (an id, a date) can be read from it
    expect(Buffer.from(next, 'base64url').toString('latin1')).not.toContain(first.body.data[9].id);
    const flipped = next.slice(0, 20) + (next[20] === 'A' ? 'B' : 'A') + next.slice(21);
    const v1Style = Buffer.from(JSON.stringify([new Date().toISOString(), first.body.data[9].id])).toString('base64url');
    const other = await createTenant('tokens-v2-other');
    const otherKey = (await other.app('private', { permissions: ['token:read', 'token:search'] })).key;
    const cases: Array<[string, string, string]> = [
      ['garbage', `/v2/tokens?start=${encodeURIComponent('%%not a cursor%%')}`, key],
      ['tampered', `/v2/tokens?${q({ metadata: JSON.stringify({ batch: 'walk' }), start: flipped })}`, key],
      ['too long', `/v2/tokens?start=${'A'.repeat(5000)}`, key],
      ['another query', `/v2/tokens?${q({ metadata: JSON.stringify({ batch: 'other' }), start: next })}`, key],
      ['no filter', `/v2/tokens?${q({ start: next })}`, key],
      ['another tenant', `/v2/tokens?${q({ metadata: JSON.stringify({ batch: 'walk' }), start: next })}`, otherKey],
      ['v1-style cursor', `/v2/tokens?${q({ metadata: JSON.stringify({ batch: 'walk' }), start: v1Style })}`, key],
    ];
    for (const [name, path, k] of cases) {
      const res = await apiDynamic('GET', path, { key: k });
      expect({ name, status: res.status, type: res.headers.get('content-type') }).toEqual({
        name,
        status: 400,
        type: expect.stringMatching(/^application\/problem\+json/),
      });
      expect(res.body.errors).toHaveProperty('start');
    }
    const searchNext = (await api('POST', '/v2/tokens/search', { key, body: { query: 'metadata.batch:walk', size: 10 } })).body.pagination.next;
    expect((await api('POST', '/v2/tokens/search', { key, body: { query: 'metadata.batch:walk', start: searchNext } })).status).toBe(200);
    expect((await api('POST', '/v2/tokens/search', { key, body: { query: 'type:token', start: searchNext } })).status).toBe(400);
    expect((await api('POST', '/v2/tokens/search', { key, body: { query: 'metadata.batch:walk', start: next } })).status).toBe(400);
    expect((await api('POST', '/v2/tokens/search', { key, body: { query: 'metadata.batch:walk', start: 42 } })).status).toBe(400);
    // the same cursor keeps working with another page size
    expect((await api('GET', `/v2/tokens?${q({ metadata: JSON.stringify({ batch: 'walk' }), size: 3, start: next })}`, { key })).status).toBe(200);
  });

  it('other bad input is a 400 naming the field: metadata that is not a JSON object of strings, size, page', async () => {
    const bad = async (path: string, field: string) => {
      const res = await apiDynamic('GET', path, { key });
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      expect(res.body.errors).toHaveProperty([field]);
    };
    await bad(`/v2/tokens?metadata=${encodeURIComponent('{not json')}`, 'metadata');
    await bad(`/v2/tokens?metadata=${encodeURIComponent('["a"]')}`, 'metadata');
    await bad(`/v2/tokens?metadata=${encodeURIComponent('{"a":1}')}`, 'metadata.a');
    await bad('/v2/tokens?size=101', 'size');
    await bad('/v2/tokens?size=-1', 'size');
    await bad('/v2/tokens?page=2', 'page');
    const search = await api('POST', '/v2/tokens/search', { key, body: { query: 5, size: 'x' } });
    expect(search.status).toBe(400);
    expect(Object.keys(search.body.errors).sort()).toEqual(['query', 'size']);
  });

  it('access rules as v1: rules narrow and transform, sessions stay within their grants, other keys get 403', async () => {
    const pci = await api('POST', '/tokens', { key, body: { type: 'card_number', data: VISA, metadata: { access: 'check' } } });
    const general = await api('POST', '/tokens', { key, body: { type: 'token', data: 'general secret', metadata: { access: 'check' } } });
    const filter = q({ metadata: JSON.stringify({ access: 'check' }) });
    // an application whose rules reach /pci/ only, masked
    const ruled = (
      await tenant.app('private', {
        rules: [{ description: 'pci masked', priority: 1, container: '/pci/', transform: 'mask', permissions: ['token:read', 'token:search'] }],
      })
    ).key;
    const listed = await api('GET', `/v2/tokens?${filter}`, { key: ruled });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((t: { id: string; data: unknown }) => [t.id, t.data])).toEqual([[pci.body.id, 'XXXXXXXXXXXX4242']]);
    const searched = await api('POST', '/v2/tokens/search', { key: ruled, body: { query: 'metadata.access:check' } });
    expect(searched.body.data.map((t: { id: string }) => t.id)).toEqual([pci.body.id]);
    // a session authorized for the general token only (redacted): it never sees the card, nor the data
    const pub = (await tenant.app('public', { permissions: ['token:create'] })).key;
    const session = (await api('POST', '/sessions', { key: pub })).body as { session_key: string; nonce: string };
    const authorize = await api('POST', '/sessions/authorize', {
      key,
      body: {
        nonce: session.nonce,
        rules: [
          {
            description: 'one token',
            priority: 1,
            conditions: [{ attribute: 'id', operator: 'equals', value: general.body.id }],
            transform: 'redact',
            permissions: ['token:read'],
          },
        ],
      },
    });
    expect(authorize.status).toBe(200);
    const mine = await api('GET', `/v2/tokens?${filter}`, { key: session.session_key });
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((t: { id: string }) => t.id)).toEqual([general.body.id]);
    expect(mine.body.data[0]).not.toHaveProperty('data');
    // the session walking the whole tenant sees that one token and nothing else, across every page
    const walked: string[] = [];
    let start: string | undefined;
    do {
      const res = await api('GET', `/v2/tokens?${q({ size: 100, ...(start ? { start } : {}) })}`, { key: session.session_key });
      walked.push(...res.body.data.map((t: { id: string }) => t.id));
      start = res.body.pagination.next;
    } while (start);
    expect(walked).toEqual([general.body.id]);
    // the session may not search (not granted); public and management keys may not list; no key is 401
    expect((await api('POST', '/v2/tokens/search', { key: session.session_key, body: {} })).status).toBe(403);
    expect((await api('GET', '/v2/tokens', { key: pub })).status).toBe(403);
    expect((await api('POST', '/v2/tokens/search', { key: pub, body: {} })).status).toBe(403);
    expect((await api('GET', '/v2/tokens', { key: tenant.managementKey })).status).toBe(403);
    expect((await api('GET', '/v2/tokens')).status).toBe(401);
    // another tenant sees none of these tokens
    const other = await createTenant('tokens-v2-isolation');
    const otherKey = (await other.app('private', { permissions: ['token:read'] })).key;
    expect((await api('GET', `/v2/tokens?${filter}`, { key: otherKey })).body.data).toEqual([]);
  });

  it('v1 GET /tokens and POST /tokens/search keep their offset pages', async () => {
    const list = await api('GET', '/tokens?metadata.batch=walk&size=10&page=3', { key });
    expect(list.status).toBe(200);
    expect(list.body.pagination).toEqual({ total_items: WALK, page_number: 3, page_size: 10, total_pages: WALK / 10 });
    const search = await api('POST', '/tokens/search', { key, body: { query: 'metadata.batch:walk', size: 10, page: 2 } });
    expect(search.body.pagination).toEqual({ total_items: WALK, page_number: 2, page_size: 10, total_pages: WALK / 10 });
  });

  it('the node SDK lists and searches through its pager (tokens.listV2, tokens.searchV2)', async () => {
    const client = new BasisTheoryClient({ apiKey: key, environment: gatewayUrl() });
    const listed: string[] = [];
    const pager = await client.tokens.listV2({ metadata: { batch: 'walk' }, size: 100 });
    for await (const token of pager) listed.push(token.id as string);
    expect(listed.length).toBe(WALK);
    expect(new Set(listed).size).toBe(WALK);
    const page = await client.tokens.searchV2({ query: 'metadata.n:42', size: 10 });
    expect(page.data.map((t) => t.data)).toEqual(['walk 42']);
    expect(page.data[0].createdAt).toBeInstanceOf(Date);
    expect(page.hasNextPage()).toBe(false);
  });
});
