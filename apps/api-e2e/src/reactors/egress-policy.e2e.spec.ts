/**
 * Issue 15: per-reactor egress policy over HTTP. A reactor (PUT/POST/PATCH `egress: {allow: [...]}`) reaches only
 * the hosts it lists (else its formula's list); without a list its tenant's default applies
 * (`settings.reactor_egress`: allow_public, as before, or deny_unlisted). Refusals look like unreachable hosts; every request is counted and logged without
 * its path, headers or body. The "allowed host" is a loopback server: the e2e system exempts 127.0.0.1 from the
 * address check (EGRESS_ALLOW_HOSTS in support/global-setup.mjs), as an operator would a partner host.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { api, createTenant, type TestTenant } from '@coffer/testing';
import { formulaCode, privateFormula } from './support';

jest.setTimeout(120_000);

const MERGE_PATCH = 'application/merge-patch+json';

describe('reactor egress policy', () => {
  let tenant: TestTenant;
  let mk: string;
  let key: string;
  let server: Server;
  let port = 0;

  beforeAll(async () => {
    server = createServer((req, res) => res.end(JSON.stringify({ path: req.url, secret: 'response-body-secret' })));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
    tenant = await createTenant('reactor-egress');
    mk = tenant.managementKey;
    key = (await tenant.app('private', { permissions: ['token:use'] })).key;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  /** A code reactor that fetches the URL given in args and reports the answer or the error (host masked). */
  const FETCHER = formulaCode(`
    try {
      const r = await fetch(req.args.url, { headers: { authorization: 'Bearer header-secret' } });
      return { raw: { status: r.status, body: await r.json() } };
    } catch (e) {
      return { raw: { error: e.message.split(new URL(req.args.url).hostname).join('<host>'), code: e.code, type: e.type } };
    }`);
  const createReactor = async (egress?: unknown) => {
    const res = await api('POST', '/reactors', { key: mk, body: { name: 'fetcher', code: FETCHER, ...(egress !== undefined ? { egress } : {}) } });
    expect(res.status).toBe(201);
    return res.body as { id: string; egress?: unknown };
  };
  const reach = async (reactorId: string, url: string) => {
    const res = await api('POST', `/reactors/${reactorId}/react`, { key, body: { args: { url } } });
    expect(res.status).toBe(200);
    return res.body.raw as { status?: number; error?: string; code?: string };
  };
  const local = (p = '/ok') => `http://127.0.0.1:${port}${p}`;

  it('stores the list, shows it, and refuses malformed lists with 400', async () => {
    const r = await createReactor({ allow: ['127.0.0.1', '*.example.com'] });
    expect(r.egress).toEqual({ allow: ['127.0.0.1', '*.example.com'] });
    expect((await api('GET', `/reactors/${r.id}`, { key: mk })).body.egress).toEqual({ allow: ['127.0.0.1', '*.example.com'] });
    const bad = await api('POST', '/reactors', {
      key: mk,
      body: { name: 'bad', code: FETCHER, egress: { allow: ['https://api.example.com/x', 'a.com:443'] } },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(expect.arrayContaining([expect.stringMatching(/^egress/)]));
    expect((await api('POST', '/reactors', { key: mk, body: { name: 'bad', code: FETCHER, egress: { allow: 'x' } } })).status).toBe(400);
    expect((await api('POST', '/reactors', { key: mk, body: { name: 'bad', code: FETCHER, egress: { allow: new Array(51).fill('a.com') } } })).status).toBe(
      400,
    );
  });

  it('a listed host is reached; an unlisted one, a private address and an unknown name fail alike', async () => {
    const listed = await createReactor({ allow: ['127.0.0.1'] });
    expect(await reach(listed.id, local())).toMatchObject({ status: 200 });
    const onlyOther = await createReactor({ allow: ['api.example.com'] });
    const unlisted = await reach(onlyOther.id, local());
    const open = await createReactor();
    const privateAddress = await reach(open.id, 'http://10.0.0.1:9/ok');
    const unknownName = await reach(open.id, 'http://no-such-host.invalid:9/ok');
    expect(unlisted).toMatchObject({ code: 'EGRESS_DENIED', type: 'system' });
    const shape = (o: { error?: string; code?: string }) => ({ code: o.code, error: o.error?.replace(/:\d+\//, ':<port>/') });
    expect(shape(unlisted)).toEqual(shape(privateAddress));
    expect(shape(unknownName)).toEqual(shape(privateAddress));
  });

  it("without a list the tenant's default applies: allow_public (as before), then deny_unlisted", async () => {
    const open = await createReactor();
    expect(await reach(open.id, local())).toMatchObject({ status: 200 });
    const set = await api('PUT', '/tenants/self', { key: mk, body: { settings: { reactor_egress: 'deny_unlisted' } } });
    expect(set.status).toBe(200);
    expect(set.body.settings).toMatchObject({ reactor_egress: 'deny_unlisted' });
    expect((await api('PUT', '/tenants/self', { key: mk, body: { settings: { reactor_egress: 'maybe' } } })).status).toBe(400);
    // reactor-service cached the default a moment ago (the first reach); the change reaches it at once
    expect(await reach(open.id, local())).toMatchObject({ code: 'EGRESS_DENIED' });
    // a reactor's own list still applies under deny_unlisted
    const listed = await createReactor({ allow: ['127.0.0.1'] });
    expect(await reach(listed.id, local())).toMatchObject({ status: 200 });
    // PATCH adds a list to the open reactor; null removes it again
    const patched = await api('PATCH', `/reactors/${open.id}`, { key: mk, body: { egress: { allow: ['127.0.0.1'] } }, contentType: MERGE_PATCH });
    expect(patched.status).toBe(200);
    expect(patched.body.egress).toEqual({ allow: ['127.0.0.1'] });
    expect(await reach(open.id, local())).toMatchObject({ status: 200 });
    const removed = await api('PATCH', `/reactors/${open.id}`, { key: mk, body: { egress: null }, contentType: MERGE_PATCH });
    expect(removed.body.egress).toBeUndefined();
    expect(await reach(open.id, local())).toMatchObject({ code: 'EGRESS_DENIED' });
    await api('PUT', '/tenants/self', { key: mk, body: { settings: { reactor_egress: 'allow_public' } } });
  });

  it("a formula's list applies to its reactors without a list of their own; a reactor's own list wins", async () => {
    const f = await api('POST', '/reactor-formulas', { key: mk, body: privateFormula({ code: FETCHER, egress: { allow: ['api.example.com'] } }) });
    expect(f.status).toBe(201);
    expect(f.body.egress).toEqual({ allow: ['api.example.com'] });
    const bad = await api('POST', '/reactor-formulas', { key: mk, body: privateFormula({ code: FETCHER, egress: { allow: ['*'] } }) });
    expect(bad.status).toBe(400);
    const plain = await api('POST', '/reactors', { key: mk, body: { name: 'of formula', configuration: {}, formula: { id: f.body.id } } });
    expect(plain.status).toBe(201);
    expect(await reach(plain.body.id, local())).toMatchObject({ code: 'EGRESS_DENIED' });
    const own = await api('POST', '/reactors', {
      key: mk,
      body: { name: 'own list', configuration: {}, formula: { id: f.body.id }, egress: { allow: ['127.0.0.1'] } },
    });
    expect(own.status).toBe(201);
    expect(await reach(own.body.id, local())).toMatchObject({ status: 200 });
  });

  it('every outbound request is counted and logged with host, status, bytes and duration - never path, headers or body', async () => {
    const ports = JSON.parse(process.env['COFFER_E2E_HEALTH_PORTS'] as string) as Record<string, number>;
    const counted = async () => {
      const text = await (await fetch(`http://127.0.0.1:${ports['reactor-service']}/metrics`)).text();
      const line = text.split('\n').find((l) => l.startsWith('coffer_reactor_egress_requests_total{outcome="ok",status_class="2xx"}'));
      return line ? Number(line.split(' ').pop()) : 0;
    };
    const before = await counted();
    const listed = await createReactor({ allow: ['127.0.0.1'] });
    expect(await reach(listed.id, local('/private-path-marker?q=query-marker-8d1f'))).toMatchObject({ status: 200 });
    expect(await counted()).toBe(before + 1);
    const log = readFileSync(path.join(process.cwd(), 'tmp', 'e2e-logs', 'reactor-service.log'), 'utf8');
    const lines = log.split('\n').filter((l) => l.includes('reactor egress'));
    expect(lines.length).toBeGreaterThan(0);
    const last = JSON.parse(lines[lines.length - 1]);
    expect(last).toMatchObject({ host: '127.0.0.1', outcome: 'ok', status: 200, bytes: expect.any(Number), duration_ms: expect.any(Number) });
    for (const secret of ['private-path-marker', 'query-marker-8d1f', 'header-secret', 'response-body-secret']) expect(log).not.toContain(secret);
  });
});
