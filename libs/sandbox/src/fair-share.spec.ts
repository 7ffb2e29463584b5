import { SandboxPool, type SandboxInvocation, type SandboxOutcome } from './index';

jest.setTimeout(60_000);

const busy = (ms: number) => `module.exports = async function () { const end = Date.now() + ${ms}; while (Date.now() < end) {} return { raw: 'slow' }; };`;
const quick = `module.exports = async function () { return { raw: 'quick' }; };`;
const inv = (code: string, tenant: string): SandboxInvocation => ({ code, args: {}, configuration: {}, svc: false, timeoutMs: 20_000, tenant });

async function timed(p: Promise<SandboxOutcome>): Promise<{ outcome: SandboxOutcome; ms: number }> {
  const started = Date.now();
  const outcome = await p;
  return { outcome, ms: Date.now() - started };
}

describe('SandboxPool - fair shares between tenants', () => {
  let pool: SandboxPool;

  beforeAll(async () => {
    // 2 slots: one tenant may hold one of them
    pool = new SandboxPool({ size: 1, concurrency: 2, maxQueuedPerTenant: 5 });
    // warm the worker, so the timings below measure scheduling, not a process start
    await pool.run(inv(quick, 'warm-up'), null);
  });

  afterAll(async () => {
    await pool.close();
  });

  it("one tenant's burst of long invocations leaves room for another tenant's call", async () => {
    const burst = Array.from({ length: 4 }, () => pool.run(inv(busy(1500), 'noisy'), null));
    await new Promise((r) => setTimeout(r, 100));
    const victim = await timed(pool.run(inv(quick, 'victim'), null));
    expect(victim.outcome).toEqual({ ok: true, result: { raw: 'quick' } });
    // first come, first served, it would wait for two of the burst to finish (≥ 1.5 s)
    expect(victim.ms).toBeLessThan(1_000);
    // the burst still completes, one at a time
    for (const outcome of await Promise.all(burst)) expect(outcome).toEqual({ ok: true, result: { raw: 'slow' } });
  });

  it('a tenant with too many invocations waiting gets 503 for the next; other tenants do not', async () => {
    const held = Array.from({ length: 6 }, () => pool.run(inv(busy(300), 'flooder'), null));
    const refused = await pool.run(inv(quick, 'flooder'), null);
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.problem.status).toBe(503);
    expect(await pool.run(inv(quick, 'other'), null)).toEqual({ ok: true, result: { raw: 'quick' } });
    for (const outcome of await Promise.all(held)) expect(outcome.ok).toBe(true);
  });
});
