/**
 * Issue 26 item 2: pre-configured proxies — /proxies managed through @basis-theory/node-sdk's `proxies` client,
 * invoked at /proxy with BT-PROXY-KEY (header or query) against a local HTTPS destination that records what it got,
 * anonymous inbound calls to proxies with require_auth false, and every transform type.
 */
import { Client } from 'pg';
import { VISA, api, createTenant, type TestTenant } from '@coffer/testing';
import { btJs, nodeSdk } from '../compat/support';
import { Destination, proxy } from './support';
import { Receiver } from '../events/support';

jest.setTimeout(120_000);

const CARD = { number: VISA, expiration_month: 12, expiration_year: 2030, cvc: '123' };

describe('pre-configured proxies', () => {
  let tenant: TestTenant;
  let other: TestTenant;
  let caller: string;
  let writerId: string;
  let writerKey: string;
  let cardId: string;
  const dest = new Destination();

  const create = async (body: Record<string, unknown>, key = tenant.managementKey) => api('POST', '/proxies', { key, body });
  const created = async (body: Record<string, unknown>) => {
    const res = await create({ name: 'test proxy', destination_url: dest.url('/inbound'), ...body });
    expect(res.status).toBe(201);
    return res.body as { id: string; key: string } & Record<string, unknown>;
  };
  const echo = () => {
    dest.behave = (req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ got: req.body.toString() }));
    };
  };

  beforeAll(async () => {
    await dest.start();
    tenant = await createTenant('proxies');
    other = await createTenant('proxies-other');
    caller = (await tenant.app('private', { permissions: ['token:create', 'token:use', 'proxy:invoke'] })).key;
    const writer = await tenant.app('private', { permissions: ['token:create', 'token:read'] });
    writerId = writer.id;
    writerKey = writer.key;
    cardId = (await api('POST', '/tokens', { key: caller, body: { type: 'card', data: CARD } })).body.id;
  });
  afterAll(() => dest.stop());

  it('node-sdk proxies: create (key generated, configuration returned), get, list by name, update, patch, delete', async () => {
    const client = nodeSdk(tenant.managementKey);
    const made = await client.proxies.create({
      name: 'Processor',
      destinationUrl: dest.url('/api'),
      requestTransform: { code: 'module.exports = async (req) => ({ body: req.args.body, headers: req.args.headers });' },
      configuration: { API_KEY: 'sk_test_123' },
      requireAuth: true,
    });
    expect(made.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(made.key).toMatch(/^[0-9a-f]{32}$/);
    expect(made).toMatchObject({ name: 'Processor', destinationUrl: dest.url('/api'), requireAuth: true, configuration: { API_KEY: 'sk_test_123' } });
    expect(made.requestTransforms).toEqual([expect.objectContaining({ type: 'code' })]);
    expect(made.requestTransform).toEqual(expect.objectContaining({ type: 'code' }));
    expect(made.tenantId).toBe(tenant.tenantId);

    const got = await client.proxies.get(made.id as string);
    expect(got).toMatchObject({ id: made.id, key: made.key, name: 'Processor' });
    const page = await client.proxies.list({ name: 'Process' });
    expect(page.data.map((p) => p.id)).toEqual([made.id]);

    const updated = await client.proxies.update(made.id as string, {
      name: 'Processor 2',
      destinationUrl: dest.url('/v2'),
      configuration: { API_KEY: 'sk_2' },
    });
    expect(updated).toMatchObject({ name: 'Processor 2', destinationUrl: dest.url('/v2'), key: made.key, configuration: { API_KEY: 'sk_2' } });
    expect(updated.requestTransforms).toEqual([]);
    expect(updated.modifiedAt).toBeDefined();
    // PATCH answers 204, as the mirrored service does
    await client.proxies.patch(made.id as string, { name: 'Processor 3' });
    expect(await client.proxies.get(made.id as string)).toMatchObject({
      name: 'Processor 3',
      destinationUrl: dest.url('/v2'),
      configuration: { API_KEY: 'sk_2' },
    });

    await client.proxies.delete(made.id as string);
    expect((await api('GET', `/proxies/${made.id}`, { key: tenant.managementKey })).status).toBe(404);
  });

  it('is managed with proxy:* permissions only; other tenants see nothing', async () => {
    const p = await created({});
    expect((await api('GET', '/proxies', { key: caller })).status).toBe(403);
    expect((await api('GET', `/proxies/${p.id}`, { key: other.managementKey })).status).toBe(404);
    expect((await api('DELETE', `/proxies/${p.id}`, { key: other.managementKey })).status).toBe(404);
    const readOnly = (await tenant.app('management', { permissions: ['proxy:read'] })).key;
    expect((await api('GET', `/proxies/${p.id}`, { key: readOnly })).status).toBe(200);
    expect((await create({ name: 'x', destination_url: dest.url() }, readOnly)).status).toBe(403);
  });

  it('refuses bad proxies with 400 naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ destination_url: 'http://insecure.example.com' }, 'destination_url'],
      [{ destination_url: 'https://10.0.0.1/api' }, 'destination_url'],
      [{ request_transforms: [{ type: 'mask', matcher: 'regex', expression: 'no group', replacement: '*' }] }, 'request_transforms[0].expression'],
      [{ request_transforms: [{ type: 'mask', matcher: 'regex', expression: '(a', replacement: '*' }] }, 'request_transforms[0].expression'],
      [{ response_transforms: [{ type: 'mask', matcher: 'regex', expression: '(a)', replacement: '**' }] }, 'response_transforms[0].replacement'],
      [{ request_transforms: [{ type: 'unknown' }] }, 'request_transforms[0].type'],
      [{ request_transforms: [{ type: 'append_json', options: { value: 1, location: '$.__proto__.polluted' } }] }, 'request_transforms[0].options.location'],
      [{ request_transforms: [{ type: 'append_header', options: { value: 'a\r\nb', location: 'x-a' } }] }, 'request_transforms[0].options.value'],
      [{ request_transforms: [{ type: 'tokenize', expression: '$.card' }] }, 'application'],
      [{ configuration: { A: 1 } }, 'configuration.A'],
      [{ require_auth: 'no' }, 'require_auth'],
    ];
    for (const [body, field] of cases) {
      const res = await create({ name: 'bad', destination_url: dest.url(), ...body });
      expect({ field, status: res.status }).toEqual({ field, status: 400 });
      expect(Object.keys(res.body.errors ?? {})).toContain(field);
    }
    const publicApp = await tenant.app('public', { permissions: ['token:create'] });
    const mgmt = await tenant.app('management', { permissions: ['proxy:read'] });
    const res = await create({ name: 'bad', destination_url: dest.url(), application: { id: mgmt.id } });
    expect(res.status).toBe(400);
    const ok = await create({ name: 'ok', destination_url: dest.url(), application: { id: publicApp.id } });
    expect(ok.status).toBe(201);
    // the legacy single transform and the list at once: a 400 naming it, on a patch as on a create
    const both = { request_transform: { code: 'module.exports = async (r) => r.args;' }, request_transforms: [] };
    expect((await create({ name: 'both', destination_url: dest.url(), ...both })).status).toBe(400);
    const patched = await api('PATCH', `/proxies/${ok.body.id}`, { key: tenant.managementKey, body: both, contentType: 'application/merge-patch+json' });
    expect(patched.status).toBe(400);
    expect(Object.keys(patched.body.errors)).toContain('request_transform');
  });

  it('invoked with BT-PROXY-KEY: its destination (BT-PROXY-URL ignored), path and query appended, expressions detokenized as the caller', async () => {
    echo();
    const p = await created({ destination_url: dest.url('/inbound/') });
    const res = await proxy('POST', '/proxy/charges?currency=usd', {
      key: caller,
      destination: 'https://ignored.example.com',
      headers: { 'BT-PROXY-KEY': p.key },
      contentType: 'application/json',
      body: JSON.stringify({ number: `{{ ${cardId} | json: '$.number' }}` }),
    });
    expect(res.status).toBe(200);
    expect(dest.last.url).toBe('/inbound/charges?currency=usd');
    expect(JSON.parse(dest.last.body.toString())).toEqual({ number: VISA });
    expect(dest.last.headers['bt-proxy-key']).toBeUndefined();
    // the key as the bt-proxy-key query parameter: taken out of the query the destination gets
    const viaQuery = await proxy('GET', `/proxy/status?bt-proxy-key=${p.key}&x=1`, { key: caller });
    expect(viaQuery.status).toBe(200);
    expect(dest.last.url).toBe('/inbound/status?x=1');
  });

  it('disable_detokenization sends expressions as they are; a key of another tenant or none is refused before anything is sent', async () => {
    echo();
    const p = await created({ disable_detokenization: true });
    const body = JSON.stringify({ number: `{{ ${cardId} }}` });
    const res = await proxy('POST', '/proxy', { key: caller, headers: { 'BT-PROXY-KEY': p.key }, contentType: 'application/json', body });
    expect(res.status).toBe(200);
    expect(dest.last.body.toString()).toBe(body);
    const before = dest.received.length;
    const otherCaller = (await other.app('private', { permissions: ['proxy:invoke', 'token:use'] })).key;
    const foreign = await proxy('POST', '/proxy', { key: otherCaller, headers: { 'BT-PROXY-KEY': p.key }, contentType: 'application/json', body: '{}' });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors['BT-PROXY-KEY']).toBeDefined();
    const unknown = await proxy('POST', '/proxy', { key: caller, headers: { 'BT-PROXY-KEY': 'f'.repeat(32) }, contentType: 'application/json', body: '{}' });
    expect(unknown.status).toBe(400);
    expect(dest.received.length).toBe(before);
  });

  it('require_auth false: an anonymous partner posts card data, the destination receives tokens the application can read', async () => {
    echo();
    const p = await created({
      require_auth: false,
      application: { id: writerId },
      request_transforms: [{ type: 'tokenize', expression: '$.card', options: { token: { type: 'card', metadata: { source: 'partner' } } } }],
    });
    const res = await proxy('POST', '/proxy/cards', {
      headers: { 'BT-PROXY-KEY': p.key },
      contentType: 'application/json',
      body: JSON.stringify({ card: CARD, note: `{{ ${cardId} }}` }),
    });
    expect(res.status).toBe(200);
    const got = JSON.parse(dest.last.body.toString());
    expect(got.card).toMatch(/^[0-9a-f-]{36}$/);
    expect(dest.last.body.toString()).not.toContain(VISA);
    // an anonymous caller's expressions are never detokenized
    expect(got.note).toBe(`{{ ${cardId} }}`);
    const token = await api('GET', `/tokens/${got.card}`, { key: writerKey });
    expect(token.status).toBe(200);
    expect(token.body).toMatchObject({ type: 'card', metadata: { source: 'partner' } });
    expect(token.body.data.number).toBe(`${'X'.repeat(12)}4242`);
    // the anonymous principal stands for that proxy only
    expect((await api('GET', '/tokens', {})).status).toBe(401);
    expect((await proxy('POST', '/proxy', { destination: dest.url(), contentType: 'application/json', body: '{}' })).status).toBe(401);
  });

  it('anonymous calls are refused (401) for proxies that require auth, unknown keys, and a proxy once deleted or switched to require auth', async () => {
    echo();
    const secured = await created({});
    expect((await proxy('POST', '/proxy', { headers: { 'BT-PROXY-KEY': secured.key }, contentType: 'application/json', body: '{}' })).status).toBe(401);
    expect((await proxy('POST', '/proxy', { headers: { 'BT-PROXY-KEY': 'a'.repeat(32) }, contentType: 'application/json', body: '{}' })).status).toBe(401);
    const open = await created({ require_auth: false });
    const call = () => proxy('POST', '/proxy', { headers: { 'BT-PROXY-KEY': open.key }, contentType: 'application/json', body: '{}' });
    expect((await call()).status).toBe(200);
    const patched = await api('PATCH', `/proxies/${open.id}`, {
      key: tenant.managementKey,
      body: { require_auth: true },
      contentType: 'application/merge-patch+json',
    });
    expect(patched.status).toBe(204);
    expect((await call()).status).toBe(401);
    expect((await api('DELETE', `/proxies/${open.id}`, { key: tenant.managementKey })).status).toBe(204);
    expect((await call()).status).toBe(401);
  });

  it('append_header, append_json and a code transform inject configuration secrets; the caller never sends them', async () => {
    echo();
    const p = await created({
      configuration: { API_KEY: 'sk_live_secret', ACCOUNT: 'acct_9' },
      request_transforms: [
        { type: 'append_header', options: { location: 'Authorization', value: 'Bearer {{ configuration.API_KEY }}' } },
        { type: 'append_json', options: { location: "$.merchant['account']", value: '{{ configuration.ACCOUNT }}' } },
        {
          type: 'code',
          code: `module.exports = async function (req) {
            const { body, headers, method, path } = req.args;
            return { body: { ...body, via: method + ' ' + path, region: req.configuration.ACCOUNT.slice(0, 4) }, headers: { ...headers, 'x-transformed': 'yes' } };
          };`,
        },
      ],
    });
    const res = await proxy('POST', '/proxy/pay', {
      key: caller,
      headers: { 'BT-PROXY-KEY': p.key },
      contentType: 'application/json',
      body: JSON.stringify({ amount: 5 }),
    });
    expect(res.status).toBe(200);
    expect(dest.last.headers['authorization']).toBe('Bearer sk_live_secret');
    expect(dest.last.headers['x-transformed']).toBe('yes');
    expect(JSON.parse(dest.last.body.toString())).toEqual({ amount: 5, merchant: { account: 'acct_9' }, via: 'POST /pay', region: 'acct' });
    // the configuration is sealed at rest: its values are nowhere in the row
    const db = new Client({ connectionString: process.env['COFFER_E2E_DATABASE_URL'] });
    await db.connect();
    try {
      const rows = await db.query(
        `SELECT count(*)::int AS n FROM proxies WHERE id = $1 AND position(convert_to('sk_live_secret', 'UTF8') in secrets_ciphertext) = 0 AND position($2 in secrets_ciphertext) = 0`,
        [p.id, Buffer.from(p.key)],
      );
      expect(rows.rows[0].n).toBe(1);
    } finally {
      await db.end();
    }
  });

  it('append_text on a text body, and a response mask that hides what the destination returns', async () => {
    dest.behave = (req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ username: 'bsmith', accountNumber: '56834512', echo: req.body.toString() }));
    };
    const p = await created({
      request_transforms: [{ type: 'append_text', options: { value: '&signature=abc' } }],
      response_transforms: [{ type: 'mask', matcher: 'regex', expression: '"accountNumber":\\s*"(.*?)"', replacement: '*' }],
    });
    const res = await proxy('POST', '/proxy', {
      key: caller,
      headers: { 'BT-PROXY-KEY': p.key },
      contentType: 'application/x-www-form-urlencoded',
      body: 'a=1',
    });
    expect(res.status).toBe(200);
    expect(dest.last.body.toString()).toBe('a=1&signature=abc');
    expect(JSON.parse(res.text)).toEqual({ username: 'bsmith', accountNumber: '********', echo: 'a=1&signature=abc' });
  });

  it("a response code transform rewrites the destination's answer; a transform's own error is the caller's problem", async () => {
    dest.behave = (_req, res) => {
      res.statusCode = 201;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ id: 'ch_1', card: VISA }));
    };
    const p = await created({
      response_transforms: [
        {
          type: 'code',
          code: 'module.exports = async (req) => ({ body: { id: req.args.body.id, last4: req.args.body.card.slice(-4), status: req.args.status }, headers: { "content-type": "application/json" } });',
        },
      ],
    });
    const res = await proxy('POST', '/proxy', { key: caller, headers: { 'BT-PROXY-KEY': p.key }, contentType: 'application/json', body: '{}' });
    expect(res.status).toBe(201);
    expect(JSON.parse(res.text)).toEqual({ id: 'ch_1', last4: '4242', status: 201 });
    const failing = await created({
      request_transforms: [{ type: 'code', code: "module.exports = async () => { throw new Error('transform broke'); };" }],
    });
    const before = dest.received.length;
    const err = await proxy('POST', '/proxy', { key: caller, headers: { 'BT-PROXY-KEY': failing.key }, contentType: 'application/json', body: '{}' });
    expect(err.status).toBe(500);
    expect(err.headers.get('content-type')).toContain('application/problem+json');
    expect(dest.received.length).toBe(before);
  });

  it('@basis-theory/basis-theory-js proxy calls reach a pre-configured proxy with BT-PROXY-KEY', async () => {
    echo();
    const p = await created({});
    const bt = await btJs(caller);
    const answer = await bt.proxy.post({
      path: '/sdk',
      headers: { 'BT-PROXY-KEY': p.key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ last4: `{{ ${cardId} | json: '$.number' | last4 }}` }),
    });
    const got = typeof answer === 'string' ? JSON.parse(answer) : answer;
    expect(JSON.parse(got.got)).toEqual({ last4: '4242' });
    expect(dest.last.url).toBe('/inbound/sdk');
  });

  it('a code transform sees a binary body as base64 and what it returns as base64 is sent as the same bytes', async () => {
    echo();
    const p = await created({
      request_transforms: [
        { type: 'code', code: "module.exports = async (req) => ({ body: req.args.body, headers: { ...req.args.headers, 'x-seen': req.args.body } });" },
      ],
    });
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe, 0x10]);
    const res = await proxy('POST', '/proxy', { key: caller, headers: { 'BT-PROXY-KEY': p.key }, contentType: 'image/png', body: bytes });
    expect(res.status).toBe(200);
    expect(dest.last.body.equals(bytes)).toBe(true);
    expect(dest.last.headers['x-seen']).toBe(bytes.toString('base64'));
  });

  it('SVC-IDEMPOTENCY-KEY: a repeat gets the first answer and the destination is called once; another request under the key is a 422', async () => {
    let n = 0;
    dest.behave = (_req, res) => {
      n++;
      res.statusCode = 201;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ charge: n }));
    };
    const body = JSON.stringify({ number: `{{ ${cardId} | json: '$.number' }}`, amount: 7 });
    const send = (key: string, b = body) =>
      proxy('POST', '/proxy/charges', {
        key: caller,
        destination: dest.url(),
        headers: { 'SVC-IDEMPOTENCY-KEY': key },
        contentType: 'application/json',
        body: b,
      });
    const first = await send('charge-1');
    const again = await send('charge-1');
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(JSON.parse(again.text)).toEqual({ charge: 1 });
    expect(again.headers.get('svc-idempotent-replay')).toBe('true');
    expect(n).toBe(1);
    expect((await send('charge-1', JSON.stringify({ amount: 8 }))).status).toBe(422);
    // a failure before an answer releases the key: the retry is sent
    const failing = await created({ request_transforms: [{ type: 'code', code: "module.exports = async () => { throw new Error('no'); };" }] });
    const viaFailing = () =>
      proxy('POST', '/proxy', {
        key: caller,
        headers: { 'BT-PROXY-KEY': failing.key, 'SVC-IDEMPOTENCY-KEY': 'charge-2' },
        contentType: 'application/json',
        body: '{}',
      });
    expect((await viaFailing()).status).toBe(500);
    expect((await viaFailing()).status).toBe(500);
    expect((await send('charge-2')).status).toBe(201);
  });

  it('writes are audited and published as proxy events', async () => {
    const p = await created({ name: 'audited' });
    const logs = await api('GET', `/logs?entity_type=proxy&entity_id=${p.id}`, { key: tenant.managementKey });
    expect(logs.status).toBe(200);
    expect(logs.body.data.map((l: { operation: string }) => l.operation)).toContain('create');
    expect(JSON.stringify(logs.body)).not.toContain(p.key);
  });

  it("a destination's query (often a credential) is in neither the audit trail nor proxy events", async () => {
    const receiver = await new Receiver().start();
    try {
      const hook = await api('POST', '/webhooks', {
        key: tenant.managementKey,
        body: { name: 'proxy events', url: receiver.url, events: ['proxy.created', 'proxy.updated'] },
      });
      expect(hook.status).toBe(201);
      const secretUrl = dest.url('/inbound/v2?token=pw_secret');
      const p = await created({ name: 'with a credential', destination_url: dest.url('/inbound?api_key=sk_live_query_secret') });
      const patched = await api('PATCH', `/proxies/${p.id}`, {
        key: tenant.managementKey,
        body: { destination_url: secretUrl },
        contentType: 'application/merge-patch+json',
      });
      expect(patched.status).toBe(204);
      const createdEvent = await receiver.waitForEvent('proxy.created', (e) => e.event.data['proxy']?.id === p.id);
      const updatedEvent = await receiver.waitForEvent('proxy.updated', (e) => e.event.data['proxy']?.id === p.id);
      expect(createdEvent.event.data['proxy'].destination_url).toBe(dest.url('/inbound'));
      const logs = await api('GET', `/logs?entity_type=proxy&entity_id=${p.id}`, { key: tenant.managementKey });
      expect(logs.body.data.length).toBeGreaterThanOrEqual(2);
      for (const text of [JSON.stringify(logs.body), createdEvent.raw.body, updatedEvent.raw.body]) {
        expect(text).not.toContain('sk_live_query_secret');
        expect(text).not.toContain('pw_secret');
      }
      // the API itself still gives the proxy's readers the whole destination
      expect((await api('GET', `/proxies/${p.id}`, { key: tenant.managementKey })).body.destination_url).toBe(secretUrl);
      await api('DELETE', `/webhooks/${hook.body.id}`, { key: tenant.managementKey });
    } finally {
      await receiver.stop();
    }
  });
});
