/**
 * Hostile formula code trying to reach the host: Node's modules and globals, the Function constructor, prototypes,
 * stack traces, engine features. Every attack must fail cleanly or be ineffective and leak nothing of the host.
 */
import type { SandboxPoolEvent, SvcBridge } from './index';
import { FAST, expectContained, expectFailed, inv, mod, probe, rawOf, useHostilePool } from './testing/hostile-harness';

jest.setTimeout(30_000);

describe('sandbox - hostile code: escapes', () => {
  const h = useHostilePool();

  // ------------------------------------------------------------------ Node is absent

  it.each(['fs', 'child_process', 'net', 'process', 'os', 'vm', 'worker_threads', 'module', 'http', 'dns', 'node:fs', 'isolated-vm', '../../../etc/passwd'])(
    "require('%s') is not available",
    async (name) => {
      const o = await h.pool.run(inv(probe(`return require(${JSON.stringify(name)});`)), null);
      expect(rawOf(o)).toEqual({ blocked: `Cannot find module '${name}'` });
    },
  );

  it('cannot read files', async () => {
    const o = await h.pool.run(inv(mod(`return { raw: require('fs').readFileSync(${JSON.stringify(h.canaryFile)}, 'utf8') };`)), null);
    expectFailed(o, 500);
  });

  it('cannot spawn processes', async () => {
    const o = await h.pool.run(inv(mod(`return { raw: String(require('child_process').execSync('cat ${h.canaryFile}')) };`)), null);
    expectFailed(o, 500);
  });

  it('has no process global', async () => {
    expectFailed(await h.pool.run(inv(mod('return { raw: process.env };')), null), 500);
    expect(rawOf(await h.pool.run(inv(probe('return typeof process + typeof globalThis.process + typeof global.process;')), null))).toEqual({
      got: 'undefinedundefinedundefined',
    });
  });

  it('this.constructor.constructor("return process")() yields nothing', async () => {
    const code = `const p = this.constructor.constructor('return process')(); module.exports = async () => ({ raw: p.env });`;
    expectFailed(await h.pool.run(inv(code), null), 422);
    expect(rawOf(await h.pool.run(inv(probe(`return this.constructor.constructor('return typeof process')();`)), null))).toEqual({ got: 'undefined' });
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
    const o = await h.pool.run(inv(code, { svc: true }), svc);
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
    const o = await h.pool.run(inv(code, { args, configuration }), null);
    expect(rawOf(o)).toEqual({ local: 'yes' });
    expect(JSON.stringify({ args, configuration })).toBe(snapshot);
    const plain: Record<string, unknown> = {};
    expect(plain['polluted']).toBeUndefined();
    expect(plain['polluted2']).toBeUndefined();
    expect(plain['polluted3']).toBeUndefined();
    const next = await h.pool.run(inv(mod('return { raw: { p: [({}).polluted, ({}).polluted2, ({}).polluted3], j: JSON.parse("{\\"a\\":1}") } };')), null);
    expect(rawOf(next)).toEqual({ p: [null, null, null], j: { a: 1 } });
  });

  it('__proto__ keys in results cannot re-prototype host objects', async () => {
    const o = await h.pool.run(
      inv(
        mod(
          `return { raw: JSON.parse('{"a":1,"__proto__":{"polluted":true},"n":{"__proto__":{"x":1}}}'), tokenize: JSON.parse('{"__proto__":{"isAdmin":true}}') };`,
        ),
      ),
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
    const o = await h.pool.run(
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
    const thrown = await h.pool.run(
      inv(
        mod(
          `throw new Proxy({}, { get(t, k) { if (k === 'constructor') return { constructor: Function }; return () => { throw new Error('trap'); }; }, getPrototypeOf() { return Error.prototype; } });`,
        ),
      ),
      null,
    );
    expectFailed(thrown, 500);
    const returned = await h.pool.run(
      inv(mod(`return new Proxy({ raw: 1 }, { get(t, k) { if (k === 'raw') return new Proxy({}, { ownKeys() { throw new Error('trap'); } }); } });`)),
      null,
    );
    expectFailed(returned, 500);
    const svc: SvcBridge = { call: async (_m, a) => ({ echoed: a }) };
    const passed = await h.pool.run(
      inv(
        mod(
          `const r = await req.svc.tokens.create(new Proxy({ a: 1 }, { get(t, k) { return k === 'toJSON' ? () => ({ sneaky: typeof process }) : t[k]; } })); return { raw: r };`,
        ),
        { svc: true },
      ),
      svc,
    );
    expect(rawOf(passed)).toEqual({ echoed: [{ sneaky: 'undefined' }] });
  });

  it('__lookupGetter__ / __proto__ games stay inside the isolate', async () => {
    const o = await h.pool.run(
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
    const o = await h.pool.run(
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
    const o = await h.pool.run(
      inv(
        `const { CustomHttpResponseError } = require('@coffer/reactor-runtime');\n` +
          mod(
            `const e = new CustomHttpResponseError({ status: 200, body: {} }); Object.defineProperty(e, 'status', { get() { return { valueOf() { return 200; }, toJSON() { return 'x'; } }; } }); throw e;`,
          ),
      ),
      null,
    );
    expectFailed(o, 500);
  });

  // ------------------------------------------------------------------ other engine features

  it('dynamic import() is unavailable', async () => {
    const o = await h.pool.run(inv(mod('try { await import("fs"); return { raw: "imported" }; } catch (e) { return { raw: "blocked" }; }')), null);
    expect(rawOf(o)).toBe('blocked');
  });

  it('eval and new Function run inside the isolate only', async () => {
    const o = await h.pool.run(
      inv(probe('return eval("typeof process") + new Function("return typeof require")() + (0, eval)("typeof globalThis.process");')),
      null,
    );
    expect(rawOf(o)).toEqual({ got: 'undefinedundefinedundefined' });
  });

  it('WebAssembly is not available', async () => {
    const o = await h.pool.run(inv(probe('return typeof WebAssembly;')), null);
    expect(rawOf(o)).toEqual({ got: 'undefined' });
  });

  it('SharedArrayBuffer / Atomics.wait cannot block the worker', async () => {
    const o = await h.pool.run(inv(probe('return typeof SharedArrayBuffer + typeof Atomics;')), null);
    expect(rawOf(o)).toEqual({ got: 'undefinedundefined' });
    const blocked = await h.pool.run(
      inv(mod('const sab = new (Object.getPrototypeOf(new Int32Array(0).buffer).constructor)(16); Atomics.wait(new Int32Array(sab), 0, 0);'), {
        timeoutMs: FAST,
      }),
      null,
    );
    expectFailed(blocked);
  });

  it('no sandbox internals are reachable from the global object', async () => {
    const o = await h.pool.run(inv(mod('return { raw: Object.getOwnPropertyNames(globalThis).filter((k) => !/^[A-Z]/.test(k)).sort() };')), null);
    expect(rawOf(o)).toEqual(
      [
        'atob',
        'btoa',
        'clearImmediate',
        'clearInterval',
        'clearTimeout',
        'console',
        'decodeURI',
        'decodeURIComponent',
        'encodeURI',
        'encodeURIComponent',
        'escape',
        'eval',
        'fetch',
        'global',
        'globalThis',
        'isFinite',
        'isNaN',
        'parseFloat',
        'parseInt',
        'performance',
        'queueMicrotask',
        'setImmediate',
        'setInterval',
        'setTimeout',
        'undefined',
        'unescape',
      ].sort(),
    );
  });

  it('stack traces do not reveal host paths', async () => {
    const o = await h.pool.run(
      inv(mod('const e = new Error("x"); let s2 = ""; try { await fetch("http://10.0.0.1/"); } catch (x) { s2 = x.stack; } return { raw: e.stack + s2 };')),
      null,
    );
    expectContained(o);
  });

  it('sabotaging the runtime (JSON, Promise, Object) only breaks the attacker', async () => {
    const o = await h.pool.run(
      inv(
        mod(
          'JSON.stringify = () => "{\\"raw\\":\\"forged\\"}"; Promise.prototype.then = function () { return this; }; Object.keys = () => { for (;;) {} }; return { raw: 1 };',
        ),
        { timeoutMs: FAST },
      ),
      null,
    );
    expectContained(o);
    if (o.ok) expect(o.result.raw).toBe(1);
  });

  it('a worker killed mid-invocation fails that invocation with 500 and is replaced', async () => {
    const started = h.events.filter((e): e is Extract<SandboxPoolEvent, { type: 'worker-started' }> => e.type === 'worker-started');
    const running = h.pool.run(inv(mod('await new Promise((r) => setTimeout(r, 2000)); return { raw: 1 };')), null);
    await new Promise((r) => setTimeout(r, 100));
    const exitedPids = () => new Set(h.events.filter((e) => e.type === 'worker-exited').map((e) => (e as { pid: number }).pid));
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
