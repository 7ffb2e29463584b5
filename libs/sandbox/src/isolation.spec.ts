/**
 * Security invariant 4 (issue 11, F4): tenant code is isolated. Nothing an invocation leaves behind - timers,
 * promises, FinalizationRegistry/WeakRef callbacks, globals, memory - runs in, is seen by, or slows another
 * invocation, another tenant's above all.
 *
 * Each case: "tenant A" runs a hostile formula on every sandbox slot (more invocations than slots), then "tenant B"
 * runs a normal formula on every slot; each of B's invocations must answer correctly and quickly (a normal
 * invocation takes milliseconds; a poisoned slot hangs until B's deadline). Every test gets a fresh pool.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SandboxPool, type SandboxInvocation, type SandboxOutcome, type SandboxPoolEvent } from './index';

jest.setTimeout(60_000);

const SIZE = 2;
const CONCURRENCY = 2;
const SLOTS = SIZE * CONCURRENCY;
const A = 'tenant-a';
const B = 'tenant-b';
/** B's invocations must answer within this (they take a few ms; a poisoned slot hangs until B's 5 s deadline). */
const QUICK_MS = 1500;

const mod = (body: string) => `module.exports = async function (req) {\n${body}\n};`;

function inv(code: string, tenant: string | undefined, extra: Partial<SandboxInvocation> = {}): SandboxInvocation {
  return { code, args: {}, configuration: {}, svc: false, timeoutMs: 5000, captureConsole: false, tenant, ...extra };
}

const VICTIM = mod(`
  return { raw: {
    double: req.args.n * 2,
    leftover: typeof globalThis.leftover,
    polluted: typeof ({}).polluted,
    json: JSON.stringify({ a: [1] }),
    push: (() => { const a = []; a.push(1); return a.length; })(),
  } };
`);

describe('sandbox - isolation between invocations and tenants', () => {
  let pool: SandboxPool;
  let events: SandboxPoolEvent[] = [];

  beforeEach(async () => {
    events = [];
    pool = new SandboxPool({
      // SANDBOX_WORKER_SCRIPT=dist/apps/reactor-service/sandbox-worker.js runs the suite against the bundled worker
      workerScript: process.env['SANDBOX_WORKER_SCRIPT'],
      size: SIZE,
      concurrency: CONCURRENCY,
      onEvent: (e) => events.push(e),
    });
    // deadlines count from the call: start timing once the workers are up (slow on a loaded machine)
    while (pool.stats().ready < SIZE) await new Promise((r) => setTimeout(r, 20));
  });

  afterEach(async () => {
    await pool.close();
  });

  /** Runs `code` as `tenant` `times` times, SLOTS at a time, so that every slot of every worker runs it. */
  async function onEverySlot(code: string, tenant: string | undefined, times = 2 * SLOTS, extra: Partial<SandboxInvocation> = {}): Promise<SandboxOutcome[]> {
    const out: SandboxOutcome[] = [];
    for (let done = 0; done < times; done += SLOTS) {
      out.push(...(await Promise.all(Array.from({ length: Math.min(SLOTS, times - done) }, () => pool.run(inv(code, tenant, extra), null)))));
    }
    return out;
  }

  /** Tenant B's normal invocations, on every slot: correct, unaffected, quick. */
  async function expectVictimUnaffected(tenant = B): Promise<void> {
    for (let round = 0; round < 2; round++) {
      const runs = await Promise.all(
        Array.from({ length: SLOTS }, async (_, i) => {
          const t = Date.now();
          const o = await pool.run(inv(VICTIM, tenant, { args: { n: i } }), null);
          return { o, ms: Date.now() - t, i };
        }),
      );
      for (const { o, ms, i } of runs) {
        expect(o.ok ? o.result : o.problem).toEqual({
          raw: { double: i * 2, leftover: 'undefined', polluted: 'undefined', json: '{"a":[1]}', push: 1 },
        });
        expect(ms).toBeLessThan(QUICK_MS);
      }
    }
  }

  /** CPU time (ms) the live sandbox worker processes use during `ms` of idleness. */
  async function idleWorkerCpuMs(ms: number): Promise<number> {
    const exited = new Set(events.filter((e) => e.type === 'worker-exited').map((e) => (e as { pid: number }).pid));
    const pids = events
      .filter((e): e is Extract<SandboxPoolEvent, { type: 'worker-started' }> => e.type === 'worker-started')
      .map((e) => e.pid)
      .filter((p) => !exited.has(p));
    const ticks = () =>
      pids.reduce((sum, pid) => {
        try {
          // /proc/<pid>/stat: fields 14 and 15 are utime and stime in clock ticks (1/100 s); comm may hold spaces
          const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
          const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          return sum + Number(fields[11]) + Number(fields[12]);
        } catch {
          return sum;
        }
      }, 0);
    const before = ticks();
    await new Promise((r) => setTimeout(r, ms));
    return (ticks() - before) * 10;
  }

  // ------------------------------------------------------------------ engine-scheduled work (F4)

  const FINALIZATION_BOMB = mod(`
    const registry = new FinalizationRegistry(() => { const end = Date.now() + 1000; while (Date.now() < end) {} });
    for (let i = 0; i < 20000; i++) registry.register({ i }, i);
    globalThis.keep = registry;
    let junk = [];
    for (let i = 0; i < 300000; i++) junk.push({ i });   // garbage: the registered targets die during this run
    junk = null;
    return { raw: 'A' };
  `);

  it('FinalizationRegistry callbacks with a busy loop never run in the next invocations (tenant B stays fast)', async () => {
    const attacks = await onEverySlot(FINALIZATION_BOMB, A);
    for (const o of attacks) expect(o.ok ? o.result : o.problem).toEqual({ raw: 'A' });
    await expectVictimUnaffected();
    // nor in the attacker's own next invocations
    await expectVictimUnaffected(A);
  });

  const idleCpu = existsSync('/proc/self/stat') ? it : it.skip;
  idleCpu('FinalizationRegistry callbacks do not run while the sandbox is idle either (no CPU stolen from other tenants)', async () => {
    await onEverySlot(FINALIZATION_BOMB, A, SLOTS);
    expect(await idleWorkerCpuMs(1000)).toBeLessThan(250);
  });

  it('FinalizationRegistry and WeakRef exist but are inert: no cleanup callback, no observable collection', async () => {
    const o = await pool.run(
      inv(
        mod(`
          let called = 0;
          const registry = new FinalizationRegistry(() => { called++; });
          const token = {};
          const refs = [];
          for (let i = 0; i < 1000; i++) { const t = { i }; registry.register(t, i, token); refs.push(new WeakRef(t)); }
          await new Promise((r) => setTimeout(r, 1)); // a new job: the targets are no longer kept for this one
          for (let round = 0; round < 3; round++) {   // ~30 MB of garbage a round: full collections happen
            let junk = [];
            for (let i = 0; i < 30; i++) junk.push(new Array(100000).fill(i));
            junk = null;
            await new Promise((r) => setTimeout(r, 20));
          }
          let collected = 0;
          for (const r of refs) if (r.deref() === undefined) collected++;
          let threw = 0;
          for (const bad of [1, 'x', null, undefined]) { try { new WeakRef(bad); } catch (e) { if (e instanceof TypeError) threw++; } }
          try { new FinalizationRegistry(1); } catch (e) { if (e instanceof TypeError) threw++; }
          return { raw: { called, collected, threw, unregistered: registry.unregister(token), again: registry.unregister(token),
            tags: [String(new WeakRef({})), String(registry)], types: [typeof WeakRef, typeof FinalizationRegistry] } };
        `),
        A,
      ),
      null,
    );
    expect(o.ok ? o.result : o.problem).toEqual({
      raw: {
        called: 0,
        collected: 0,
        threw: 5,
        unregistered: true,
        again: false,
        tags: ['[object WeakRef]', '[object FinalizationRegistry]'],
        types: ['function', 'function'],
      },
    });
  });

  it('the other engine-deferred primitives are absent (Atomics.waitAsync, SharedArrayBuffer, WebAssembly async compile)', async () => {
    const o = await pool.run(
      inv(
        mod(`return { raw: [typeof Atomics, typeof SharedArrayBuffer, typeof WebAssembly,
          typeof globalThis['Atom' + 'ics'], Object.getOwnPropertyNames(globalThis).filter((k) => /Atomics|WebAssembly|SharedArrayBuffer/.test(k)).length] };`),
        A,
      ),
      null,
    );
    expect(o.ok ? o.result : o.problem).toEqual({ raw: ['undefined', 'undefined', 'undefined', 'undefined', 0] });
  });

  it('WeakRef-heavy code leaves nothing that slows tenant B', async () => {
    const attacks = await onEverySlot(
      mod(`
        const refs = [];
        for (let i = 0; i < 50000; i++) refs.push(new WeakRef({ i }));
        globalThis.refs = refs;
        const registry = new FinalizationRegistry((i) => { if (refs[i].deref() === undefined) for (;;) {} });
        for (let i = 0; i < 50000; i++) registry.register(refs[i].deref() || {}, i);
        return { raw: 'A' };
      `),
      A,
    );
    for (const o of attacks) expect(o.ok).toBe(true);
    await expectVictimUnaffected();
  });

  // ------------------------------------------------------------------ timers, promises, microtasks

  it('timers left running are cancelled when the invocation answers: nothing fires afterwards', async () => {
    const attacks = await onEverySlot(
      mod(`
        setInterval(() => { const end = Date.now() + 2000; while (Date.now() < end) {} }, 1);
        setTimeout(() => { for (;;) {} }, 20);
        const storm = () => setImmediate(storm); storm();
        new Promise((r) => setTimeout(r, 10)).then(() => { for (;;) {} });
        return { raw: 'A' };
      `),
      A,
      SLOTS,
      { timeoutMs: 20_000 },
    );
    for (const o of attacks) expect(o.ok ? o.result : o.problem).toEqual({ raw: 'A' });
    if (existsSync('/proc/self/stat')) expect(await idleWorkerCpuMs(500)).toBeLessThan(150);
    await expectVictimUnaffected();
  });

  it('a timer callback already queued when the invocation answers is stopped, not left running into the next invocation', async () => {
    // the 1 ms timer fires on the host while the isolate still runs the formula, so its callback is queued in the
    // isolate behind the answer
    const attacks = await onEverySlot(
      mod(`
        setTimeout(() => { for (;;) {} }, 1);
        const end = Date.now() + 30; while (Date.now() < end) {}
        return { raw: 'A' };
      `),
      A,
      SLOTS,
      { timeoutMs: 20_000 }, // a callback left running would hold the isolate until this deadline
    );
    for (const o of attacks) expect(o.ok ? o.result : o.problem).toEqual({ raw: 'A' });
    await expectVictimUnaffected();
    await expectVictimUnaffected(A);
  });

  it('a long promise chain left behind is drained within the attacker own invocation', async () => {
    const attacks = await onEverySlot(
      mod(`
        let n = 0;
        const step = () => { if (++n < 2000000) Promise.resolve().then(step); };
        step();
        (async () => { for (let i = 0; i < 200000; i++) await null; })();
        return { raw: 'A' };
      `),
      A,
      SLOTS,
    );
    for (const o of attacks) expect(o.ok ? o.result : o.problem).toEqual({ raw: 'A' });
    await expectVictimUnaffected();
  });

  it('an endless microtask flood after returning ends the attacker invocation only (504), tenant B stays fast', async () => {
    const attacks = await onEverySlot(mod('const flood = () => Promise.resolve().then(flood); flood(); return { raw: "A" };'), A, 2 * SLOTS, {
      timeoutMs: 600,
    });
    // the flood ends at the deadline (504), or sooner when its promises reach the isolate's memory limit (a fast
    // machine gets there within 600 ms): either way the attacker's invocation ends, and only it
    const ended = (o: SandboxOutcome) => !o.ok && (o.problem.status === 504 || o.problem.errors?.['error']?.[0] === 'Reactor exceeded its memory limit');
    for (const o of attacks) expect({ ended: ended(o), outcome: o }).toEqual({ ended: true, outcome: o });
    await expectVictimUnaffected();
  });

  // ------------------------------------------------------------------ state left behind

  it('globals, prototypes and module state left behind are seen by no later invocation, of any tenant', async () => {
    const code = mod(`
      const seen = { leftover: typeof globalThis.leftover, polluted: typeof ({}).polluted, counter: (globalThis.counter = (globalThis.counter || 0) + 1),
        registered: Symbol.for('coffer.leak').description, errorHook: typeof Error.prepareStackTrace };
      globalThis.leftover = req.args.secret;
      Object.prototype.polluted = req.args.secret;
      Array.prototype.push = function () { return -1; };
      JSON.stringify = () => '"forged"';
      Error.prepareStackTrace = () => req.args.secret;
      return { raw: seen };
    `);
    const first = await onEverySlot(code, A, 2 * SLOTS, { args: { secret: 'A-secret' } });
    const expected = { raw: { leftover: 'undefined', polluted: 'undefined', counter: 1, registered: 'coffer.leak', errorHook: 'undefined' } };
    for (const o of first) expect(o.ok ? o.result : o.problem).toEqual(expected);
    // the same code as tenant B (same compiled-code hash), and as A again
    for (const o of await onEverySlot(code, B, 2 * SLOTS, { args: { secret: 'B-secret' } })) expect(o.ok ? o.result : o.problem).toEqual(expected);
    for (const o of await onEverySlot(code, A, SLOTS, { args: { secret: 'A-secret' } })) expect(o.ok ? o.result : o.problem).toEqual(expected);
    await expectVictimUnaffected();
  });

  it('memory one invocation leaves referenced is not held against the next (tenant B can use its whole limit)', async () => {
    const hog = mod('const a = []; for (let i = 0; i < 40; i++) a.push(new Array(125000).fill(i)); globalThis.hog = a; return { raw: "A" };');
    for (const o of await onEverySlot(hog, A)) expect(o.ok ? o.result : o.problem).toEqual({ raw: 'A' });
    const big = mod('const a = []; for (let i = 0; i < 40; i++) a.push(new Array(125000).fill(i)); return { raw: a.length };');
    for (const o of await onEverySlot(big, B)) expect(o.ok ? o.result : o.problem).toEqual({ raw: 40 });
    await expectVictimUnaffected();
  });

  // ------------------------------------------------------------------ the isolation unit

  it('an isolate serves one tenant only: compiled code is never shared across tenants, nor without a tenant', async () => {
    const code = mod(`return { raw: ${JSON.stringify('unit-' + Date.now())} };`);
    const compiles = () => pool.stats().compiles;
    const run = async (tenant: string | undefined) => {
      const before = compiles();
      const o = await pool.run(inv(code, tenant), null);
      expect(o.ok).toBe(true);
      return compiles() - before;
    };
    expect(await run(A)).toBe(1);
    expect(await run(A)).toBe(0); // warm: A's isolate, A's compiled code
    expect(await run(B)).toBe(1); // B never enters A's isolate
    expect(await run(B)).toBe(0);
    expect(await run(A)).toBe(0);
    expect(await run(undefined)).toBe(1); // no tenant: an isolate of its own, disposed afterwards
    expect(await run(undefined)).toBe(1);
  });
});
