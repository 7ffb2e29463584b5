import { VISA, MASTERCARD, api, createTenant, type TestTenant } from '@coffer/testing';

describe('tokens: deduplication, tokenize, detokenize, search, audit', () => {
  let tenant: TestTenant;
  let key: string;
  let masker: string;
  beforeAll(async () => {
    tenant = await createTenant('tokens-advanced');
    key = (await tenant.app('private', { permissions: ['token:create', 'token:read', 'token:use', 'token:update', 'token:search', 'token:delete'] })).key;
    masker = (await tenant.app('private', { permissions: ['token:create', 'token:read', 'token:search'] })).key;
  });

  it('deduplicate_token returns the same live token, also under concurrent creates', async () => {
    const body = { type: 'card_number', data: MASTERCARD, deduplicate_token: true };
    const results = await Promise.all(Array.from({ length: 8 }, () => api('POST', '/tokens', { key, body })));
    for (const r of results) expect(r.status).toBe(201);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    const other = await api('POST', '/tokens', { key, body: { type: 'card_number', data: MASTERCARD } });
    expect(other.body.id).not.toBe(results[0].body.id);
  });

  it('a caller who cannot read the duplicate sees the limited view', async () => {
    const pub = (await tenant.app('public', { permissions: ['token:create'] })).key;
    const first = await api('POST', '/tokens', { key, body: { type: 'token', data: 'dedupe-me', deduplicate_token: true } });
    const second = await api('POST', '/tokens', { key: pub, body: { type: 'token', data: 'dedupe-me', deduplicate_token: true } });
    expect(second.status).toBe(201);
    expect(second.body).toEqual({
      id: first.body.id,
      type: 'token',
      tenant_id: tenant.tenantId,
      fingerprint: first.body.fingerprint,
      containers: ['/general/high/'],
    });
  });

  it('the tenant setting deduplicate_tokens turns deduplication on by default', async () => {
    const other = await createTenant('dedupe-setting');
    const k = (await other.app('private', { permissions: ['token:create', 'token:read'] })).key;
    // off by default: token-service reads (and caches) the tenant's settings with these creates
    const off = [
      await api('POST', '/tokens', { key: k, body: { type: 'token', data: 'off' } }),
      await api('POST', '/tokens', { key: k, body: { type: 'token', data: 'off' } }),
    ];
    expect(off[0].body.id).not.toBe(off[1].body.id);
    const put = await api('PUT', '/tenants/self', { key: other.managementKey, body: { settings: { deduplicate_tokens: true } } });
    expect(put.status).toBe(200);
    expect(put.body.settings).toEqual({ deduplicate_tokens: true });
    // seen by the next create: the change is announced when it commits and token-service drops its cached settings
    const a = await api('POST', '/tokens', { key: k, body: { type: 'token', data: 'same' } });
    const b = await api('POST', '/tokens', { key: k, body: { type: 'token', data: 'same' } });
    expect(a.body.id).toBe(b.body.id);
    const c = await api('POST', '/tokens', { key: k, body: { type: 'token', data: 'same', deduplicate_token: false } });
    expect(c.body.id).not.toBe(a.body.id);
  });

  it('PATCH into a duplicate returns the other token and changes nothing', async () => {
    const a = await api('POST', '/tokens', { key, body: { type: 'token', data: 'patch-dup-a', deduplicate_token: true } });
    const b = await api('POST', '/tokens', { key, body: { type: 'token', data: 'patch-dup-b', deduplicate_token: true } });
    const res = await api('PATCH', `/tokens/${b.body.id}`, { key, contentType: 'application/merge-patch+json', body: { data: 'patch-dup-a' } });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(a.body.id);
    expect((await api('GET', `/tokens/${b.body.id}`, { key })).body.data).toBe('patch-dup-b');
  });

  it('tokenize walks any JSON; detokenize puts the data back', async () => {
    const res = await api('POST', '/tokenize', {
      key,
      body: {
        card: { type: 'card', data: { number: VISA, expiration_month: 1, expiration_year: 2031 } },
        ssn: { type: 'social_security_number', data: '123-45-6789' },
        nested: { list: ['plain', 42, null, true] },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.card).toMatchObject({ type: 'card', data: { number: 'XXXXXXXXXXXX4242' } });
    expect(res.body.ssn.data).toBe('XXX-XX-6789');
    const [plainId, numberId, nullValue, boolId] = res.body.nested.list;
    expect(nullValue).toBeNull();
    for (const id of [plainId, numberId, boolId]) expect(typeof id).toBe('string');
    const detok = await api('POST', '/detokenize', {
      key,
      body: {
        card: `{{ ${res.body.card.id} }}`,
        number: `{{ ${res.body.card.id} | json: '$.number' }}`,
        sentence: `ssn {{ ${res.body.ssn.id} }} and {{ ${plainId} }}`,
        n: `{{ ${numberId} }}`,
        untouched: 'no expression',
      },
    });
    expect(detok.status).toBe(200);
    expect(detok.body).toEqual({
      card: { number: VISA, expiration_month: 1, expiration_year: 2031 },
      number: VISA,
      sentence: 'ssn 123-45-6789 and plain',
      n: 42,
      untouched: 'no expression',
    });
  });

  it('tokenize is all-or-nothing and limited to 100 tokens', async () => {
    const tag = `aon-${Date.now()}`;
    const res = await api('POST', '/tokenize', {
      key,
      body: [
        { type: 'token', data: 'ok', metadata: { tag } },
        { type: 'card_number', data: '1234', metadata: { tag } },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty(['[1].data']);
    expect((await api('GET', `/tokens?metadata.tag=${tag}`, { key })).body.data).toEqual([]);
    const dupId = `dup-${Date.now()}`;
    const conflict = await api('POST', '/tokenize', {
      key,
      body: [
        { id: dupId, type: 'token', data: 1, metadata: { tag } },
        { id: dupId, type: 'token', data: 2 },
      ],
    });
    expect(conflict.status).toBe(409);
    expect((await api('GET', `/tokens?metadata.tag=${tag}`, { key })).body.data).toEqual([]);
    const many = await api('POST', '/tokenize', { key, body: Array.from({ length: 101 }, (_, i) => i) });
    expect(many.status).toBe(400);
  });

  it('detokenize needs token:use (or read with reveal); unknown tokens and bad expressions are 400', async () => {
    const t = await api('POST', '/tokens', { key, body: { type: 'token', data: 'x' } });
    const res = await api('POST', '/detokenize', { key: masker, body: { v: `{{ ${t.body.id} }}` } });
    expect(res.status).toBe(403);
    expect((await api('POST', '/detokenize', { key, body: { v: '{{ does-not-exist }}' } })).status).toBe(400);
    expect((await api('POST', '/detokenize', { key, body: { v: `{{ ${t.body.id} | nope }}` } })).status).toBe(400);
    const ids = Array.from({ length: 101 }, (_, i) => `{{ id-${i}-xyz }}`);
    expect((await api('POST', '/detokenize', { key, body: ids })).status).toBe(400);
  });

  it('search: data terms match blind indexes; fields, boolean operators, ranges', async () => {
    const tag = `s${Date.now()}`;
    const ssn = await api('POST', '/tokens', { key, body: { type: 'social_security_number', data: '987-65-4321', metadata: { tag } } });
    const card = await api('POST', '/tokens', {
      key,
      body: { type: 'card_number', data: VISA, metadata: { tag, kind: 'Visa' }, search_indexes: ['{{ data | last4 }}'] },
    });
    const search = (query: string, k = key) => api('POST', '/tokens/search', { key: k, body: { query } });
    const ids = (r: { body: { data: Array<{ id: string }> } }) => r.body.data.map((t) => t.id).sort();

    expect(ids(await search('data:987654321'))).toEqual([ssn.body.id]);
    expect(ids(await search('data:987-65-4321'))).toEqual([ssn.body.id]);
    expect(ids(await search(`data:4321 AND metadata.tag:${tag}`))).toEqual([ssn.body.id]);
    expect(ids(await search(`metadata.tag:${tag.toUpperCase()}`))).toEqual([ssn.body.id, card.body.id].sort());
    expect(ids(await search(`metadata.tag:${tag} AND NOT type:card_number`))).toEqual([ssn.body.id]);
    expect(ids(await search(`(type:card_number OR type:social_security_number) metadata.tag:${tag}`))).toEqual([ssn.body.id, card.body.id].sort());
    expect(ids(await search(`container:/pii/* AND metadata.tag:${tag}`))).toEqual([ssn.body.id]);
    expect(ids(await search(`metadata.kind:"visa" AND metadata.tag:${tag}`))).toEqual([card.body.id]);
    expect(ids(await search(`id:${card.body.id}`))).toEqual([card.body.id]);
    expect(ids(await search(`fingerprint:${card.body.fingerprint} AND metadata.tag:${tag}`))).toEqual([card.body.id]);
    expect(ids(await search(`created_at:[2000-01-01 TO *] AND metadata.tag:${tag}`))).toEqual([ssn.body.id, card.body.id].sort());
    expect(ids(await search(`created_at:[* TO 2000-01-01] AND metadata.tag:${tag}`))).toEqual([]);
    const masked = await search(`id:${ssn.body.id}`, masker);
    expect(masked.body.data[0].data).toBe('XXX-XX-4321');
    expect(masked.body.pagination).toMatchObject({ total_items: 1, page_number: 1, page_size: 20 });
    for (const bad of ['', 'nofield', 'secret:1', '(type:token', 'type:token )']) expect((await search(bad)).status).toBe(400);
    expect((await api('POST', '/tokens/search', { key, body: { query: 'type:token', size: 101 } })).status).toBe(400);
    const readOnly = (await tenant.app('private', { permissions: ['token:read'] })).key;
    expect((await search('type:token', readOnly)).status).toBe(403);
  });

  it('audit log records token operations without sensitive data', async () => {
    const t = await api('POST', '/tokens', { key, body: { type: 'token', data: 'audited-secret' } });
    await api('GET', `/tokens/${t.body.id}`, { key });
    await api('PATCH', `/tokens/${t.body.id}`, { key, contentType: 'application/merge-patch+json', body: { metadata: { a: 'b' } } });
    await api('POST', '/detokenize', { key, body: `{{ ${t.body.id} }}` });
    await api('DELETE', `/tokens/${t.body.id}`, { key });
    const logs = await api('GET', `/logs?entity_type=token&entity_id=${t.body.id}`, { key: tenant.managementKey });
    expect(logs.status).toBe(200);
    expect(logs.body.data.map((e: { operation: string }) => e.operation).sort()).toEqual(['create', 'delete', 'read', 'update', 'use']);
    expect(logs.body.data[0]).toMatchObject({ tenant_id: tenant.tenantId, entity_type: 'token', entity_id: t.body.id });
    expect(JSON.stringify(logs.body)).not.toContain('audited-secret');
    expect((await api('GET', '/logs', { key })).status).toBe(403);
    expect((await api('GET', '/logs?start_date=yesterday', { key: tenant.managementKey })).status).toBe(400);
  });

  it('a read by id is audited once, with its actor and trace id, before the reply; a refused or missing read is not', async () => {
    const pci = await api('POST', '/tokens', { key, body: { type: 'token', data: 'in-pci', containers: ['/pci/'] } });
    const general = await api('POST', '/tokens', { key, body: { type: 'token', data: 'in-general' } });
    const ruled = await tenant.app('private', {
      rules: [{ description: 'pci only', priority: 1, container: '/pci/', transform: 'mask', permissions: ['token:read'] }],
    });
    const logsOf = async (id: string) =>
      (await api('GET', `/logs?entity_type=token&entity_id=${id}`, { key: tenant.managementKey })).body.data.filter(
        (e: { operation: string }) => e.operation === 'read',
      );

    const read = await api('GET', `/tokens/${pci.body.id}`, { key: ruled.key, headers: { 'SVC-TRACE-ID': 'trace-audited-read' } });
    expect(read.status).toBe(200);
    // no wait: the event is committed before the reply leaves token-service
    const events = await logsOf(pci.body.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor_application_id: ruled.id, trace_id: 'trace-audited-read', entity_type: 'token', entity_id: pci.body.id });

    expect((await api('GET', `/tokens/${general.body.id}`, { key: ruled.key })).status).toBe(403);
    expect(await logsOf(general.body.id)).toHaveLength(0);
    expect((await api('GET', '/tokens/not-a-token', { key: ruled.key })).status).toBe(404);
    expect(await logsOf('not-a-token')).toHaveLength(0);

    // concurrent reads are looked up together and their events group-committed: still one event per allowed read
    const many = await Promise.all(
      Array.from({ length: 24 }, (_, i) => api('GET', `/tokens/${[pci.body.id, general.body.id, 'not-a-token'][i % 3]}`, { key: ruled.key })),
    );
    expect(many.map((r) => r.status)).toEqual(Array.from({ length: 24 }, (_, i) => [200, 403, 404][i % 3]));
    expect(many[0].body).toMatchObject({ id: pci.body.id });
    expect(await logsOf(pci.body.id)).toHaveLength(1 + 8);
    expect(await logsOf(general.body.id)).toHaveLength(0);
  });
});
