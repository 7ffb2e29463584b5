/**
 * Hostile formula code. Every attack must fail cleanly (a problem outcome) or be ineffective, must not leak anything
 * of the host, and the pool must serve a normal invocation afterwards (checked after every test).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxPool, type SandboxInvocation, type SandboxOutcome, type SandboxPoolEvent, type SvcBridge } from './index';

jest.setTimeout(30_000);

const CANARY = 'canary-' + Math.random().toString(36).slice(2);
const LEAK = new RegExp([CANARY, 'COFFER_SANDBOX', 'memoryLimitMb', '/work/', 'node_modules', 'ts-node'].join('|'));
const mod = (body: string) => `module.exports = async function (req) {\n${body}\n};`;
const FAST = 600; // timeout for the deadline attacks

function inv(code: string, extra: Partial<SandboxInvocation> = {}): SandboxInvocation {
  return { code, args: {}, configuration: {}, svc: false, timeoutMs: 5000, captureConsole: true, tenant: 'attacker', ...extra };
}

function expectContained(o: SandboxOutcome): void {
  expect(JSON.stringify(o)).not.toMatch(LEAK);
}

function expectFailed(o: SandboxOutcome, status?: number): void {
  expectContained(o);
  expect(o.ok).toBe(false);
  if (!o.ok && status !== undefined) expect(o.problem.status).toBe(status);
}

function rawOf(o: SandboxOutcome): unknown {
  expectContained(o);
  if (!o.ok) throw new Error('expected success: ' + JSON.stringify(o));
  return o.result.raw;
}

/** An attack that reports what it obtained: it must obtain nothing of the host. */
const probe = (attempt: string) =>
  mod(`
    try {
      const got = (function () { ${attempt} })();
      return { raw: { got: typeof got === 'undefined' ? 'undefined' : String(got) } };
    } catch (e) {
      return { raw: { blocked: String(e && e.message) } };
    }
  `);

describe('sandbox - hostile code', () => {
  let pool: SandboxPool;
  let server: Server;
  let port = 0;
  let secretHits = 0;
  const events: SandboxPoolEvent[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'sbx-'));
  const canaryFile = join(dir, 'canary.txt');

  beforeAll(async () => {
    writeFileSync(canaryFile, CANARY);
    process.env['SANDBOX_TEST_CANARY'] = CANARY;
    server = createServer((req, res) => {
      if (req.url === '/secret') {
        secretHits++;
        res.end(CANARY);
      } else if (req.url === '/to-loopback') {
        res.statusCode = 302;
        res.setHeader('location', `http://127.0.0.1:${port}/secret`);
        res.end();
      } else if (req.url === '/to-internal-name') {
        res.statusCode = 307;
        res.setHeader('location', `http://internal.example:${port}/secret`);
        res.end();
      } else if (req.url === '/to-nxdomain') {
        res.statusCode = 307;
        res.setHeader('location', `http://nxdomain.example:${port}/secret`);
        res.end();
      } else if (req.url === '/to-metadata') {
        res.statusCode = 301;
        res.setHeader('location', 'http://169.254.169.254/latest/meta-data/');
        res.end();
      } else if (req.url === '/slow') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const t = setInterval(() => res.write('.'), 50);
        res.on('close', () => clearInterval(t));
      } else if (req.url === '/big') {
        res.writeHead(200);
        const chunk = Buffer.alloc(1024 * 1024, 97);
        let n = 0;
        const write = () => {
          while (n < 20) {
            n++;
            if (!res.write(chunk)) return void res.once('drain', write);
          }
          res.end();
        };
        write();
      } else {
        res.end('ok');
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
    pool = new SandboxPool({
      // SANDBOX_WORKER_SCRIPT=dist/apps/reactor-service/sandbox-worker.js runs the suite against the bundled worker
      workerScript: process.env['SANDBOX_WORKER_SCRIPT'],
      size: 2,
      concurrency: 2,
      allowHosts: ['allowed.test'],
      resolver: async (host) => {
        if (host === 'allowed.test') return ['127.0.0.1'];
        if (host === 'internal.example') return ['10.1.2.3'];
        if (host === 'rebind.example') return ['93.184.216.34', '127.0.0.1'];
        if (host === 'mapped.example') return ['::ffff:169.254.169.254'];
        if (host === 'localhost') return ['127.0.0.1', '::1'];
        if (host === 'nxdomain.example') throw Object.assign(new Error('getaddrinfo ENOTFOUND nxdomain.example'), { code: 'ENOTFOUND' });
        if (host === 'nodata.example') return [];
        return ['93.184.216.34'];
      },
      onEvent: (e) => { events.push(e); if (process.env['SBX_DEBUG']) process.stderr.write(Date.now() % 100000 + ' ' + JSON.stringify(e).slice(0, 200) + '\n'); },
    });
    await ready();
  });

  /** Deadlines count from the call: wait until the workers (and replacements of killed ones) are up. */
  async function ready(): Promise<void> {
    const until = Date.now() + 30_000;
    while (pool.stats().ready < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  }

  afterEach(async () => {
    await ready();
    if (process.env['SBX_DEBUG']) process.stderr.write(Date.now() % 100000 + ' stats ' + JSON.stringify(pool.stats()) + '\n');
    // the pool still serves a normal invocation
    const o = await pool.run(inv(mod('return { raw: { fine: req.args.n * 2 } };'), { args: { n: 21 } }), null);
    expect(o.ok ? o.result : o.problem).toEqual({ raw: { fine: 42 } });
  });

  afterAll(async () => {
    await pool.close();
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
    delete process.env['SANDBOX_TEST_CANARY'];
  });

  // ------------------------------------------------------------------ Node is absent

  it.each(['fs', 'child_process', 'net', 'process', 'os', 'vm', 'worker_threads', 'module', 'http', 'dns', 'node:fs', 'isolated-vm', '../../../etc/passwd'])(
    "require('%s') is not available",
    async (name) => {
      const o = await pool.run(inv(probe(`return require(${JSON.stringify(name)});`)), null);
      expect(rawOf(o)).toEqual({ blocked: `Cannot find module '${name}'` });
    },
  );

  it('cannot read files', async () => {
    const o = await pool.run(inv(mod(`return { raw: require('fs').readFileSync(${JSON.stringify(canaryFile)}, 'utf8') };`)), null);
    expectFailed(o, 500);
  });

  it('cannot spawn processes', async () => {
    const o = await pool.run(inv(mod(`return { raw: String(require('child_process').execSync('cat ${canaryFile}')) };`)), null);
    expectFailed(o, 500);
  });

  it('has no process global', async () => {
    expectFailed(await pool.run(inv(mod('return { raw: process.env };')), null), 500);
    expect(rawOf(await pool.run(inv(probe('return typeof process + typeof globalThis.process + typeof global.process;')), null))).toEqual({
      got: 'undefinedundefinedundefined',
    });
  });

  it('this.constructor.constructor("return process")() yields nothing', async () => {
    const code = `const p = this.constructor.constructor('return process')(); module.exports = async () => ({ raw: p.env });`;
    expectFailed(await pool.run(inv(code), null), 422);
    expect(rawOf(await pool.run(inv(probe(`return this.constructor.constructor('return typeof process')();`)), null))).toEqual({ got: 'undefined' });
  });

  it.each([
    ['object literal', `({}).constructor.constructor`],
    ['array', `[].constructor.constructor`],
    ['async function', `(async () => {}).constructor`],
    ['generator', `(function* () {}).constructor`],
    ['async generator', `Object.getPrototypeOf(async function* () {}).constructor`],
    ['args object', `req.args.constructor.constructor`],
    ['Buffer', `Buffer.constructor`],
    ['fetch', `fetch.constructor`],
    ['setTimeout', `setTimeout.constructor`],
    ['console.log', `console.log.constructor`],
    ['require', `require.constructor`],
    ['svc method', `req.svc.tokens.create.constructor`],
    ['crypto', `require('crypto').createHash.constructor`],
  ])('Function constructor via %s only reaches the isolate', async (_name, expr) => {
    const code = mod(`
      const F = ${expr};
      const unwrap = async (r) => (r && typeof r.then === 'function' ? await r : r && typeof r.next === 'function' ? (await r.next()).value : r);
      const g = await unwrap(F('return this')());
      const p = await unwrap(F('return typeof process')());
      return { raw: { process: p, globalProcess: typeof g.process, require: typeof g.require, keys: Object.getOwnPropertyNames(g).filter((k) => /process|require|ivm|cofferBridge|host/i.test(k)) } };
    `);
    const svc: SvcBridge = { call: async () => ({}) };
    const o = await pool.run(inv(code, { svc: true }), svc);
    expect(rawOf(o)).toEqual({ process: 'undefined', globalProcess: 'undefined', require: 'undefined', keys: [] });
  });

  it('prototype pollution of args and configuration does not reach the host or the next invocation', async () => {
    const args = { card: { number: '4242' } };
    const configuration = { KEY: 'v' };
    const snapshot = JSON.stringify({ args, configuration });
    const code = mod(`
      req.args.__proto__.polluted = 'yes';
      Object.prototype.polluted2 = 'yes';
      req.configuration.constructor.prototype.polluted3 = 'yes';
      Array.prototype.push = () => { throw new Error('sabotaged'); };
      JSON.parse = () => ({ polluted4: true });
      return { raw: { local: ({}).polluted } };
    `);
    const o = await pool.run(inv(code, { args, configuration }), null);
    expect(rawOf(o)).toEqual({ local: 'yes' });
    expect(JSON.stringify({ args, configuration })).toBe(snapshot);
    const plain: Record<string, unknown> = {};
    expect(plain['polluted']).toBeUndefined();
    expect(plain['polluted2']).toBeUndefined();
    expect(plain['polluted3']).toBeUndefined();
    const next = await pool.run(inv(mod('return { raw: { p: [({}).polluted, ({}).polluted2, ({}).polluted3], j: JSON.parse("{\\"a\\":1}") } };')), null);
    expect(rawOf(next)).toEqual({ p: [null, null, null], j: { a: 1 } });
  });

  it('__proto__ keys in results cannot re-prototype host objects', async () => {
    const o = await pool.run(
      inv(mod(`return { raw: JSON.parse('{"a":1,"__proto__":{"polluted":true},"n":{"__proto__":{"x":1}}}'), tokenize: JSON.parse('{"__proto__":{"isAdmin":true}}') };`)),
      null,
    );
    expect(o.ok).toBe(true);
    if (!o.ok) return;
    const r = o.result.raw as Record<string, unknown>;
    expect(Object.getPrototypeOf(r)).toBe(Object.prototype);
    expect(r['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf(r['n'])).toBe(Object.prototype);
    expect((o.result.tokenize as Record<string, unknown>)['isAdmin']).toBeUndefined();
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('Error.prepareStackTrace tricks only see isolate frames', async () => {
    const o = await pool.run(
      inv(
        mod(`
          const found = [];
          Error.prepareStackTrace = (err, frames) => frames;
          const frames = (() => new Error('x').stack)();
          for (const f of frames) {
            for (const m of ['getThis', 'getFunction', 'getFileName', 'getEvalOrigin']) {
              try { const v = f[m](); if (v && typeof v === 'object' || typeof v === 'function') { try { found.push(typeof v.constructor.constructor('return typeof process')()); } catch (e) { found.push('err'); } } else if (v) found.push(String(v)); } catch (e) { /* ignore */ }
            }
          }
          // the vm2 CVE-2023-29017 shape: a host-created error passed through prepareStackTrace
          Error.prepareStackTrace = (e, cs) => { const h = cs.map((c) => c.getThis()).filter(Boolean); return h; };
          let viaHost = [];
          try { await fetch('http://127.0.0.1/'); } catch (e) { viaHost = String(e.stack); }
          return { raw: { found, viaHost: String(viaHost) } };
        `),
      ),
      null,
    );
    const r = rawOf(o) as { found: string[] };
    expect(r.found.filter((x) => x === 'object' || x === 'function')).toEqual([]);
  });

  it('Proxy-based escapes (thrown, returned, passed to the host) fail cleanly', async () => {
    const thrown = await pool.run(
      inv(mod(`throw new Proxy({}, { get(t, k) { if (k === 'constructor') return { constructor: Function }; return () => { throw new Error('trap'); }; }, getPrototypeOf() { return Error.prototype; } });`)),
      null,
    );
    expectFailed(thrown, 500);
    const returned = await pool.run(inv(mod(`return new Proxy({ raw: 1 }, { get(t, k) { if (k === 'raw') return new Proxy({}, { ownKeys() { throw new Error('trap'); } }); } });`)), null);
    expectFailed(returned, 500);
    const svc: SvcBridge = { call: async (_m, a) => ({ echoed: a }) };
    const passed = await pool.run(
      inv(mod(`const r = await req.svc.tokens.create(new Proxy({ a: 1 }, { get(t, k) { return k === 'toJSON' ? () => ({ sneaky: typeof process }) : t[k]; } })); return { raw: r };`), { svc: true }),
      svc,
    );
    expect(rawOf(passed)).toEqual({ echoed: [{ sneaky: 'undefined' }] });
  });

  it('__lookupGetter__ / __proto__ games stay inside the isolate', async () => {
    const o = await pool.run(
      inv(
        probe(`
          const getProto = Buffer.from.__lookupGetter__('__proto__');
          const fp = getProto.call(Buffer.from);
          const op = ({}).__lookupGetter__('__proto__').call(fp);
          return op.constructor.constructor('return typeof process')() + ':' + fp.constructor('return typeof require')();
        `),
      ),
      null,
    );
    expect(rawOf(o)).toEqual({ got: 'undefined:undefined' });
  });

  it("Symbol.for('nodejs.util.inspect.custom') is never called with host objects", async () => {
    const o = await pool.run(
      inv(
        mod(`
          const seen = [];
          const evil = { [Symbol.for('nodejs.util.inspect.custom')]: (depth, opts, inspect) => { seen.push(typeof opts, typeof inspect); try { seen.push(typeof opts.stylize.constructor('return process')()); } catch (e) {} return 'x'; } };
          console.log(evil); console.log('%o', evil); require('util').inspect(evil);
          try { throw evil; } catch (e) {}
          return { raw: { seen } };
        `),
      ),
      null,
    );
    expect(rawOf(o)).toEqual({ seen: [] });
  });

  it('Symbol.toPrimitive / toJSON getters on thrown runtime errors cannot break the host', async () => {
    const o = await pool.run(
      inv(
        `const { CustomHttpResponseError } = require('@coffer/reactor-runtime');\n` +
          mod(`const e = new CustomHttpResponseError({ status: 200, body: {} }); Object.defineProperty(e, 'status', { get() { return { valueOf() { return 200; }, toJSON() { return 'x'; } }; } }); throw e;`),
      ),
      null,
    );
    expectFailed(o, 500);
  });

  // ------------------------------------------------------------------ deadlines

  it('a synchronous infinite loop ends at the deadline with 504', async () => {
    const t = Date.now();
    const o = await pool.run(inv(mod('while (true) {}'), { timeoutMs: FAST }), null);
    expectFailed(o, 504);
    expect(!o.ok && o.problem.title).toBe('Reactor timed out');
    expect(Date.now() - t).toBeLessThan(FAST + 400);
  });

  it('an infinite loop at module load ends with 504', async () => {
    const o = await pool.run(inv('for (;;) {}', { timeoutMs: FAST }), null);
    expectFailed(o, 504);
  });

  it('an asynchronous infinite loop (after an await) ends at the deadline with 504', async () => {
    const t = Date.now();
    const o = await pool.run(inv(mod('await Promise.resolve(); await new Promise((r) => setTimeout(r, 1)); for (;;) {}'), { timeoutMs: FAST }), null);
    expectFailed(o, 504);
    expect(Date.now() - t).toBeLessThan(FAST + 400);
  });

  it('an infinite microtask chain ends at the deadline with 504', async () => {
    const o = await pool.run(inv(mod('const spin = () => Promise.resolve().then(spin); spin(); await new Promise(() => {});'), { timeoutMs: FAST }), null);
    expectFailed(o, 504);
  });

  it('a never-resolving promise ends at the deadline with 504', async () => {
    const t = Date.now();
    const o = await pool.run(inv(mod('await new Promise(() => {});'), { timeoutMs: FAST }), null);
    expectFailed(o, 504);
    expect(Date.now() - t).toBeGreaterThanOrEqual(FAST - 5);
    expect(Date.now() - t).toBeLessThan(FAST + 400);
  });

  it('a busy loop inside a timer callback ends at the deadline with 504', async () => {
    const o = await pool.run(inv(mod('setTimeout(() => { for (;;) {} }, 1); await new Promise(() => {});'), { timeoutMs: FAST }), null);
    expectFailed(o, 504);
  });

  it('a setImmediate storm ends at the deadline with 504', async () => {
    const o = await pool.run(inv(mod('const f = () => setImmediate(f); f(); await new Promise(() => {});'), { timeoutMs: FAST }), null);
    expectFailed(o, 504);
  });

  it('an uncaught exception in a timer fails the invocation', async () => {
    const o = await pool.run(inv(mod('setTimeout(() => { throw new Error("late"); }, 1); await new Promise(() => {});')), null);
    expectFailed(o, 500);
  });

  it('thousands of timers are refused beyond the limit', async () => {
    const o = await pool.run(
      inv(mod('let n = 0; try { for (let i = 0; i < 5000; i++) { setTimeout(() => {}, 60000); n++; } } catch (e) { return { raw: { n, err: e.message } }; } return { raw: { n } };')),
      null,
    );
    expect(rawOf(o)).toEqual({ n: 100, err: 'Too many pending timers (the sandbox allows 100)' });
  });

  // ------------------------------------------------------------------ memory and size

  it('a memory bomb (array growth) fails with 500 and the worker is replaced', async () => {
    const before = events.filter((e) => e.type === 'worker-retiring').length;
    const o = await pool.run(inv(mod('const a = []; for (;;) a.push({ x: Math.random(), s: "y".repeat(64) + Math.random() });'), { timeoutMs: 10_000 }), null);
    expectFailed(o, 500);
    expect(!o.ok && o.problem.errors).toEqual({ error: ['Reactor exceeded its memory limit'] });
    expect(events.filter((e) => e.type === 'worker-retiring').length).toBe(before + 1);
  });

  it('a memory bomb does not disturb an invocation running beside it', async () => {
    const slow = pool.run(inv(mod('await new Promise((r) => setTimeout(r, 300)); return { raw: "survived" };')), null);
    const bomb = pool.run(inv(mod('const a = []; for (;;) a.push(new Array(1000).fill(Math.random()));'), { timeoutMs: 10_000 }), null);
    expectFailed(await bomb, 500);
    expect(rawOf(await slow)).toBe('survived');
  });

  it('huge allocations fail cleanly', async () => {
    expectFailed(await pool.run(inv(mod('return { raw: "x".repeat(2 ** 30) };')), null), 500);
    expectFailed(await pool.run(inv(mod('let s = "x"; for (;;) s += s;')), null), 500);
    expectFailed(await pool.run(inv(mod('return { raw: Buffer.alloc(2 ** 31 - 1).length };')), null), 500);
  });

  it('a result over the limit is refused', async () => {
    const o = await pool.run(inv(mod('return { raw: "x".repeat(2 * 1024 * 1024) };')), null);
    expectFailed(o, 500);
    expect(!o.ok && o.problem.errors?.['error'][0]).toMatch(/exceeds 1048576 bytes/);
    const multi = await pool.run(inv(mod('return { raw: "é".repeat(600 * 1024) };')), null); // 1.2 MB of UTF-8
    expectFailed(multi, 500);
  });

  it('deep recursion fails cleanly', async () => {
    expectFailed(await pool.run(inv(mod('const f = (n) => f(n + 1) + 1; return { raw: f(0) };')), null), 500);
    expectFailed(await pool.run(inv(mod('let o = {}; for (let i = 0; i < 1e6; i++) o = { o }; return { raw: o };')), null), 500);
  });

  it('log floods are capped', async () => {
    const o = await pool.run(inv(mod('for (let i = 0; i < 100000; i++) console.log("x".repeat(1000)); return { raw: 1 };')), null);
    expect(rawOf(o)).toBe(1);
    expect(o.logs?.length).toBeLessThanOrEqual(201);
    expect(JSON.stringify(o.logs).length).toBeLessThan(100_000);
  });

  // ------------------------------------------------------------------ egress

  it.each([
    ['127.0.0.1', 'http://127.0.0.1:PORT/secret'],
    ['localhost', 'http://localhost:PORT/secret'],
    ['[::1]', 'http://[::1]:PORT/secret'],
    ['metadata 169.254.169.254', 'http://169.254.169.254/latest/meta-data/'],
    ['10.0.0.1', 'http://10.0.0.1/'],
    ['192.168.1.1', 'http://192.168.1.1/'],
    ['172.16.5.4', 'http://172.16.5.4/'],
    ['0.0.0.0', 'http://0.0.0.0:PORT/secret'],
    ['CGNAT 100.64.0.1', 'http://100.64.0.1/'],
    ['decimal 127.0.0.1', 'http://2130706433:PORT/secret'],
    ['short 127.1', 'http://127.1:PORT/secret'],
    ['IPv4-mapped IPv6', 'http://[::ffff:127.0.0.1]:PORT/secret'],
    ['fc00::/7', 'http://[fd00::1]/'],
    ['fe80::/10', 'http://[fe80::1]/'],
    ['DNS name resolving to 10.1.2.3', 'http://internal.example:PORT/secret'],
    ['DNS name resolving to a public and a loopback address', 'http://rebind.example:PORT/secret'],
    ['DNS name resolving to mapped metadata', 'http://mapped.example/'],
    ['file: scheme', 'file:///etc/passwd'],
    ['data: scheme', 'data:text/plain,hi'],
    ['credentials in URL', 'http://user:pw@example.com/'],
  ])('fetch to %s is refused', async (_name, url) => {
    const target = url.replace('PORT', String(port));
    const o = await pool.run(
      inv(mod(`try { const r = await fetch(${JSON.stringify(target)}); return { raw: { status: r.status, body: await r.text() } }; } catch (e) { return { raw: { name: e.name, type: e.type, message: e.message } }; }`)),
      null,
    );
    const r = rawOf(o) as { name?: string; message?: string };
    expect(r.name).toBe('FetchError');
    expect(r.message).toMatch(/refused|not allowed|Only http/);
    expect(secretHits).toBe(0);
  });

  // F9 (issue 11): the error must not be an oracle for internal host names
  it('fetch fails alike for a host that does not resolve and for a refused one (name, message, type, code, fields)', async () => {
    const shapeOf = async (target: string, host: string) => {
      const o = await pool.run(
        inv(
          mod(`
            const nodeFetch = require('node-fetch');
            try { await nodeFetch(${JSON.stringify(target)}); return { raw: 'reached' }; } catch (e) {
              return { raw: { name: e.name, message: e.message.split(${JSON.stringify(host)}).join('<host>'), type: e.type, code: e.code,
                errno: e.errno, keys: Object.keys(e).sort(), own: Object.getOwnPropertyNames(e).sort(), isFetchError: e instanceof nodeFetch.FetchError,
                stack: e.stack.split(${JSON.stringify(host)}).join('<host>').split('\\n')[0] } };
            }
          `),
        ),
        null,
      );
      return rawOf(o);
    };
    const shapes = [
      await shapeOf(`http://nxdomain.example:${port}/secret`, 'nxdomain.example'), // does not resolve
      await shapeOf(`http://nodata.example:${port}/secret`, 'nodata.example'), // resolves to nothing
      await shapeOf(`http://internal.example:${port}/secret`, 'internal.example'), // resolves to 10.1.2.3
      await shapeOf(`http://mapped.example:${port}/secret`, 'mapped.example'), // resolves to mapped metadata
      await shapeOf(`http://localhost:${port}/secret`, 'localhost'), // loopback
      await shapeOf(`http://169.254.169.254:${port}/secret`, '169.254.169.254'), // metadata literal
      await shapeOf(`http://10.0.0.1:${port}/secret`, '10.0.0.1'), // private literal
    ];
    for (const shape of shapes) expect(shape).toEqual(shapes[0]);
    expect(shapes[0]).toMatchObject({
      name: 'FetchError',
      type: 'system',
      code: 'EGRESS_DENIED',
      errno: 'EGRESS_DENIED',
      isFetchError: true,
      message: `request to http://<host>:${port}/secret refused: Requests to <host> are not allowed (not found, or not a public address)`,
    });
    // and through a redirect from an allowed host
    const hop = async (path: string, host: string) => shapeOf(`http://allowed.test:${port}${path}`, host);
    expect(await hop('/to-nxdomain', 'nxdomain.example')).toEqual(await hop('/to-internal-name', 'internal.example'));
    expect(secretHits).toBe(0);
  });

  it('redirects to private addresses are refused (each hop is checked)', async () => {
    for (const path of ['/to-loopback', '/to-internal-name', '/to-metadata']) {
      const o = await pool.run(
        inv(mod(`try { const r = await fetch('http://allowed.test:${port}${path}'); return { raw: { status: r.status, body: await r.text() } }; } catch (e) { return { raw: { name: e.name, message: e.message } }; }`)),
        null,
      );
      const r = rawOf(o) as { name?: string; message?: string };
      expect(r.name).toBe('FetchError');
      expect(r.message).toMatch(/refused/);
    }
    // the allowed host itself is reachable, so the refusals above are about the redirect targets
    const ok = await pool.run(inv(mod(`const r = await fetch('http://allowed.test:${port}/'); return { raw: await r.text() };`)), null);
    expect(rawOf(ok)).toBe('ok');
    expect(secretHits).toBe(0);
  });

  it('a slow-loris response cannot outlive the deadline', async () => {
    const t = Date.now();
    const o = await pool.run(inv(mod(`const r = await fetch('http://allowed.test:${port}/slow'); return { raw: await r.text() };`), { timeoutMs: 1000 }), null);
    expectFailed(o);
    expect(Date.now() - t).toBeLessThan(1500);
  });

  it('oversized responses are refused', async () => {
    const o = await pool.run(
      inv(mod(`try { const r = await fetch('http://allowed.test:${port}/big'); return { raw: (await r.text()).length }; } catch (e) { return { raw: e.message }; }`), { timeoutMs: 10_000 }),
      null,
    );
    expect(rawOf(o)).toMatch(/over limit/);
  });

  it('fetch floods are bounded', async () => {
    const o = await pool.run(
      inv(mod(`const rs = await Promise.allSettled(Array.from({ length: 300 }, () => fetch('http://allowed.test:${port}/'))); return { raw: { ok: rs.filter((r) => r.status === 'fulfilled').length, refused: rs.filter((r) => r.status === 'rejected').length } };`), { timeoutMs: 10_000 }),
      null,
    );
    expect(rawOf(o)).toEqual({ ok: 100, refused: 200 });
  });

  // ------------------------------------------------------------------ svc abuse

  it('svc call floods and loops are bounded', async () => {
    let calls = 0;
    let inflight = 0;
    let maxInflight = 0;
    const svc: SvcBridge = {
      call: async () => {
        calls++;
        inflight++;
        maxInflight = Math.max(maxInflight, inflight);
        await new Promise((r) => setTimeout(r, 1));
        inflight--;
        return { ok: true };
      },
    };
    const o = await pool.run(
      inv(mod(`let n = 0; try { for (;;) { await req.svc.tokens.retrieve('x'); n++; } } catch (e) { return { raw: { n, message: e.message } }; }`), { svc: true, timeoutMs: 20_000 }),
      svc,
    );
    expect(rawOf(o)).toEqual({ n: 1000, message: 'Too many svc calls in one invocation (the sandbox allows 1000)' });
    expect(calls).toBe(1000);
    calls = 0;
    const flood = await pool.run(
      inv(mod(`const rs = await Promise.allSettled(Array.from({ length: 5000 }, () => req.svc.tokenize({ a: 1 }))); return { raw: rs.filter((r) => r.status === 'fulfilled').length };`), { svc: true, timeoutMs: 20_000 }),
      svc,
    );
    expect(rawOf(flood)).toBe(1000);
    expect(calls).toBe(1000);
    expect(maxInflight).toBeLessThanOrEqual(16);
  });

  it('a re-entrant bridge (svc calls that invoke reactors again) is bounded by the deadline it is given', async () => {
    let depth = 0;
    const svc: SvcBridge = {
      call: async (_m, _a, ctx) => {
        depth++;
        const left = (ctx?.deadline ?? 0) - Date.now();
        if (left <= 0) throw { status: 504, body: { status: 504, title: 'Gateway Timeout' } };
        const nested = await pool.run(inv(mod('return { raw: await req.svc.tokens.retrieve("again") };'), { svc: true, timeoutMs: left }), svc);
        return nested.ok ? nested.result.raw : { failed: nested.problem.status };
      },
    };
    const t = Date.now();
    const o = await pool.run(inv(mod('return { raw: await req.svc.tokens.retrieve("x") };'), { svc: true, timeoutMs: 800 }), svc);
    expectFailed(o, 504);
    expect(Date.now() - t).toBeLessThan(1100);
    expect(depth).toBeGreaterThan(1);
    // nothing outlives the outer deadline
    await new Promise((r) => setTimeout(r, 300));
    expect(pool.stats()).toMatchObject({ busy: 0, queued: 0 });
  });

  it('svc is unreachable when the reactor has no application, even if the bridge exists', async () => {
    const svc: SvcBridge = { call: async () => ({ leaked: CANARY }) };
    const o = await pool.run(inv(probe('return req.svc === null && typeof svc === "undefined";')), svc);
    expect(rawOf(o)).toEqual({ got: 'true' });
  });

  // ------------------------------------------------------------------ other engine features

  it('dynamic import() is unavailable', async () => {
    const o = await pool.run(inv(mod('try { await import("fs"); return { raw: "imported" }; } catch (e) { return { raw: "blocked" }; }')), null);
    expect(rawOf(o)).toBe('blocked');
  });

  it('eval and new Function run inside the isolate only', async () => {
    const o = await pool.run(inv(probe('return eval("typeof process") + new Function("return typeof require")() + (0, eval)("typeof globalThis.process");')), null);
    expect(rawOf(o)).toEqual({ got: 'undefinedundefinedundefined' });
  });

  it('WebAssembly is not available', async () => {
    const o = await pool.run(inv(probe('return typeof WebAssembly;')), null);
    expect(rawOf(o)).toEqual({ got: 'undefined' });
  });

  it('SharedArrayBuffer / Atomics.wait cannot block the worker', async () => {
    const o = await pool.run(inv(probe('return typeof SharedArrayBuffer + typeof Atomics;')), null);
    expect(rawOf(o)).toEqual({ got: 'undefinedundefined' });
    const blocked = await pool.run(
      inv(mod('const sab = new (Object.getPrototypeOf(new Int32Array(0).buffer).constructor)(16); Atomics.wait(new Int32Array(sab), 0, 0);'), { timeoutMs: FAST }),
      null,
    );
    expectFailed(blocked);
  });

  it('no sandbox internals are reachable from the global object', async () => {
    const o = await pool.run(inv(mod('return { raw: Object.getOwnPropertyNames(globalThis).filter((k) => !/^[A-Z]/.test(k)).sort() };')), null);
    expect(rawOf(o)).toEqual(
      [
        'atob', 'btoa', 'clearImmediate', 'clearInterval', 'clearTimeout', 'console', 'decodeURI', 'decodeURIComponent', 'encodeURI',
        'encodeURIComponent', 'escape', 'eval', 'fetch', 'global', 'globalThis', 'isFinite', 'isNaN', 'parseFloat', 'parseInt',
        'performance', 'queueMicrotask', 'setImmediate', 'setInterval', 'setTimeout', 'undefined', 'unescape',
      ].sort(),
    );
  });

  it('stack traces do not reveal host paths', async () => {
    const o = await pool.run(inv(mod('const e = new Error("x"); let s2 = ""; try { await fetch("http://10.0.0.1/"); } catch (x) { s2 = x.stack; } return { raw: e.stack + s2 };')), null);
    expectContained(o);
  });

  it('sabotaging the runtime (JSON, Promise, Object) only breaks the attacker', async () => {
    const o = await pool.run(
      inv(mod('JSON.stringify = () => "{\\"raw\\":\\"forged\\"}"; Promise.prototype.then = function () { return this; }; Object.keys = () => { for (;;) {} }; return { raw: 1 };'), { timeoutMs: FAST }),
      null,
    );
    expectContained(o);
    if (o.ok) expect(o.result.raw).toBe(1);
  });

  it('a worker killed mid-invocation fails that invocation with 500 and is replaced', async () => {
    const started = events.filter((e): e is Extract<SandboxPoolEvent, { type: 'worker-started' }> => e.type === 'worker-started');
    const running = pool.run(inv(mod('await new Promise((r) => setTimeout(r, 2000)); return { raw: 1 };')), null);
    await new Promise((r) => setTimeout(r, 100));
    const exitedPids = () => new Set(events.filter((e) => e.type === 'worker-exited').map((e) => (e as { pid: number }).pid));
    const exited = exitedPids();
    const killed: number[] = [];
    for (const s of started) {
      if (!exited.has(s.pid)) {
        try {
          process.kill(s.pid, 'SIGKILL');
          killed.push(s.pid);
        } catch {
          /* already gone */
        }
      }
    }
    const o = await running;
    expectFailed(o, 500);
    expect(!o.ok && o.problem.errors).toEqual({ error: ['The reactor sandbox stopped unexpectedly'] });
    // (an invocation sent to a worker in the instant between its death and the pool noticing fails the same way)
    while (!killed.every((pid) => exitedPids().has(pid))) await new Promise((r) => setTimeout(r, 10));
  });
});
