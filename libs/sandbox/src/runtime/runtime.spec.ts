/**
 * The in-isolate runtime as the worker runs it: the bundle (src/generated, built by `sandbox:bundle-runtime`) in a
 * bare isolated-vm context, with the worker's stateless host operations behind `hostSync`. The pool-level suites
 * (sandbox, hostile, isolation) cover timers, outbound calls, limits and deadlines.
 */
import ivm from 'isolated-vm';
import { ISOLATE_RUNTIME } from '../generated/isolate-runtime';
import { HASHES, statelessHostOp } from '../host-ops';

let isolate: ivm.Isolate;
let runtime: ivm.Script;

beforeAll(async () => {
  isolate = new ivm.Isolate({ memoryLimit: 64 });
  runtime = await isolate.compileScript(ISOLATE_RUNTIME, { filename: 'coffer:runtime.js' });
});
afterAll(() => isolate.dispose());

interface Ran {
  answer: string;
  logs: string[];
}

/** Runs `body` as the formula's async function body in a fresh context; `capture` keeps console output. */
async function run(body: string, opts: { capture?: boolean; args?: unknown } = {}): Promise<Ran> {
  const ctx = await isolate.createContext();
  try {
    const entry = (await runtime.run(ctx, { reference: true, timeout: 2000 })) as ivm.Reference<(...a: unknown[]) => unknown>;
    const code = `module.exports = async function (req) {\n${body}\n};`;
    const script = await isolate.compileScript('(function (exports, require, module, __filename, __dirname) { ' + code + '\n})');
    const fn = (await script.run(ctx, { reference: true, timeout: 2000 })) as ivm.Reference<unknown>;
    const logs: string[] = [];
    const sync = new ivm.Callback((op: unknown, a: unknown, b: unknown, c: unknown) => {
      try {
        return statelessHostOp(op, a, b, c) ?? [false, 'Unknown operation'];
      } catch {
        return [false, 'Invalid URL'];
      }
    });
    const log = new ivm.Callback((level: string, line: string) => void logs.push(`[${level}] ${line}`), { ignored: true });
    const runtimeOpts = JSON.stringify({
      capture: Boolean(opts.capture),
      svc: false,
      maxLogLines: 200,
      maxLogBytes: 65536,
      maxResultChars: 1048576,
      hashes: HASHES,
    });
    const answer = (await entry.apply(
      undefined,
      ['invoke', fn.derefInto(), JSON.stringify({ args: opts.args ?? {}, configuration: {} }), sync, log, runtimeOpts],
      {
        timeout: 2000,
        result: { promise: true, copy: true },
      },
    )) as string;
    return { answer, logs };
  } finally {
    ctx.release();
  }
}

async function raw(body: string, opts?: { capture?: boolean; args?: unknown }): Promise<unknown> {
  const { answer } = await run(body, opts);
  if (answer[0] !== 'R') throw new Error(`formula failed: ${answer}`);
  return (JSON.parse(answer.slice(1)) as { raw: unknown }).raw;
}

describe('the in-isolate runtime (bundle in a bare context)', () => {
  it('leaves no Node or bundler objects on the global object', async () => {
    expect(
      await raw(`return { raw: {
        process: typeof process, requireFs: (() => { try { require('fs'); return 'loaded'; } catch (e) { return e.code; } })(),
        internals: Object.getOwnPropertyNames(globalThis).filter((k) => /vendor|runtime|coffer|shim|__/i.test(k)),
        engineWork: [typeof WebAssembly, typeof SharedArrayBuffer, typeof Atomics],
      } };`),
    ).toEqual({ process: 'undefined', requireFs: 'MODULE_NOT_FOUND', internals: [], engineWork: ['undefined', 'undefined', 'undefined'] });
  });

  it('loading the libraries (util, buffer, querystring) defines no global', async () => {
    expect(
      await raw(`const before = Object.getOwnPropertyNames(globalThis).sort().join();
        require('util').inspect({}); require('querystring').parse('a=1'); Buffer.from('x'); require('util').deprecate(() => 1, 'x')();
        return { raw: { same: Object.getOwnPropertyNames(globalThis).sort().join() === before, process: typeof process } };`),
    ).toEqual({ same: true, process: 'undefined' });
  });

  it('Buffer: encodings (base64url included), numbers, shared slices', async () => {
    expect(
      await raw(`const b = Buffer.from([0xfb, 0xff, 0xbf, 0x41]);
        const s = b.slice(1, 3); s[0] = 0;
        const n = Buffer.alloc(8); n.writeUInt32BE(0xdeadbeef, 0); n.writeInt16LE(-2, 4);
        return { raw: {
          b64: b.toString('base64'), b64url: b.toString('base64url'), fromUrl: Buffer.from('-_-_', 'base64url').toString('hex'),
          isEncoding: [Buffer.isEncoding('base64url'), Buffer.isEncoding('nope')], len: Buffer.byteLength('-_-_', 'base64url'),
          shared: b[1], hex: n.toString('hex'), be: n.readUInt32BE(0), le: n.readInt16LE(4), big: String(Buffer.alloc(8, 1).readBigUInt64BE(0)),
          latin1: Buffer.from('é', 'latin1').toString('hex'), utf16: Buffer.from('hi', 'utf16le').toString('hex'),
          isBuffer: [Buffer.isBuffer(b), Buffer.isBuffer(new Uint8Array(1))], cmp: Buffer.compare(Buffer.from('a'), Buffer.from('b')),
          unknown: (() => { try { Buffer.from('x', 'klingon'); return 'ok'; } catch (e) { return e.name; } })(),
        } };`),
    ).toEqual({
      b64: '+wC/QQ==', // after the shared slice wrote 0 into b[1]
      b64url: '-wC_QQ',
      fromUrl: 'fbffbf',
      isEncoding: [true, false],
      len: 3,
      shared: 0,
      hex: 'deadbeeffeff0000',
      be: 0xdeadbeef,
      le: -2,
      big: '72340172838076673',
      latin1: 'e9',
      utf16: '68006900',
      isBuffer: [true, false],
      cmp: -1,
      unknown: 'TypeError',
    });
  });

  it('TextEncoder / TextDecoder / atob / btoa', async () => {
    expect(
      await raw(`const td = new TextDecoder('utf-8', { fatal: true });
        return { raw: {
          enc: Array.from(new TextEncoder().encode('€')), dec: new TextDecoder().decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0xff])),
          fatal: (() => { try { td.decode(new Uint8Array([0xc3])); return 'ok'; } catch (e) { return e.name; } })(),
          latin1: new TextDecoder('latin1').decode(new Uint8Array([0xe9])), into: new TextEncoder().encodeInto('a€', new Uint8Array(3)),
          atob: atob(' aGk= '), btoa: btoa('hi'), badAtob: (() => { try { atob('*'); } catch (e) { return e.name; } })(),
          badBtoa: (() => { try { btoa('€'); } catch (e) { return e.name; } })(),
        } };`),
    ).toEqual({
      enc: [0xe2, 0x82, 0xac],
      dec: 'a\ufffd',
      fatal: 'TypeError',
      latin1: 'é',
      into: { read: 1, written: 1 },
      atob: 'hi',
      btoa: 'aGk=',
      badAtob: 'InvalidCharacterError',
      badBtoa: 'InvalidCharacterError',
    });
  });

  it('util.inspect and format never call the value back; console output is captured as lines', async () => {
    const { answer, logs } = await run(
      `const seen = [];
       const evil = { inspect() { seen.push('inspect'); return 'x'; }, [Symbol.for('nodejs.util.inspect.custom')]() { seen.push('custom'); return 'x'; } };
       Object.defineProperty(evil, 'g', { get() { seen.push('getter'); return 1; }, enumerable: true });
       const util = require('util');
       console.log('%s=%d %i %j %% %o', 'a', 1.5, 2.7, { j: 1 }, [1]);
       console.log(evil); util.inspect(evil); util.format('%O', evil);
       console.warn(Buffer.from('hi'), { a: { b: { c: { d: 1 } } } });
       return { raw: seen };`,
      { capture: true },
    );
    expect(answer).toBe('R{"raw":[]}');
    expect(logs[0]).toBe('[log] a=1.5 2 {"j":1} % [ 1, [length]: 1 ]');
    expect(logs[1]).toContain('g: [Getter]');
    expect(logs[2]).toBe('[warn] <Buffer 68 69> { a: { b: { c: [Object] } } }');
  });

  it('an invocation that does not capture its console formats nothing', async () => {
    const { answer, logs } = await run(`let n = 0; console.log({ get x() { n++; return 1; } }, '%s', { toString() { n++; return ''; } }); return { raw: n };`);
    expect(answer).toBe('R{"raw":0}');
    expect(logs).toEqual([]);
  });

  // querystring-es3 drops a `__proto__` key where Node keeps it as an own key: either way nothing is polluted
  it('querystring parses into an object without a prototype', async () => {
    expect(
      await raw(`const qs = require('node:querystring');
        const p = qs.parse('a=1&a=2&__proto__=x&b=%E2%82%AC+c');
        return { raw: { proto: Object.getPrototypeOf(p) === null, a: p.a, polluted: ({}).x, own: Object.keys(p), b: p.b,
          s: qs.stringify({ x: [1, 2], y: 'a b&' }), esc: qs.escape('a b') } };`),
    ).toEqual({ proto: true, a: ['1', '2'], polluted: undefined, own: ['a', 'b'], b: '€ c', s: 'x=1&x=2&y=a%20b%26', esc: 'a%20b' });
  });

  it('URL is parsed by the host and URLSearchParams writes back', async () => {
    expect(
      await raw(`const u = new URL('/p?q=1', 'https://example.com:444');
        u.searchParams.set('r', 'a b'); u.hash = 'h';
        return { raw: { href: u.href, origin: u.origin, canParse: [URL.canParse('x'), URL.canParse('http://a')],
          bad: (() => { try { new URL('nope'); } catch (e) { return e.code; } })(), name: URL.name } };`),
    ).toEqual({
      href: 'https://example.com:444/p?q=1&r=a+b#h',
      origin: 'https://example.com:444',
      canParse: [false, true],
      bad: 'ERR_INVALID_URL',
      name: 'URL',
    });
  });

  it('crypto digests through the host; reactor errors serialize to their class', async () => {
    expect(await raw(`return { raw: require('crypto').createHmac('sha256', 'k').update('d').digest('base64url') };`)).toBe(
      require('node:crypto').createHmac('sha256', 'k').update('d').digest('base64url'),
    );
    const { answer } = await run(`const { BadRequestError } = require('@coffer/reactor-runtime'); throw new BadRequestError({ card: 'bad' });`);
    expect(answer).toBe('E{"kind":"class","name":"BadRequestError","errors":{"card":["bad"]}}');
  });

  it("the runtime module's check digits are the vault's (libs/checksums), under both of its names", async () => {
    expect(
      await raw(`const rt = require('@coffer/reactor-runtime');
        const bt = require('@basis-theory/basis-theory-reactor-formulas-sdk-js');
        return { raw: { same: rt.luhnValid === bt.luhnValid,
          luhn: ['4242424242424242', '4242424242424241', '', '42424242424242a2', 4242424242424242, null].map((x) => rt.luhnValid(x)),
          aba: ['011000015', '011000016', '01100001', 11000015].map((x) => rt.abaRoutingValid(x)) } };`),
    ).toEqual({ same: true, luhn: [true, false, false, false, false, false], aba: [true, false, false, false] });
  });

  it('Headers, Request and Response behave like node-fetch 2', async () => {
    expect(
      await raw(`const { Headers, Response, Request } = require('node-fetch');
        const h = new Headers({ 'X-A': '1' }); h.append('x-a', '2');
        const r = new Response(JSON.stringify({ ok: 1 }), { status: 201, headers: h });
        const q = new Request('https://example.com/x', { method: 'post', body: 'hi' });
        return { raw: { a: h.get('X-A'), status: r.status, ok: r.ok, body: await r.json(), used: r.bodyUsed, method: q.method,
          type: q.headers.get('content-type'), names: [Headers.name, Response.name, Request.name, AbortSignal.name, require('crypto').createHash('md5').constructor.name] } };`),
    ).toEqual({
      a: '1, 2',
      status: 201,
      ok: true,
      body: { ok: 1 },
      used: true,
      method: 'POST',
      type: 'text/plain;charset=UTF-8',
      names: ['Headers', 'Response', 'Request', 'AbortSignal', 'Hash'],
    });
  });
});
