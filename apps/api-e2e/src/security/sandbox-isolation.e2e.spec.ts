/**
 * Security invariant 4 (issue 11, F4) end to end: tenant code is isolated. Tenant A's formula registers
 * FinalizationRegistry callbacks that busy-loop and answers at once; it used to leave every sandbox slot it ran on
 * hanging, so that the next invocations there - tenant B's included - ended with 504 after 10 s.
 */
import { api, createTenant } from '@coffer/testing';
import { formulaCode, makeReactor } from '../reactors/support';

jest.setTimeout(120_000);

/** reactor-service's sandbox: 2 worker processes × 4 slots (ReactorSandbox, SandboxPool defaults). */
const SLOTS = 8;
/** Each of tenant B's invocations must answer within this (they take milliseconds; a poisoned slot takes 10 s). */
const QUICK_MS = 2000;

const FINALIZATION_BOMB = formulaCode(`
  const registry = new FinalizationRegistry(() => { const end = Date.now() + 1000; while (Date.now() < end) {} });
  for (let i = 0; i < 20000; i++) registry.register({ i }, i);
  globalThis.keep = registry;
  let junk = [];
  for (let i = 0; i < 300000; i++) junk.push({ i });   // garbage: the registered targets die during this run
  junk = null;
  return { raw: { attacker: true } };
`);

const TRIVIAL = formulaCode('return { raw: { double: req.args.num * 2, leftover: typeof globalThis.keep } };');

describe('sandbox isolation between tenants', () => {
  it("tenant A's FinalizationRegistry busy-loop formula, run on every sandbox slot, does not slow tenant B", async () => {
    const [a, b] = await Promise.all([createTenant('sandbox-isolation-a'), createTenant('sandbox-isolation-b')]);
    const [aCaller, bCaller] = await Promise.all([a.app('private', { permissions: ['token:use'] }), b.app('private', { permissions: ['token:use'] })]);
    const [{ reactorId: bomb }, { reactorId: trivial }] = await Promise.all([
      makeReactor(a.managementKey, { code: FINALIZATION_BOMB }),
      makeReactor(b.managementKey, { code: TRIVIAL, request_parameters: [{ name: 'num', type: 'number' }] }),
    ]);
    // warm both reactors up (first invocation compiles, caches are filled)
    expect((await api('POST', `/reactors/${trivial}/react`, { key: bCaller.key, body: { args: { num: 0 } } })).status).toBe(200);

    // tenant A: more invocations than there are slots, all at once; B starts as soon as a slot's worth have answered
    // (the others are still running or queued on the slots A has just used)
    let answered = 0;
    let wake: () => void = () => undefined;
    const slotsUsed = new Promise<void>((r) => (wake = r));
    const attacks = Array.from({ length: SLOTS + 4 }, async () => {
      const res = await api('POST', `/reactors/${bomb}/react`, { key: aCaller.key, body: {} });
      if (++answered >= SLOTS) wake();
      return res;
    });
    await slotsUsed;

    // tenant B: 8 invocations at once, then 8 more; each answers correctly and quickly
    for (let round = 0; round < 2; round++) {
      const runs = await Promise.all(
        Array.from({ length: 8 }, async (_, n) => {
          const t = Date.now();
          const res = await api('POST', `/reactors/${trivial}/react`, { key: bCaller.key, body: { args: { num: n } } });
          return { status: res.status, body: res.body, ms: Date.now() - t, n };
        }),
      );
      for (const run of runs) {
        expect({ status: run.status, body: run.body }).toEqual({ status: 200, body: { raw: { double: run.n * 2, leftover: 'undefined' } } });
        expect(run.ms).toBeLessThan(QUICK_MS);
      }
    }

    // and the attacker's own invocations answered normally (its callbacks never ran)
    for (const res of await Promise.all(attacks)) expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { raw: { attacker: true } } });
  });
});
