/**
 * Issue 26: destinations that misbehave, and destinations that must not be reached. Whatever a destination does,
 * the caller gets its answer or a problem document of Coffer's, bounded in time and size, and neither Coffer's
 * error bodies nor its logs ever carry the detokenized values. SSRF: only https, DNS names, public addresses (the
 * run exempts `localhost` the way an operator exempts a partner host; the refusal of names that resolve to private
 * addresses is proxy-service's forwarder.spec.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { api, createTenant } from '@coffer/testing';
import { Destination, proxy } from './support';

jest.setTimeout(120_000);

const PAN = '4111111111111111';

describe('hostile destinations', () => {
  let key: string;
  let cardId: string;
  const dest = new Destination();
  const body = () => JSON.stringify({ number: `{{ ${cardId} | json: '$.number' }}` });

  beforeAll(async () => {
    await dest.start();
    const tenant = await createTenant('proxy-hostile');
    key = (await tenant.app('private', { permissions: ['token:create', 'token:use'] })).key;
    const card = await api('POST', '/tokens', { key, body: { type: 'card', data: { number: PAN, expiration_month: 1, expiration_year: 2031 } } });
    cardId = card.body.id;
  });
  afterAll(() => dest.stop());

  const send = (p = '/x') => proxy('POST', '/proxy', { key, destination: dest.url(p), contentType: 'application/json', body: body() });
  const isProblem = (res: { status: number; headers: Headers; body: { status?: number } }, status: number) => {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body.status).toBe(status);
    expect(res.headers.get('bt-proxy-destination-status')).toBeNull();
  };

  it('a destination slower than the proxy timeout: 408 problem', async () => {
    dest.behave = (_req, res) => void setTimeout(() => res.end('late'), 4_000);
    const started = Date.now();
    const res = await send();
    isProblem(res, 408);
    expect(Date.now() - started).toBeLessThan(3_900);
    expect(res.text).not.toContain(PAN);
  });

  it('a destination that stalls mid-body: 408 problem too', async () => {
    dest.behave = (_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('partial');
    };
    isProblem(await send(), 408);
  });

  it('a huge answer is cut off: 502 problem, not buffered without bound', async () => {
    dest.behave = (_req, res) => {
      res.setHeader('content-type', 'application/octet-stream');
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      let sent = 0;
      const pump = () => {
        while (sent < 6 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    };
    isProblem(await send(), 502);
  });

  it('a redirect is returned to the caller, never followed', async () => {
    dest.behave = (req, res) => {
      if (req.url === '/moved') {
        res.writeHead(302, { location: dest.url('/elsewhere') });
        res.end();
      } else res.end('followed');
    };
    const before = dest.received.length;
    const res = await send('/moved');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(dest.url('/elsewhere'));
    expect(dest.received.length).toBe(before + 1);
  });

  it('a destination that resets the connection: 502 problem', async () => {
    dest.behave = (_req, _res, raw) => raw.socket.destroy();
    const res = await send();
    isProblem(res, 502);
    expect(res.text).not.toContain(PAN);
  });

  it('a destination echoing every header back sees the caller’s own headers only', async () => {
    dest.behave = (req, res) => {
      for (let i = 0; i < req.rawHeaders.length; i += 2) res.setHeader(`echo-${req.rawHeaders[i]}`, req.rawHeaders[i + 1]);
      res.end(JSON.stringify(req.rawHeaders));
    };
    const res = await proxy('POST', '/proxy', { key, destination: dest.url(), contentType: 'application/json', body: body(), headers: { 'x-caller': 'c1' } });
    expect(res.status).toBe(200);
    const echoed = (res.body as string[]).map((h) => h.toLowerCase());
    expect(echoed).toContain('x-caller');
    for (const own of ['svc-api-key', 'bt-api-key', 'bt-proxy-url', 'svc-trace-id', 'x-forwarded-for']) expect(echoed).not.toContain(own);
    expect(res.text).not.toContain(key);
  });

  it('a destination answering an error that quotes the card: its answer, as given, and nothing of it in Coffer’s logs', async () => {
    dest.behave = (req, res) => {
      res.writeHead(422, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `invalid card ${JSON.parse(req.body.toString()).number}` }));
    };
    const res = await send();
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: `invalid card ${PAN}` });
    expect(res.headers.get('bt-proxy-destination-status')).toBe('422');
    // what every service wrote so far: never the detokenized value, nor the key
    const dir = process.env['COFFER_E2E_LOG_DIR'] as string;
    await new Promise((r) => setTimeout(r, 300));
    for (const file of fs.readdirSync(dir)) {
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      expect({ file, pan: text.includes(PAN) }).toEqual({ file, pan: false });
    }
  });

  describe('SSRF', () => {
    it.each([
      ['an IP literal', () => `https://127.0.0.1:${dest.port}/x`],
      ['an IPv6 literal', () => `https://[::1]:${dest.port}/x`],
      ['a decimal IP', () => `https://2130706433:${dest.port}/x`],
      ['http', () => `http://localhost:${dest.port}/x`],
      ['credentials in the URL', () => `https://user:pw@localhost:${dest.port}/x`],
      ['no destination', () => undefined],
      ['a name that does not resolve', () => 'https://does-not-exist.invalid/x'],
    ])('refuses %s with a 400 problem and sends nothing', async (_what, url) => {
      const before = dest.received.length;
      const res = await proxy('POST', '/proxy', { key, destination: url(), contentType: 'application/json', body: body() });
      isProblem(res, 400);
      expect(Object.keys(res.body.errors ?? {})).toEqual(['BT-PROXY-URL']);
      expect(res.text).not.toContain(PAN);
      expect(dest.received.length).toBe(before);
    });
  });
});
