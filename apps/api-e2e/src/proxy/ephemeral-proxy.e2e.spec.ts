/**
 * Issue 26: the ephemeral proxy against real HTTPS destinations (support.ts: local servers with a certificate of the
 * run's test CA). What the destination receives is checked byte for byte: the expressions replaced as the caller,
 * nothing else altered; what the caller gets back is the destination's answer, unchanged.
 */
import { api, createTenant, type TestTenant } from '@coffer/testing';
import { Destination, proxy } from './support';

jest.setTimeout(120_000);

describe('ephemeral proxy', () => {
  let tenant: TestTenant;
  let other: TestTenant;
  let user: string;
  let invokeOnly: string;
  let noProxy: string;
  let cardId: string;
  let nameId: string;
  let otherTokenId: string;
  const dest = new Destination();

  beforeAll(async () => {
    await dest.start();
    tenant = await createTenant('proxy-ephemeral');
    other = await createTenant('proxy-ephemeral-other');
    user = (await tenant.app('private', { permissions: ['token:create', 'token:use', 'proxy:invoke'] })).key;
    invokeOnly = (await tenant.app('private', { permissions: ['proxy:invoke'] })).key;
    noProxy = (await tenant.app('private', { permissions: ['token:read'] })).key;
    const card = await api('POST', '/tokens', {
      key: user,
      body: { type: 'card', data: { number: '4242424242424242', expiration_month: 12, expiration_year: 2030, cvc: '123' } },
    });
    expect(card.status).toBe(201);
    cardId = card.body.id;
    const name = await api('POST', '/tokens', { key: user, body: { type: 'token', data: 'Jane "Q" Doe' } });
    nameId = name.body.id;
    const otherWriter = (await other.app('private', { permissions: ['token:create'] })).key;
    otherTokenId = (await api('POST', '/tokens', { key: otherWriter, body: { type: 'token', data: 'other tenant secret' } })).body.id;
  });
  afterAll(() => dest.stop());

  it('replaces expressions in a JSON body and returns the destination answer unchanged', async () => {
    dest.behave = (_req, res) => {
      res.statusCode = 201;
      res.setHeader('content-type', 'application/vnd.processor+json');
      res.setHeader('x-processor-id', 'p-1');
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.end('{"charged" : true}');
    };
    const res = await proxy('POST', '/proxy', {
      key: user,
      destination: dest.url('/v1/charges'),
      contentType: 'application/json',
      body: JSON.stringify({
        number: `{{ ${cardId} | json: '$.number' }}`,
        exp: `{{ ${cardId} | json: '$.expiration_month' }}/{{ ${cardId} | json: '$.expiration_year' }}`,
        card: `{{ ${cardId} }}`,
        name: `{{${nameId}}}`,
        plain: 'as is',
      }),
    });
    expect(res.status).toBe(201);
    expect(res.text).toBe('{"charged" : true}');
    expect(res.headers.get('content-type')).toBe('application/vnd.processor+json');
    expect(res.headers.get('x-processor-id')).toBe('p-1');
    // a destination's cookies would be the API origin's own (issue 34): they never come back
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(res.headers.get('bt-proxy-destination-status')).toBe('201');
    const got = dest.last;
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/v1/charges');
    expect(JSON.parse(got.body.toString())).toEqual({
      number: '4242424242424242',
      exp: '12/2030',
      card: { number: '4242424242424242', expiration_month: 12, expiration_year: 2030, cvc: '123' },
      name: 'Jane "Q" Doe',
      plain: 'as is',
    });
    expect(got.headers['content-type']).toBe('application/json');
  });

  it('forwards the caller headers (Authorization is the destination’s) and keeps Coffer’s own', async () => {
    dest.behave = (req, res) => res.end(JSON.stringify(req.headers));
    const res = await proxy('GET', '/proxy/customers/42?expand=card&x=%20y', {
      key: user,
      destination: `${dest.url('/api/')}`,
      headers: {
        authorization: 'Bearer processor-key',
        'x-card': `{{ ${cardId} | json: '$.number' | slice: 0, 6 }}`,
        'SVC-TRACE-ID': 'trace-proxy-1',
        'BT-PROXY-KEEP-ALIVE': 'x',
      },
    });
    expect(res.status).toBe(200);
    const got = dest.last;
    expect(got.url).toBe('/api/customers/42?expand=card&x=%20y');
    expect(got.headers['authorization']).toBe('Bearer processor-key');
    expect(got.headers['x-card']).toBe('424242');
    for (const name of ['svc-api-key', 'bt-api-key', 'svc-trace-id', 'bt-proxy-url', 'bt-proxy-keep-alive']) expect(got.headers[name]).toBeUndefined();
    expect(got.body.length).toBe(0);
    expect(res.headers.get('svc-trace-id')).toBe('trace-proxy-1');
  });

  it('appends to a destination with a query of its own, trailing slashes removed', async () => {
    dest.behave = (_req, res) => res.end();
    expect((await proxy('DELETE', '/proxy/items/7?b=2', { key: user, destination: dest.url('/base//?a=1') })).status).toBe(200);
    expect(dest.last.url).toBe('/base/items/7?a=1&b=2');
    expect((await proxy('PATCH', '/proxy/', { key: user, destination: dest.url('/only') })).status).toBe(200);
    expect(dest.last.url).toBe('/only');
  });

  it('replaces expressions in form and text bodies, and leaves binary bodies alone', async () => {
    dest.behave = (_req, res) => res.end('ok');
    await proxy('PUT', '/proxy', {
      key: user,
      destination: dest.url('/form'),
      contentType: 'application/x-www-form-urlencoded',
      body: `card%5Bnumber%5D=${encodeURIComponent(`{{ ${cardId} | json: '$.number' }}`)}&name=${encodeURIComponent(`{{ ${nameId} }}`)}&amount=10`,
    });
    expect(dest.last.body.toString()).toBe(`card%5Bnumber%5D=4242424242424242&name=Jane+%22Q%22+Doe&amount=10`);
    await proxy('POST', '/proxy', {
      key: user,
      destination: dest.url('/text'),
      contentType: 'text/plain',
      body: `PAN={{ ${cardId} | json: '$.number' }};CVC={{ ${cardId} | json: '$.cvc' }}`,
    });
    expect(dest.last.body.toString()).toBe('PAN=4242424242424242;CVC=123');
    expect(dest.last.headers['content-type']).toBe('text/plain');
    const binary = Buffer.concat([Buffer.from([0, 255, 254]), Buffer.from(`{{ ${cardId} }}`)]);
    await proxy('POST', '/proxy', { key: user, destination: dest.url('/bin'), contentType: 'application/octet-stream', body: binary });
    expect(dest.last.body.equals(binary)).toBe(true);
  });

  it('sends a body without expressions byte for byte, and answers with a body as it came', async () => {
    const raw = '{ "a" : 1.50,\n  "b": "{{ not really" }';
    dest.behave = (_req, res) => {
      res.setHeader('content-type', 'text/csv');
      res.end('x,y\n1,2\n');
    };
    const res = await proxy('POST', '/proxy', { key: user, destination: dest.url(), contentType: 'application/json', body: raw });
    expect(dest.last.body.toString()).toBe(raw);
    expect(res.text).toBe('x,y\n1,2\n');
    expect(res.headers.get('content-type')).toBe('text/csv');
  });

  it('returns destination errors as they are, with their status', async () => {
    dest.behave = (_req, res) => {
      res.statusCode = 402;
      res.setHeader('content-type', 'application/json');
      res.end('{"error":"card_declined"}');
    };
    const res = await proxy('POST', '/proxy', { key: user, destination: dest.url(), contentType: 'application/json', body: '{}' });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ error: 'card_declined' });
    expect(res.headers.get('bt-proxy-destination-status')).toBe('402');
  });

  it('needs proxy:invoke or token:use; detokenizing needs the caller’s access to the tokens', async () => {
    dest.behave = (_req, res) => res.end('ok');
    expect((await proxy('POST', '/proxy', { destination: dest.url(), body: 'x', contentType: 'text/plain' })).status).toBe(401);
    const refused = await proxy('POST', '/proxy', { key: noProxy, destination: dest.url(), body: 'x', contentType: 'text/plain' });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const count = dest.received.length;
    expect((await proxy('POST', '/proxy', { key: invokeOnly, destination: dest.url(), body: 'plain', contentType: 'text/plain' })).status).toBe(200);
    expect(dest.received.length).toBe(count + 1);
    const noUse = await proxy('POST', '/proxy', { key: invokeOnly, destination: dest.url(), body: `{{ ${nameId} }}`, contentType: 'text/plain' });
    expect(noUse.status).toBe(403);
    expect(dest.received.length).toBe(count + 1);
  });

  it("fails another tenant's token ids as unknown, and sends nothing", async () => {
    const count = dest.received.length;
    const res = await proxy('POST', '/proxy', {
      key: user,
      destination: dest.url(),
      contentType: 'application/json',
      body: JSON.stringify({ x: `{{ ${otherTokenId} }}` }),
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.request).toEqual([`token "${otherTokenId}" was not found`]);
    expect(res.text).not.toContain('other tenant secret');
    const malformed = await proxy('POST', '/proxy', {
      key: user,
      destination: dest.url(),
      contentType: 'application/json',
      body: JSON.stringify({ x: '{{ bad id with spaces }}' }),
    });
    expect(malformed.status).toBe(400);
    expect(dest.received.length).toBe(count);
  });
});
