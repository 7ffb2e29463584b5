/**
 * Issue 34: a proxied answer is served on Coffer's API origin, which shares its host name with the console's, so it
 * must never be able to act as Coffer there: no cookie, no policy of the destination's, no script. And what the
 * caller's browser holds for Coffer (its cookies) never reaches a destination.
 */
import http from 'node:http';
import { api, createTenant, gatewayUrl, type TestTenant } from '@coffer/testing';
import { Destination, proxy } from './support';

jest.setTimeout(60_000);

/** A request with headers fetch() refuses to send (Connection and what it names): node's http client sends them as given. */
function rawRequest(path: string, headers: Record<string, string>, body = ''): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const url = new URL(path, gatewayUrl());
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('proxied answers cannot act as Coffer on its origin', () => {
  let tenant: TestTenant;
  let user: string;
  const dest = new Destination();

  beforeAll(async () => {
    await dest.start();
    tenant = await createTenant('proxy-isolation');
    user = (await tenant.app('private', { permissions: ['proxy:invoke'] })).key;
  });
  afterAll(() => dest.stop());

  const hostile = () => {
    dest.behave = (_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.setHeader('set-cookie', ['coffer_console=attacker; Path=/', 'coffer_console_csrf=attacker; Path=/']);
      res.setHeader('content-security-policy', "default-src *; script-src 'unsafe-inline'");
      res.setHeader('access-control-allow-origin', 'https://attacker.example');
      res.setHeader('access-control-allow-credentials', 'true');
      res.setHeader('clear-site-data', '"cookies"');
      res.setHeader('svc-idempotent-replay', 'true');
      res.setHeader('bt-trace-id', 'chosen-by-destination');
      res.setHeader('connection', 'x-hop-secret');
      res.setHeader('x-hop-secret', 'hop only');
      res.setHeader('x-processor-id', 'p-1');
      res.end('<script>fetch("/applications",{credentials:"include"})</script>');
    };
  };

  it('every answer is a sandboxed, unsniffed document without the destination cookies, policies or Coffer-named headers', async () => {
    hostile();
    const res = await proxy('GET', '/proxy', { key: user, destination: dest.url('/page') });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(res.headers.get('access-control-allow-origin')).not.toBe('https://attacker.example');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('clear-site-data')).toBeNull();
    expect(res.headers.get('svc-idempotent-replay')).toBeNull();
    expect(res.headers.get('bt-trace-id')).not.toBe('chosen-by-destination');
    expect(res.headers.get('x-hop-secret')).toBeNull();
    // what is the destination's own message still comes back
    expect(res.headers.get('x-processor-id')).toBe('p-1');
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('bt-proxy-destination-status')).toBe('200');
  });

  it('the same for an anonymous pre-configured proxy (a plain link) and its error answers', async () => {
    hostile();
    const writer = await tenant.app('private', { permissions: ['token:create'] });
    const made = await api('POST', '/proxies', {
      key: tenant.managementKey,
      body: { name: 'open', destination_url: dest.url('/inbound'), require_auth: false, application: { id: writer.id } },
    });
    expect(made.status).toBe(201);
    const res = await fetch(`${gatewayUrl()}/proxy?bt-proxy-key=${made.body.key}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    expect(res.headers.getSetCookie()).toEqual([]);
    dest.behave = (_req, r) => {
      r.statusCode = 500;
      r.setHeader('set-cookie', 'x=1');
      r.setHeader('content-type', 'text/html');
      r.end('<b>down</b>');
    };
    const failed = await fetch(`${gatewayUrl()}/proxy?bt-proxy-key=${made.body.key}`);
    expect(failed.status).toBe(500);
    expect(failed.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    expect(failed.headers.getSetCookie()).toEqual([]);
  });

  it("never forwards the browser's cookies, Coffer's headers or what the caller's Connection header names", async () => {
    dest.behave = (_req, res) => res.end('{}');
    const res = await rawRequest(
      '/proxy',
      {
        'svc-api-key': user,
        'bt-proxy-url': dest.url('/in'),
        'content-type': 'application/json',
        cookie: 'coffer_console=session-id; coffer_console_csrf=csrf-token',
        connection: 'keep-alive, x-internal-route',
        'x-internal-route': 'blue',
        'x-kept': 'yes',
      },
      '{}',
    );
    expect(res.status).toBe(200);
    const got = dest.last;
    expect(got.headers['cookie']).toBeUndefined();
    expect(got.headers['x-internal-route']).toBeUndefined();
    expect(got.headers['svc-api-key']).toBeUndefined();
    expect(got.headers['x-kept']).toBe('yes');
    expect(JSON.stringify(got.rawHeaders)).not.toContain('session-id');
  });
});
