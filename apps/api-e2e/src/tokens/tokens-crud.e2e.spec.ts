import { Client } from 'pg';
import { VISA, api, createTenant, type TestTenant } from '@coffer/testing';

describe('tokens: create, read, update, delete', () => {
  let tenant: TestTenant;
  let writer: string; // token:create + token:read (mask)
  let revealer: string; // + token:use (reveal)
  let admin: string; // every token permission
  beforeAll(async () => {
    tenant = await createTenant('tokens');
    writer = (await tenant.app('private', { permissions: ['token:create', 'token:read'] })).key;
    revealer = (await tenant.app('private', { permissions: ['token:create', 'token:read', 'token:use'] })).key;
    admin = (await tenant.app('private', { permissions: ['token:create', 'token:read', 'token:use', 'token:update', 'token:delete', 'token:search'] })).key;
  });

  it('creates a token with the spec response shape and defaults', async () => {
    const res = await api('POST', '/tokens', { key: writer, body: { type: 'token', data: 'hello', metadata: { a: 'b' } } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      type: 'token',
      tenant_id: tenant.tenantId,
      containers: ['/general/high/'],
      fingerprint_expression: '{{ data | stringify }}',
      metadata: { a: 'b' },
    });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.fingerprint).toEqual(expect.any(String));
    expect(res.body.created_by).toEqual(expect.any(String));
    expect(res.body.created_at).toEqual(expect.any(String));
    expect(res.body.data).toBeUndefined(); // token type has no mask: the mask transform redacts
    expect(res.body.expires_at).toBeUndefined();
  });

  it.each([
    [
      'card',
      { number: VISA, expiration_month: 12, expiration_year: 2030, cvc: '123' },
      '/pci/high/',
      { number: 'XXXXXXXXXXXX4242', expiration_month: 12, expiration_year: 2030 },
    ],
    ['bank', { routing_number: '021000021', account_number: '1234567890' }, '/bank/high/', { routing_number: '021000021', account_number: 'XXXXXX7890' }],
    ['card_number', VISA, '/pci/high/', 'XXXXXXXXXXXX4242'],
    ['us_bank_routing_number', '021000021', '/bank/low/', 'XXXXX0021'],
    ['us_bank_account_number', '1234567890', '/bank/high/', 'XXXXXX7890'],
    ['social_security_number', '123-45-6789', '/pii/high/', 'XXX-XX-6789'],
    ['employer_id_number', '12-3456789', '/pii/high/', 'XX-XXX6789'],
  ])('type %s: default container and mask', async (type, data, container, masked) => {
    const res = await api('POST', '/tokens', { key: writer, body: { type, data } });
    expect(res.status).toBe(201);
    expect(res.body.containers).toEqual([container]);
    expect(res.body.data).toEqual(masked);
    const read = await api('GET', `/tokens/${res.body.id}`, { key: writer });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(masked);
    const revealed = await api('GET', `/tokens/${res.body.id}`, { key: revealer });
    expect(revealed.body.data).toEqual(data);
  });

  it('a card without expiration_month still masks', async () => {
    const res = await api('POST', '/tokens', { key: writer, body: { type: 'card', data: { number: VISA, expiration_year: 2031 } } });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({ number: 'XXXXXXXXXXXX4242', expiration_year: 2031 });
  });

  it('validates every field and lists every bad one', async () => {
    const res = await api('POST', '/tokens', {
      key: writer,
      body: {
        type: 'card',
        data: { number: '4242424242424241', expiration_month: 13, cvc: '12' },
        containers: ['nope'],
        search_indexes: Array(11).fill('{{ data }}'),
        fingerprint_expression: '{{ secret }}',
        expires_at: '1/1/2001',
      },
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(
      expect.arrayContaining(['data.number', 'data.expiration_month', 'data.cvc', 'containers[0]', 'search_indexes', 'fingerprint_expression', 'expires_at']),
    );
    expect(JSON.stringify(res.body)).not.toContain('4242424242424241');
  });

  it.each([
    [{ data: 'x' }, 'type'],
    [{ type: 'unknown', data: 'x' }, 'type'],
    [{ type: 'token' }, 'data'],
    [{ type: 'bank', data: { routing_number: '123456789', account_number: '1' } }, 'data.routing_number'],
    [{ type: 'bank', data: { routing_number: '021000021', account_number: '123456789012345678' } }, 'data.account_number'],
    [{ type: 'card_number', data: '123' }, 'data'],
    [{ type: 'social_security_number', data: '12-345-6789' }, 'data'],
    [{ type: 'token', data: 'x', id: 'a/b' }, 'id'],
    [{ type: 'token', data: 'x', id: 'ab' }, 'id'],
    [{ type: 'token', data: 'x', metadata: { k: 1 } }, 'metadata.k'],
    [{ type: 'token', data: 'x', containers: ['/a/', '/b/'] }, 'containers'],
    [{ type: 'token', data: 'x', mask: '{{ data | nope }}' }, 'mask'],
    [{ type: 'token', data: 'x', deduplicate_token: 'yes' }, 'deduplicate_token'],
    [{ type: 'token', data: 'x', expires_at: 'tomorrow' }, 'expires_at'],
  ])('bad request %j → 400 on %s', async (body, field) => {
    const res = await api('POST', '/tokens', { key: writer, body });
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty([field]);
  });

  it('literal ids: accepted, 409 when taken', async () => {
    const id = `my-id-${Date.now()}`;
    expect((await api('POST', '/tokens', { key: writer, body: { id, type: 'token', data: 1 } })).status).toBe(201);
    const again = await api('POST', '/tokens', { key: writer, body: { id, type: 'token', data: 2 } });
    expect(again.status).toBe(409);
    expect((await api('GET', `/tokens/${id}`, { key: revealer })).body.data).toBe(1);
  });

  it('id expressions make aliases that keep the format', async () => {
    const res = await api('POST', '/tokens', {
      key: revealer,
      body: { id: '{{ data | alias_preserve_format: 0, 4 }}', type: 'card_number', data: VISA },
    });
    expect(res.status).toBe(201);
    expect(res.body.id).toMatch(/^\d{12}4242$/);
    expect((await api('GET', `/tokens/${res.body.id}`, { key: revealer })).body.data).toBe(VISA);
  });

  it('custom mask, container, search indexes, fingerprint expression', async () => {
    const res = await api('POST', '/tokens', {
      key: revealer,
      body: {
        type: 'token',
        data: { name: 'Ada Lovelace', email: 'ada@example.com' },
        mask: { name: '{{ data.name | reveal: 1 }}' },
        containers: ['/PII/Custom/'],
        search_indexes: ['{{ data.email }}'],
        fingerprint_expression: '{{ data.email }}',
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.containers).toEqual(['/pii/custom/']);
    expect(res.body.search_indexes).toEqual(['{{ data.email }}']);
    expect(res.body.fingerprint_expression).toBe('{{ data.email }}');
    const masked = await api('GET', `/tokens/${res.body.id}`, { key: writer });
    expect(masked.body.data).toEqual({ name: 'AXXXXXXXXXXX' });
  });

  it('expires_at formats: offset date-time, short date, ISO; past → 400', async () => {
    const year = new Date().getUTCFullYear() + 1;
    const cases: Array<[string, string]> = [
      [`3/4/${year} 1:30:00 PM +02:00`, `${year}-03-04T11:30:00.000Z`],
      [`3/4/${year} 1:30:00 PM`, `${year}-03-04T13:30:00.000Z`],
      [`3/4/${year}`, `${year}-03-04T00:00:00.000Z`],
      [`${year}-03-04T10:00:00Z`, `${year}-03-04T10:00:00.000Z`],
      [`${year}-03-04T10:00:00`, `${year}-03-04T10:00:00.000Z`],
    ];
    for (const [given, expected] of cases) {
      const res = await api('POST', '/tokens', { key: writer, body: { type: 'token', data: given, expires_at: given } });
      expect(res.status).toBe(201);
      expect(res.body.expires_at).toBe(expected);
    }
    expect((await api('POST', '/tokens', { key: writer, body: { type: 'token', data: 'x', expires_at: '2001-01-01T00:00:00Z' } })).status).toBe(400);
  });

  it('an expired token is gone for every reader at once', async () => {
    const res = await api('POST', '/tokens', {
      key: admin,
      body: { type: 'token', data: 'soon gone', expires_at: new Date(Date.now() + 1500).toISOString(), metadata: { exp: 'yes' } },
    });
    expect(res.status).toBe(201);
    expect((await api('GET', `/tokens/${res.body.id}`, { key: admin })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2000));
    expect((await api('GET', `/tokens/${res.body.id}`, { key: admin })).status).toBe(404);
    expect((await api('GET', '/tokens?metadata.exp=yes', { key: admin })).body.data).toEqual([]);
    expect((await api('POST', '/detokenize', { key: admin, body: { v: `{{ ${res.body.id} }}` } })).status).toBe(400);
  });

  it('lists with id, type and metadata filters, offset and cursor paging', async () => {
    const tag = `run-${Date.now()}`;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await api('POST', '/tokens', {
        key: writer,
        body: { type: i % 2 ? 'card_number' : 'token', data: i % 2 ? VISA : `v${i}`, metadata: { Tag: tag, idx: String(i) } },
      });
      ids.push(r.body.id);
    }
    const all = await api('GET', `/tokens?metadata.tag=${tag.toUpperCase()}`, { key: writer });
    expect(all.status).toBe(200);
    expect(all.body.pagination).toEqual({ total_items: 5, page_number: 1, page_size: 20, total_pages: 1 });
    expect(all.body.data.map((t: { id: string }) => t.id)).toEqual([...ids].reverse());
    const typed = await api('GET', `/tokens?metadata.tag=${tag}&type=card_number`, { key: writer });
    expect(typed.body.data).toHaveLength(2);
    const byId = await api('GET', `/tokens?id=${ids[0]}&id=${ids[1]}`, { key: writer });
    expect(byId.body.data.map((t: { id: string }) => t.id).sort()).toEqual([ids[0], ids[1]].sort());
    const anded = await api('GET', `/tokens?metadata.tag=${tag}&metadata.idx=3`, { key: writer });
    expect(anded.body.data.map((t: { id: string }) => t.id)).toEqual([ids[3]]);
    const page2 = await api('GET', `/tokens?metadata.tag=${tag}&page=2&size=2`, { key: writer });
    expect(page2.body.pagination).toEqual({ total_items: 5, page_number: 2, page_size: 2, total_pages: 3 });
    expect(page2.body.data.map((t: { id: string }) => t.id)).toEqual([ids[2], ids[1]]);
    // cursor form
    const seen: string[] = [];
    let start = '';
    for (let i = 0; i < 5; i++) {
      const r = await api('GET', `/tokens?metadata.tag=${tag}&size=2&start=${encodeURIComponent(start)}`, { key: writer });
      expect(r.status).toBe(200);
      expect(r.body.pagination.total_items).toBeUndefined();
      seen.push(...r.body.data.map((t: { id: string }) => t.id));
      if (!r.body.pagination.next) break;
      start = r.body.pagination.next;
    }
    expect(seen).toEqual([...ids].reverse());
    expect((await api('GET', '/tokens?size=101', { key: writer })).status).toBe(400);
    expect((await api('GET', '/tokens?page=0', { key: writer })).status).toBe(400);
    expect((await api('GET', '/tokens?start=garbage!', { key: writer })).status).toBe(400);
  });

  it('PATCH: merge-patch only, merges data/metadata, replaces the rest, re-fingerprints', async () => {
    const created = await api('POST', '/tokens', { key: admin, body: { type: 'token', data: { a: 1, b: { c: 2 } }, metadata: { x: '1', y: '2' } } });
    const id = created.body.id;
    const wrongType = await api('PATCH', `/tokens/${id}`, { key: admin, body: { metadata: { z: '3' } } });
    expect(wrongType.status).toBe(415);
    const res = await api('PATCH', `/tokens/${id}`, {
      key: admin,
      contentType: 'application/merge-patch+json',
      body: { data: { b: { c: null, d: 4 } }, metadata: { y: null, z: '3' }, containers: ['/general/low/'] },
    });
    expect(res.status).toBe(200);
    expect(res.body.metadata).toEqual({ x: '1', z: '3' });
    expect(res.body.containers).toEqual(['/general/low/']);
    expect(res.body.modified_by).toEqual(expect.any(String));
    expect(res.body.modified_at).toEqual(expect.any(String));
    expect(res.body.fingerprint).not.toBe(created.body.fingerprint);
    const read = await api('GET', `/tokens/${id}`, { key: admin });
    expect(read.body.data).toEqual({ a: 1, b: { d: 4 } });
    const bad = await api('PATCH', `/tokens/${id}`, { key: admin, contentType: 'application/merge-patch+json', body: { type: 'card' } });
    expect(bad.status).toBe(400);
    const badData = await api('PATCH', `/tokens/${id}`, { key: admin, contentType: 'application/merge-patch+json', body: { expires_at: '1/1/2000' } });
    expect(badData.status).toBe(400);
    expect((await api('GET', `/tokens/${id}`, { key: admin })).body.data).toEqual({ a: 1, b: { d: 4 } });
    expect((await api('PATCH', '/tokens/nope-nope', { key: admin, contentType: 'application/merge-patch+json', body: {} })).status).toBe(404);
  });

  it('PATCH expires_at null removes the expiry; card re-validation applies', async () => {
    const created = await api('POST', '/tokens', {
      key: admin,
      body: { type: 'card', data: { number: VISA, expiration_month: 1, expiration_year: 2030 }, expires_at: new Date(Date.now() + 3600_000).toISOString() },
    });
    const cleared = await api('PATCH', `/tokens/${created.body.id}`, { key: admin, contentType: 'application/merge-patch+json', body: { expires_at: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.expires_at).toBeUndefined();
    const invalid = await api('PATCH', `/tokens/${created.body.id}`, {
      key: admin,
      contentType: 'application/merge-patch+json',
      body: { data: { number: '1234' } },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toHaveProperty(['data.number']);
  });

  it('DELETE: 204, then 404 everywhere', async () => {
    const created = await api('POST', '/tokens', { key: admin, body: { type: 'token', data: 'bye', metadata: { del: 'me' } } });
    const id = created.body.id;
    expect((await api('DELETE', `/tokens/${id}`, { key: admin })).status).toBe(204);
    expect((await api('GET', `/tokens/${id}`, { key: admin })).status).toBe(404);
    expect((await api('DELETE', `/tokens/${id}`, { key: admin })).status).toBe(404);
    expect((await api('GET', '/tokens?metadata.del=me', { key: admin })).body.data).toEqual([]);
    expect((await api('POST', '/detokenize', { key: admin, body: `{{ ${id} }}` })).status).toBe(400);
  });

  it('permissions: 403 without the route permission', async () => {
    const readOnly = (await tenant.app('private', { permissions: ['token:read'] })).key;
    expect((await api('POST', '/tokens', { key: readOnly, body: { type: 'token', data: 'x' } })).status).toBe(403);
    expect((await api('DELETE', '/tokens/whatever', { key: readOnly })).status).toBe(403);
    const pub = (await tenant.app('public', { permissions: ['token:create'] })).key;
    const created = await api('POST', '/tokens', { key: pub, body: { type: 'card_number', data: VISA } });
    expect(created.status).toBe(201);
    expect(created.body.data).toBe('XXXXXXXXXXXX4242');
    expect((await api('GET', `/tokens/${created.body.id}`, { key: pub })).status).toBe(403);
  });

  it('another tenant: 404 on every operation, never listed', async () => {
    const other = await createTenant('other-tokens');
    const otherKey = (await other.app('private', { permissions: ['token:create', 'token:read', 'token:update', 'token:delete', 'token:use', 'token:search'] }))
      .key;
    const mine = await api('POST', '/tokens', { key: admin, body: { type: 'token', data: 'mine', metadata: { owner: 'first' } } });
    const id = mine.body.id;
    expect((await api('GET', `/tokens/${id}`, { key: otherKey })).status).toBe(404);
    expect((await api('PATCH', `/tokens/${id}`, { key: otherKey, contentType: 'application/merge-patch+json', body: { metadata: { a: 'b' } } })).status).toBe(
      404,
    );
    expect((await api('DELETE', `/tokens/${id}`, { key: otherKey })).status).toBe(404);
    expect((await api('GET', '/tokens?metadata.owner=first', { key: otherKey })).body.data).toEqual([]);
    expect((await api('POST', '/detokenize', { key: otherKey, body: `{{ ${id} }}` })).status).toBe(400);
    expect((await api('POST', '/tokens/search', { key: otherKey, body: { query: `id:${id}` } })).body.data).toEqual([]);
    expect((await api('GET', `/tokens/${id}`, { key: admin })).status).toBe(200);
  });

  it('stores no plaintext data in the database', async () => {
    const secret = `plaintext-probe-${Date.now()}`;
    await api('POST', '/tokens', { key: writer, body: { type: 'token', data: { secret }, search_indexes: ['{{ data.secret }}'] } });
    await api('POST', '/tokens', { key: writer, body: { type: 'card_number', data: '5555555555554444' } });
    const db = new Client({ connectionString: process.env['COFFER_E2E_DATABASE_URL'] });
    await db.connect();
    try {
      const tables = await db.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`);
      for (const { tablename } of tables.rows) {
        const dump = await db.query(`SELECT t::text AS row FROM "${tablename}" t`);
        const text = dump.rows.map((r) => r.row).join('\n');
        expect(text).not.toContain(secret);
        expect(text).not.toContain('5555555555554444');
        expect(text).not.toContain(Buffer.from(secret).toString('hex'));
      }
    } finally {
      await db.end();
    }
  });
});
