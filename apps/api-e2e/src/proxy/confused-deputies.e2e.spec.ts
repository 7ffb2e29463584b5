/**
 * Issue 34: the proxy as a confused deputy — a path that climbs out of a pre-configured proxy's base path with its
 * credential, a proxy editor's expressions detokenized by its callers, replays after access was lost — and the
 * hygiene of its answers (header values, unreachable destinations, what audit records and events hold).
 */
import { api, createTenant, type TestTenant } from '@coffer/testing';
import { Destination, proxy, rawProxy } from './support';

jest.setTimeout(120_000);

describe('proxy confused deputies', () => {
  let tenant: TestTenant;
  let caller: string;
  let cardId: string;
  const dest = new Destination();

  const created = async (body: Record<string, unknown>) => {
    const res = await api('POST', '/proxies', { key: tenant.managementKey, body: { name: 'deputy', destination_url: dest.url('/tenant-a/api'), ...body } });
    expect(res.status).toBe(201);
    return res.body as { id: string; key: string };
  };

  beforeAll(async () => {
    await dest.start();
    tenant = await createTenant('proxy-deputies');
    caller = (await tenant.app('private', { permissions: ['token:create', 'token:use', 'proxy:invoke'] })).key;
    cardId = (await api('POST', '/tokens', { key: caller, body: { type: 'token', data: '4242424242424242' } })).body.id;
  });
  afterAll(() => dest.stop());

  describe("a path never leaves a proxy's base path", () => {
    const climbs = [
      '/proxy/../admin',
      '/proxy/a/../../admin',
      '/proxy/%2e%2e/admin',
      '/proxy/%2E%2e/admin',
      '/proxy/.%2E/admin',
      '/proxy/%252e%252e/admin',
      '/proxy/%25252E%25252E/admin',
      '/proxy/..%2fadmin',
      '/proxy/..%5cadmin',
      '/proxy/..\\admin',
      '/proxy/a\\b',
      '/proxy/x/..;/admin',
      '/proxy/./admin',
    ];

    it.each(climbs)('pre-configured: %s is a 400 problem and nothing is sent with the proxy credential', async (target) => {
      const p = await created({
        configuration: { API_KEY: 'sk_live_tenant_a' },
        request_transforms: [{ type: 'append_header', options: { location: 'Authorization', value: 'Bearer {{ configuration.API_KEY }}' } }],
      });
      const before = dest.received.length;
      const res = await rawProxy('GET', target, { 'SVC-API-KEY': caller, 'BT-PROXY-KEY': p.key });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body).toMatchObject({ status: 400, errors: { path: [expect.any(String)] } });
      expect(dest.received.length).toBe(before);
    });

    it.each(['/proxy/../admin', '/proxy/%2e%2e/admin', '/proxy/..%5cadmin'])('ephemeral with a base path: %s is a 400 problem', async (target) => {
      const before = dest.received.length;
      const res = await rawProxy('GET', target, { 'SVC-API-KEY': caller, 'BT-PROXY-URL': dest.url('/tenant-a/api') });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: 400, errors: { path: [expect.any(String)] } });
      expect(dest.received.length).toBe(before);
    });

    it('dots inside a segment are an ordinary path', async () => {
      const p = await created({});
      const res = await rawProxy('GET', '/proxy/v1/a..b/.well/c.', { 'SVC-API-KEY': caller, 'BT-PROXY-KEY': p.key });
      expect(res.status).toBe(200);
      expect(dest.last.url).toBe('/tenant-a/api/v1/a..b/.well/c.');
    });
  });

  describe("a proxy's editor cannot make its callers detokenize", () => {
    let editor: string;
    beforeAll(async () => {
      editor = (await tenant.app('management', { permissions: ['proxy:update'] })).key;
    });
    const edit = async (id: string, body: Record<string, unknown>) => {
      const res = await api('PATCH', `/proxies/${id}`, { key: editor, body, contentType: 'application/merge-patch+json' });
      expect(res.status).toBe(204);
    };
    const call = (key: string, body: Record<string, unknown>) =>
      proxy('POST', '/proxy/charges', { key: caller, headers: { 'BT-PROXY-KEY': key }, contentType: 'application/json', body: JSON.stringify(body) });

    it('an expression an append_header transform adds is refused (403) and nothing is sent', async () => {
      const p = await created({});
      await edit(p.id, { request_transforms: [{ type: 'append_header', options: { location: 'x-leak', value: `{{ ${cardId} }}` } }] });
      const before = dest.received.length;
      const res = await call(p.key, { amount: 100 });
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(dest.received.length).toBe(before);
    });

    it('an expression a code transform writes into the body, or a caller expression it widens, is refused', async () => {
      const p = await created({});
      await edit(p.id, {
        request_transforms: [{ type: 'code', code: `module.exports = async (req) => ({ body: { ...req.args.body, n: '{{ ${cardId} }}' } });` }],
      });
      const before = dest.received.length;
      expect((await call(p.key, { amount: 100 })).status).toBe(403);
      await edit(p.id, {
        request_transforms: [{ type: 'code', code: "module.exports = async (req) => ({ body: { n: req.args.body.n.replace(/ \\| .*}}/, ' }}') } });" }],
      });
      expect((await call(p.key, { n: `{{ ${cardId} | slice: 0, 4 }}` })).status).toBe(403);
      expect(dest.received.length).toBe(before);
    });

    it("the caller's own expressions are detokenized wherever the transforms put them", async () => {
      const p = await created({
        request_transforms: [
          {
            type: 'code',
            code: "module.exports = async (req) => ({ headers: { ...req.args.headers, 'x-card': req.args.body.card }, body: { amount: req.args.body.amount } });",
          },
          { type: 'append_json', options: { location: '$.note', value: 'added' } },
        ],
      });
      const res = await call(p.key, { card: `{{${cardId}}}`, amount: 100 });
      expect(res.status).toBe(200);
      expect(dest.last.headers['x-card']).toBe('4242424242424242');
      expect(JSON.parse(dest.last.body.toString())).toEqual({ amount: 100, note: 'added' });
    });
  });

  describe('header values that HTTP cannot carry are problems, never a bare 500', () => {
    const code = (headers: string) => `module.exports = async (req) => ({ headers: { ...req.args.headers, ${headers} } });`;

    it.each([
      ['a non-Latin-1 value', "'x-bad': 'price \\u20ac'"],
      ['a control character', "'x-bad': 'a\\u0001b'"],
    ])('a response transform producing %s: 502 problem', async (_what, headers) => {
      const p = await created({ response_transforms: [{ type: 'code', code: code(headers) }] });
      const res = await proxy('GET', '/proxy/x', { key: caller, headers: { 'BT-PROXY-KEY': p.key } });
      expect(res.status).toBe(502);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body).toMatchObject({ status: 502, errors: { headers: [expect.stringContaining('x-bad')] } });
    });

    it('a request transform producing a non-Latin-1 value: 502 problem, nothing sent', async () => {
      const p = await created({ request_transforms: [{ type: 'code', code: code("'x-bad': '\\u20ac'") }] });
      const before = dest.received.length;
      const res = await proxy('GET', '/proxy/x', { key: caller, headers: { 'BT-PROXY-KEY': p.key } });
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ status: 502, errors: { headers: [expect.stringContaining('x-bad')] } });
      expect(dest.received.length).toBe(before);
    });

    it("a caller's detokenized value that is not Latin-1: 400 problem naming the header, not its value", async () => {
      const euro = (await api('POST', '/tokens', { key: caller, body: { type: 'token', data: 'total \u20ac 10' } })).body.id;
      const before = dest.received.length;
      const res = await proxy('GET', '/proxy/x', { key: caller, destination: dest.url(), headers: { 'x-price': `{{ ${euro} }}` } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: 400, errors: { headers: [expect.stringContaining('x-price')] } });
      expect(res.text).not.toContain('total');
      expect(dest.received.length).toBe(before);
    });
  });

  it('an unreachable destination is a 502 that says so, without the socket error (no port-scanning oracle)', async () => {
    const closed = new Destination();
    await closed.start();
    const url = closed.url('/x');
    await closed.stop();
    const res = await proxy('GET', '/proxy', { key: caller, destination: url });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ status: 502, detail: 'localhost could not be reached' });
    expect(res.text).not.toMatch(/ECONN|EHOST|ENET|ETIMEDOUT|EPIPE|UND_ERR/);
  });

  describe('an idempotent replay re-checks the tokens its first call detokenized', () => {
    const charge = (key: string, tokenId: string, idempotencyKey: string) =>
      proxy('POST', '/proxy/charges', {
        key,
        destination: dest.url('/psp'),
        headers: { 'SVC-IDEMPOTENCY-KEY': idempotencyKey },
        contentType: 'application/json',
        body: JSON.stringify({ number: `{{ ${tokenId} }}` }),
      });
    const echo = () => {
      dest.behave = (req, res) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ got: req.body.toString() }));
      };
    };

    it('a caller that lost token:use gets 403, not the stored answer', async () => {
      echo();
      const app = await tenant.app('private', { permissions: ['token:create', 'token:use', 'proxy:invoke'] });
      const tokenId = (await api('POST', '/tokens', { key: app.key, body: { type: 'token', data: 'secret-pan-1' } })).body.id;
      const first = await charge(app.key, tokenId, 'replay-narrowed');
      expect(first.status).toBe(200);
      expect(first.text).toContain('secret-pan-1');
      const again = await charge(app.key, tokenId, 'replay-narrowed');
      expect(again.status).toBe(200);
      expect(again.headers.get('svc-idempotent-replay')).toBe('true');

      const narrowed = await api('PUT', `/applications/${app.id}`, { key: tenant.managementKey, body: { name: 'narrowed', permissions: ['proxy:invoke'] } });
      expect(narrowed.status).toBe(200);
      await new Promise((r) => setTimeout(r, 300));
      const before = dest.received.length;
      const replay = await charge(app.key, tokenId, 'replay-narrowed');
      expect(replay.status).toBe(403);
      expect(replay.headers.get('content-type')).toContain('application/problem+json');
      expect(replay.text).not.toContain('secret-pan-1');
      expect(dest.received.length).toBe(before);
    });

    it('a token deleted since: 409, not the stored answer', async () => {
      echo();
      const tokenId = (await api('POST', '/tokens', { key: caller, body: { type: 'token', data: 'secret-pan-2' } })).body.id;
      expect((await charge(caller, tokenId, 'replay-deleted')).status).toBe(200);
      const deleter = (await tenant.app('private', { permissions: ['token:delete'] })).key;
      expect((await api('DELETE', `/tokens/${tokenId}`, { key: deleter })).status).toBe(204);
      const replay = await charge(caller, tokenId, 'replay-deleted');
      expect(replay.status).toBe(409);
      expect(replay.text).not.toContain('secret-pan-2');
    });
  });

  it("proxy-service's metrics count calls by status, never by a tenant's destination host", async () => {
    dest.behave = (_req, res) => res.end('ok');
    expect((await proxy('GET', '/proxy', { key: caller, destination: dest.url('/metrics-probe') })).status).toBe(200);
    const ports = JSON.parse(process.env['COFFER_E2E_METRICS_PORTS'] as string) as Record<string, number>;
    const metrics = await (await fetch(`http://127.0.0.1:${ports['proxy-service']}/metrics`)).text();
    expect(metrics).toMatch(/^coffer_proxy_requests_total\{status="200"\} \d+/m);
    expect(metrics).toMatch(/^coffer_proxy_destination_duration_seconds_count \d+/m);
    expect(metrics).not.toContain('localhost');
    expect(metrics).not.toMatch(/host="/);
  });
});
