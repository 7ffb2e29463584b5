/** Issue 13 item 1: what clients of the mirrored service send, accepted as they send it; nothing else loosened. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { api, createTenant, gatewayUrl, type TestTenant, apiRaw } from '@coffer/testing';

describe('HTTP leniency for clients of the mirrored service', () => {
  let tenant: TestTenant;
  let writer: { id: string; key: string };
  beforeAll(async () => {
    tenant = await createTenant('leniency');
    writer = await tenant.app('private', { permissions: ['token:create', 'token:read', 'token:use', 'token:search'] });
  });

  it('a trailing slash addresses the same route, on collections, resources and nested routes', async () => {
    const created = await apiRaw('POST', '/tokens/', { key: writer.key, body: { type: 'token', data: 'slash' } });
    expect(created.status).toBe(201);
    expect((await apiRaw('GET', '/tokens/', { key: writer.key })).status).toBe(200);
    expect((await apiRaw('GET', `/tokens/${created.body.id}/`, { key: writer.key })).body.id).toBe(created.body.id);
    expect((await apiRaw('POST', '/tokenize/', { key: writer.key, body: { a: 'x' } })).status).toBe(200);
    expect((await apiRaw('POST', '/tokens/search/', { key: writer.key, body: { query: `id:${created.body.id}` } })).body.data).toHaveLength(1);
    for (const p of ['/applications/', '/tenants/self/', '/logs/', '/reactor-formulas/', '/reactors/', '/permissions/'])
      expect([p, (await apiRaw('GET', p, { key: tenant.managementKey })).status]).toEqual([p, 200]);
    // a path that names no route still does not, with or without the slash
    expect((await apiRaw('GET', '/nothing-here/', { key: writer.key })).status).toBe(404);
  });

  it('a POST without a body is accepted whatever its content type; a body in a foreign type stays a 415', async () => {
    const web = await tenant.app('public', { permissions: ['token:create'] });
    const session = await apiRaw('POST', '/sessions/', { key: web.key, rawBody: '', contentType: 'application/x-www-form-urlencoded' });
    expect(session.status).toBe(201);
    expect(session.body.session_key).toBeDefined();
    const app = await tenant.app('private', { permissions: ['token:read'] });
    const regen = await api('POST', `/applications/${app.id}/regenerate`, { key: tenant.managementKey, rawBody: '', contentType: 'text/plain' });
    expect(regen.status).toBe(200);
    expect(regen.body.key).toMatch(/^key_/);

    const form = await api('POST', '/tokens', { key: writer.key, rawBody: 'type=token&data=x', contentType: 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    expect(form.headers.get('content-type')).toContain('application/problem+json');
    expect(form.body).toEqual({ title: 'Unsupported Media Type', status: 415, detail: 'The Content-Type of the request is not supported' });
    // only POST: an empty PUT or PATCH in a foreign type is still refused
    expect((await api('PUT', '/tenants/self', { key: tenant.managementKey, rawBody: '', contentType: 'text/plain' })).status).toBe(415);
    const token = await api('POST', '/tokens', { key: writer.key, body: { type: 'token', data: 'p' } });
    const upd = await tenant.app('private', { permissions: ['token:update'] });
    expect((await api('PATCH', `/tokens/${token.body.id}`, { key: upd.key, rawBody: '', contentType: 'text/plain' })).status).toBe(415);
    expect((await api('PATCH', `/tokens/${token.body.id}`, { key: upd.key, body: { metadata: { a: 'b' } }, contentType: 'application/json' })).status).toBe(
      415,
    );
  });

  it('the trace id comes back under the header the client used, and as SVC-TRACE-ID', async () => {
    const bt = await api('GET', '/tokens', { headers: { 'BT-API-KEY': writer.key, 'BT-TRACE-ID': 'trace-bt-1' } });
    expect(bt.status).toBe(200);
    expect(bt.headers.get('bt-trace-id')).toBe('trace-bt-1');
    expect(bt.headers.get('svc-trace-id')).toBe('trace-bt-1');
    // a BT client that sends no trace id still reads one under its own prefix
    const generated = await api('GET', '/tokens', { headers: { 'BT-API-KEY': writer.key } });
    expect(generated.headers.get('bt-trace-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(generated.headers.get('svc-trace-id')).toBe(generated.headers.get('bt-trace-id'));
    const svc = await api('GET', '/tokens', { key: writer.key, headers: { 'SVC-TRACE-ID': 'trace-svc-1' } });
    expect(svc.headers.get('svc-trace-id')).toBe('trace-svc-1');
    expect(svc.headers.get('bt-trace-id')).toBeNull();
  });

  it('answers on localhost (the mirrored JS SDK keeps http only for that host name)', async () => {
    const port = new URL(gatewayUrl()).port;
    const res = await fetch(`http://localhost:${port}/healthz`);
    expect(res.status).toBe(200);
  });

  describe('react: callbackUrl and timeoutMs', () => {
    let reactor: string;
    let receiver: http.Server;
    let callbackUrl: string;
    const delivered: string[] = [];
    beforeAll(async () => {
      const formula = await api('POST', '/reactor-formulas', {
        key: tenant.managementKey,
        body: { name: 'echo', type: 'private', code: 'module.exports = async function (req) { return { raw: { got: req.args.x } }; };' },
      });
      reactor = (await api('POST', '/reactors', { key: tenant.managementKey, body: { name: 'echo', configuration: {}, formula: { id: formula.body.id } } }))
        .body.id;
      receiver = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          delivered.push(body);
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
      callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    });
    afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

    it('callbackUrl makes the call asynchronous, like callback_url', async () => {
      const res = await api('POST', `/reactors/${reactor}/react`, { key: writer.key, body: { args: { x: 1 }, callbackUrl, timeoutMs: 20000 } });
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ status: 'pending' });
      for (let i = 0; i < 100 && !delivered.length; i++) await new Promise((r) => setTimeout(r, 100));
      expect(JSON.parse(delivered[0])).toMatchObject({ raw: { got: 1 } });
    });

    it('timeoutMs is validated like timeout_ms; both spellings with different values are a 400 naming both', async () => {
      const bad = await api('POST', `/reactors/${reactor}/react`, { key: writer.key, body: { args: {}, timeoutMs: 5 } });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.errors)).toContain('timeout_ms');
      const both = await api('POST', `/reactors/${reactor}/react`, { key: writer.key, body: { args: {}, callbackUrl, callback_url: `${callbackUrl}2` } });
      expect(both.status).toBe(400);
      expect(Object.keys(both.body.errors).sort()).toEqual(['callbackUrl', 'callback_url']);
      const same = await api('POST', `/reactors/${reactor}/react`, { key: writer.key, body: { args: { x: 2 }, timeoutMs: 10000, timeout_ms: 10000 } });
      expect(same.status).toBe(200);
      expect(same.body).toEqual({ raw: { got: 2 } });
    });
  });
});
