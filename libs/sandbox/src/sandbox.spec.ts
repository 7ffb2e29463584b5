import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SandboxPool, type SandboxInvocation, type SandboxOutcome, type SvcBridge } from './index';

jest.setTimeout(30_000);

const mod = (body: string) => `module.exports = async function (req) {\n${body}\n};`;

function inv(code: string, extra: Partial<SandboxInvocation> = {}): SandboxInvocation {
  return { code, args: {}, configuration: {}, svc: false, timeoutMs: 5000, tenant: 'tenant-1', ...extra };
}

function raw(o: SandboxOutcome): unknown {
  if (!o.ok) throw new Error('expected success, got ' + JSON.stringify(o));
  return o.result.raw;
}

function problem(o: SandboxOutcome) {
  if (o.ok) throw new Error('expected failure, got ' + JSON.stringify(o));
  return o.problem;
}

class FakeSvc implements SvcBridge {
  calls: Array<{ method: string; args: unknown[] }> = [];
  async call(method: string, args: unknown[]): Promise<unknown> {
    this.calls.push({ method, args });
    if (method === 'tokens.retrieve' && args[0] === 'missing') {
      throw { status: 404, body: { status: 404, title: 'Not Found', detail: 'Token not found' } };
    }
    if (method === 'tokens.delete') return undefined;
    if (method === 'tokens.retrieve') return { id: args[0], type: 'token', data: 'XXXX' };
    if (method === 'tokenize') return { tokenized: args[0] };
    if (method === 'tokens.list') return { pagination: { page_size: 20 }, data: [] };
    if (method === 'boom') throw new Error('host secret detail');
    return { method, args };
  }
}

describe('SandboxPool - normal behaviour', () => {
  let pool: SandboxPool;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        if (req.url === '/json') {
          res.setHeader('content-type', 'application/json');
          res.setHeader('x-test', 'yes');
          res.end(JSON.stringify({ hello: 'world' }));
        } else if (req.url === '/echo') {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ method: req.method, body, ct: req.headers['content-type'], auth: req.headers['authorization'] ?? null }));
        } else if (req.url === '/redirect') {
          res.statusCode = 302;
          res.setHeader('location', '/json');
          res.end();
        } else {
          res.statusCode = 404;
          res.end('nope');
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://fetch.test:${(server.address() as AddressInfo).port}`;
    pool = new SandboxPool({
      // SANDBOX_WORKER_SCRIPT=dist/apps/reactor-service/sandbox-worker.js runs the suite against the bundled worker
      workerScript: process.env['SANDBOX_WORKER_SCRIPT'],
      size: 1,
      concurrency: 4,
      allowHosts: ['fetch.test'],
      resolver: async (host) => (host === 'fetch.test' ? ['127.0.0.1'] : ['93.184.216.34']),
    });
    // deadlines count from the call: start once the worker is up (slow on a loaded machine)
    while (pool.stats().ready < 1) await new Promise((r) => setTimeout(r, 20));
  });

  afterAll(async () => {
    await pool.close();
    await new Promise((r) => server.close(r));
  });

  it('returns raw', async () => {
    const o = await pool.run(inv(mod('return { raw: { n: 1, s: "x", a: [1, 2], o: { deep: true } } };')), null);
    expect(o).toEqual({ ok: true, result: { raw: { n: 1, s: 'x', a: [1, 2], o: { deep: true } } } });
  });

  it('returns tokenize', async () => {
    const o = await pool.run(inv(mod('return { tokenize: { type: "token", data: req.args.secret } };'), { args: { secret: 's3' } }), null);
    expect(o).toEqual({ ok: true, result: { tokenize: { type: 'token', data: 's3' } } });
  });

  it('sees args and configuration', async () => {
    const o = await pool.run(
      inv(mod('return { raw: { args: req.args, configuration: req.configuration } };'), {
        args: { card: { number: '4242' }, list: [1] },
        configuration: { API_KEY: 'k' },
      }),
      null,
    );
    expect(raw(o)).toEqual({ args: { card: { number: '4242' }, list: [1] }, configuration: { API_KEY: 'k' } });
  });

  it('svc is null without an application', async () => {
    const o = await pool.run(inv(mod('return { raw: { svc: req.svc } };')), new FakeSvc());
    expect(raw(o)).toEqual({ svc: null });
  });

  it('svc calls reach the bridge and resolve to JSON', async () => {
    const svc = new FakeSvc();
    const o = await pool.run(
      inv(
        mod(`
          const t = await req.svc.tokens.retrieve('abc');
          const created = await req.svc.tokens.create({ type: 'token', data: 'x' });
          const upd = await req.svc.tokens.update('abc', { metadata: { a: '1' } });
          const del = await req.svc.tokens.delete('abc');
          const list = await req.svc.tokens.list({ type: 'token' });
          const search = await req.svc.tokens.search({ query: 'x' });
          const tok = await req.svc.tokenize({ a: 1 });
          const det = await req.svc.detokenize({ b: 2 });
          return { raw: { t, created, upd, del: del === undefined, list, search, tok, det } };
        `),
        { svc: true },
      ),
      svc,
    );
    expect(raw(o)).toEqual({
      t: { id: 'abc', type: 'token', data: 'XXXX' },
      created: { method: 'tokens.create', args: [{ type: 'token', data: 'x' }] },
      upd: { method: 'tokens.update', args: ['abc', { metadata: { a: '1' } }] },
      del: true,
      list: { pagination: { page_size: 20 }, data: [] },
      search: { method: 'tokens.search', args: [{ query: 'x' }] },
      tok: { tokenized: { a: 1 } },
      det: { method: 'detokenize', args: [{ b: 2 }] },
    });
    expect(svc.calls.map((c) => c.method)).toEqual([
      'tokens.retrieve',
      'tokens.create',
      'tokens.update',
      'tokens.delete',
      'tokens.list',
      'tokens.search',
      'tokenize',
      'detokenize',
    ]);
  });

  it('svc rejections carry status and data', async () => {
    const o = await pool.run(
      inv(
        mod(`
          try { await req.svc.tokens.retrieve('missing'); return { raw: 'no' }; }
          catch (e) { return { raw: { name: e.name, message: e.message, status: e.status, data: e.data, isError: e instanceof Error } }; }
        `),
        { svc: true },
      ),
      new FakeSvc(),
    );
    expect(raw(o)).toEqual({
      name: 'SvcError',
      message: 'Not Found',
      status: 404,
      data: { status: 404, title: 'Not Found', detail: 'Token not found' },
      isError: true,
    });
  });

  it('host errors from the bridge are not reflected into formula code', async () => {
    const svc: SvcBridge = { call: async () => Promise.reject(new Error('host secret detail')) };
    const o = await pool.run(
      inv(mod('try { await req.svc.tokens.retrieve("a"); } catch (e) { return { raw: { s: e.status, d: e.data, m: e.message } }; }'), { svc: true }),
      svc,
    );
    expect(raw(o)).toEqual({ s: 500, d: { status: 500, title: 'Internal Server Error' }, m: 'Internal Server Error' });
  });

  it.each([
    ['BadRequestError', 400, 'Bad Request'],
    ['InvalidReactorConfigurationError', 400, 'Invalid Reactor Configuration'],
    ['AuthenticationError', 401, 'Authentication Failed'],
    ['InvalidPaymentMethodError', 402, 'Invalid Payment Method'],
    ['AuthorizationError', 403, 'Forbidden'],
    ['RateLimitError', 429, 'Rate Limit Exceeded'],
    ['ReactorRuntimeError', 500, 'Reactor Runtime Error'],
    ['ServiceUnavailableError', 503, 'Service Unavailable'],
  ])('maps %s to %i', async (name, status, title) => {
    const code = `const R = require('@coffer/reactor-runtime');\n` + mod(`throw new R.${name}('went wrong');`);
    const o = await pool.run(inv(code), null);
    expect(problem(o)).toEqual({ status, title, detail: title, errors: { error: ['went wrong'] } });
  });

  it('normalizes the constructor argument into errors (string, array, object, none) and supports the BT alias', async () => {
    const code = `
      const { BadRequestError } = require('@basis-theory/basis-theory-reactor-formulas-sdk-js');
      module.exports = async (req) => {
        const which = req.args.which;
        if (which === 'array') throw new BadRequestError(['a', 'b']);
        if (which === 'object') throw new BadRequestError({ 'card.number': 'invalid', cvc: ['missing', 'short'], n: 3 });
        throw new BadRequestError();
      };`;
    expect(problem(await pool.run(inv(code, { args: { which: 'array' } }), null)).errors).toEqual({ error: ['a', 'b'] });
    expect(problem(await pool.run(inv(code, { args: { which: 'object' } }), null)).errors).toEqual({
      'card.number': ['invalid'],
      cvc: ['missing', 'short'],
      n: ['3'],
    });
    expect(problem(await pool.run(inv(code, { args: { which: 'none' } }), null))).toEqual({
      status: 400,
      title: 'Bad Request',
      detail: 'Bad Request',
    });
  });

  it('CustomHttpResponseError returns status, headers and body as given', async () => {
    const code =
      `const { CustomHttpResponseError } = require('@coffer/reactor-runtime');\n` +
      mod(`throw new CustomHttpResponseError({ status: 418, headers: { 'X-Teapot': 'yes', 'Content-Length': '1' }, body: { short: 'stout' } });`);
    const o = await pool.run(inv(code), null);
    expect(o.ok).toBe(false);
    if (o.ok) return;
    expect(o.custom).toEqual({ status: 418, headers: { 'X-Teapot': 'yes' }, body: { short: 'stout' } });
    expect(o.problem.status).toBe(418);
  });

  it('arbitrary throws are 500 without the message', async () => {
    const o = await pool.run(inv(mod('throw new Error("card 4242424242424242 declined");')), null);
    expect(problem(o)).toEqual({ status: 500, title: 'Reactor Runtime Error', detail: 'Reactor Runtime Error' });
    expect(JSON.stringify(o)).not.toContain('4242');
  });

  it('code that does not load is 422', async () => {
    const syntax = problem(await pool.run(inv('module.exports = async function (req) { return {'), null));
    expect(syntax.status).toBe(422);
    expect(syntax.title).toBe('Reactor code could not be loaded');
    expect(syntax.errors?.['error'][0]).toMatch(/SyntaxError|Unexpected/);
    expect(problem(await pool.run(inv('module.exports = 42;'), null)).status).toBe(422);
    expect(problem(await pool.run(inv('throw new Error("top level")'), null)).status).toBe(422);
    expect(problem(await pool.run(inv('const fs = require("fs"); module.exports = async () => ({})'), null))).toMatchObject({
      status: 422,
      errors: { error: ["Error: Cannot find module 'fs'"] },
    });
  });

  it('a result that is not an object is 500', async () => {
    for (const ret of ['42', '"str"', 'null', '[1]', 'undefined']) {
      const p = problem(await pool.run(inv(mod(`return ${ret};`)), null));
      expect(p.status).toBe(500);
    }
    const p = problem(await pool.run(inv(mod('const a = {}; a.self = a; return { raw: a };')), null));
    expect(p.errors).toEqual({ error: ['Reactor result is not serializable as JSON'] });
  });

  it('captures console output only when asked', async () => {
    const code = mod('console.log("hello %s", "world", { a: 1 }); console.error(new Error("bad").message); console.warn([1, 2]); return { raw: 1 };');
    const captured = await pool.run(inv(code, { captureConsole: true }), null);
    expect(captured.logs).toEqual(['[log] hello world { a: 1 }', '[error] bad', '[warn] [ 1, 2 ]']);
    const notCaptured = await pool.run(inv(code), null);
    expect(notCaptured.logs).toBeUndefined();
  });

  it('provides crypto, Buffer, URL, TextEncoder, atob/btoa', async () => {
    const o = await pool.run(
      inv(
        mod(`
          const crypto = require('crypto');
          const c2 = require('node:crypto');
          const sha256 = crypto.createHash('sha256').update('abc').digest('hex');
          const sha1 = crypto.createHash('sha1').update(Buffer.from('abc')).digest('base64');
          const md5 = crypto.createHash('md5').update('a').update('bc').digest('hex');
          const sha512len = crypto.createHash('sha512').update('').digest().length;
          const hmac = crypto.createHmac('sha256', 'key').update('The quick brown fox jumps over the lazy dog').digest('hex');
          const uuid = crypto.randomUUID();
          const rnd = crypto.randomBytes(16);
          const b = Buffer.from('héllo wörld ✓ 😀');
          const u = new URL('https://user:pw@example.com:8443/a/b?x=1&y=two#frag');
          u.searchParams.append('z', 'a b');
          const sp = new URLSearchParams({ q: 'a&b', n: '1' });
          const te = new TextEncoder().encode('✓');
          return { raw: {
            same: c2 === crypto, sha256, sha1, md5, sha512len, hmac,
            uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(uuid),
            rnd: rnd.length === 16 && Buffer.isBuffer(rnd),
            b64: b.toString('base64'), hex: Buffer.from('00ff10', 'hex').toString('hex'),
            roundtrip: Buffer.from(b.toString('base64'), 'base64').toString('utf8'),
            len: b.length, byteLength: Buffer.byteLength('✓'),
            concat: Buffer.concat([Buffer.from('ab'), Buffer.from([99, 100])]).toString(),
            json: Buffer.from('hi').toJSON(),
            u: { href: u.href, host: u.host, pathname: u.pathname, q: u.searchParams.get('y'), port: u.port },
            sp: sp.toString(),
            te: Array.from(te), td: new TextDecoder().decode(te),
            atob: atob('aGVsbG8='), btoa: btoa('hello'),
            timingSafe: crypto.timingSafeEqual(Buffer.from('a'), Buffer.from('a')),
          } };
        `),
      ),
      null,
    );
    expect(raw(o)).toEqual({
      same: true,
      sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      sha1: 'qZk+NkcGgWq6PiVxeFDCbJzQ2J0=',
      md5: '900150983cd24fb0d6963f7d28e17f72',
      sha512len: 64,
      hmac: 'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
      uuid: true,
      rnd: true,
      b64: Buffer.from('héllo wörld ✓ 😀').toString('base64'),
      hex: '00ff10',
      roundtrip: 'héllo wörld ✓ 😀',
      len: Buffer.from('héllo wörld ✓ 😀').length,
      byteLength: 3,
      concat: 'abcd',
      json: { type: 'Buffer', data: [104, 105] },
      u: { href: 'https://user:pw@example.com:8443/a/b?x=1&y=two&z=a+b#frag', host: 'example.com:8443', pathname: '/a/b', q: 'two', port: '8443' },
      sp: 'q=a%26b&n=1',
      te: [0xe2, 0x9c, 0x93],
      td: '✓',
      atob: 'hello',
      btoa: 'aGVsbG8=',
      timingSafe: true,
    });
  });

  it('timers work', async () => {
    const o = await pool.run(
      inv(
        mod(`
          const order = [];
          await new Promise((r) => setTimeout(() => { order.push('timeout'); r(); }, 5));
          await new Promise((r) => setImmediate(() => { order.push('immediate'); r(); }));
          let n = 0;
          await new Promise((r) => { const h = setInterval(() => { n++; if (n === 3) { clearInterval(h); r(); } }, 1); });
          const cancelled = setTimeout(() => order.push('never'), 1);
          clearTimeout(cancelled);
          await require('timers/promises').setTimeout(10);
          return { raw: { order, n } };
        `),
      ),
      null,
    );
    expect(raw(o)).toEqual({ order: ['timeout', 'immediate'], n: 3 });
  });

  it('fetch goes through the host (json, headers, POST body, redirects)', async () => {
    const o = await pool.run(
      inv(
        mod(`
          const fetch = require('node-fetch');
          const r1 = await fetch(req.args.base + '/json');
          const j = await r1.json();
          const r2 = await fetch(req.args.base + '/echo', { method: 'POST', body: JSON.stringify({ a: 1 }), headers: { 'Content-Type': 'application/json', Authorization: 'Bearer t' } });
          const e = await r2.json();
          const r3 = await globalThis.fetch(req.args.base + '/redirect');
          const r4 = await fetch(req.args.base + '/missing');
          return { raw: { status: r1.status, ok: r1.ok, x: r1.headers.get('X-Test'), j, e, redirected: r3.redirected, url3: r3.url, s4: r4.status, ok4: r4.ok, t4: await r4.text() } };
        `),
        { args: { base } },
      ),
      null,
    );
    expect(raw(o)).toEqual({
      status: 200,
      ok: true,
      x: 'yes',
      j: { hello: 'world' },
      e: { method: 'POST', body: '{"a":1}', ct: 'application/json', auth: 'Bearer t' },
      redirected: true,
      url3: `${base}/json`,
      s4: 404,
      ok4: false,
      t4: 'nope',
    });
  });

  it('caches compiled code by hash', async () => {
    const code = mod(`return { raw: ${Date.now()} };`);
    const before = pool.stats().compiles;
    // concurrency 4 means up to 4 isolates may compile it once each; sequential runs reuse the same slot
    for (let i = 0; i < 5; i++) expect((await pool.run(inv(code), null)).ok).toBe(true);
    expect(pool.stats().compiles - before).toBe(1);
  });

  it('runs invocations concurrently', async () => {
    const code = mod('await new Promise((r) => setTimeout(r, 200)); return { raw: req.args.i };');
    const t = Date.now();
    const outs = await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map((i) => pool.run(inv(code, { args: { i } }), null)));
    expect(outs.map(raw)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(Date.now() - t).toBeLessThan(1500); // 2 rounds of 4 on one worker
  });

  it('keeps warm invocation overhead to a few milliseconds', async () => {
    // SANDBOX_BENCH_N=1000 prints the distribution (the report's figures)
    const n = Number(process.env['SANDBOX_BENCH_N'] ?? 300);
    const code = mod('return { raw: req.args.i };');
    for (let i = 0; i < 20; i++) await pool.run(inv(code, { args: { i } }), null);
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = process.hrtime.bigint();
      const o = await pool.run(inv(code, { args: { i } }), null);
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
      expect(o.ok).toBe(true);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
    if (process.env['SANDBOX_BENCH_N']) {
      process.stdout.write(`sandbox warm invocation (n=${n}): p50 ${at(0.5).toFixed(2)} ms, p90 ${at(0.9).toFixed(2)} ms, p99 ${at(0.99).toFixed(2)} ms\n`);
    }
    expect(at(0.5)).toBeLessThan(10);
  });
});
