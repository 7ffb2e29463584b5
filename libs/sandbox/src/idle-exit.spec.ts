import { SandboxPool, type SandboxInvocation, type SandboxPoolEvent } from './index';

jest.setTimeout(60_000);

const inv = (body: string, extra: Partial<SandboxInvocation> = {}): SandboxInvocation => ({
  code: `module.exports = async function (req) {\n${body}\n};`,
  args: {},
  configuration: {},
  svc: false,
  timeoutMs: 2_000,
  tenant: 'tenant-a',
  ...extra,
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * idleExitMs (issue 35: an idle reactor-service holds no worker process): the workers start with the first
 * invocation, whose deadline counts from the moment one is ready, stop once the pool was idle that long, and start
 * again for the next invocation.
 */
describe('SandboxPool with idleExitMs', () => {
  const events: SandboxPoolEvent[] = [];
  let pool: SandboxPool;

  beforeAll(() => {
    pool = new SandboxPool({
      workerScript: process.env['SANDBOX_WORKER_SCRIPT'],
      size: 1,
      concurrency: 2,
      idleExitMs: 1_000,
      onEvent: (e) => events.push(e),
    });
  });
  afterAll(() => pool.close());

  it('starts no worker until the first invocation', async () => {
    await sleep(300);
    expect(pool.stats().workers).toBe(0);
    expect(events).toHaveLength(0);
  });

  it('runs the first invocation once a worker started, its deadline counted from then', async () => {
    // a deadline shorter than a worker's start (ts-node in tests: about a second): counted from the start it would
    // time out before the formula ran
    const out = await pool.run(inv('return { raw: { n: 1 } };', { timeoutMs: 300 }), null);
    expect(out).toMatchObject({ ok: true, result: { raw: { n: 1 } } });
    expect(pool.stats().ready).toBe(1);
  });

  it('stops its workers once idle for idleExitMs, and starts them again for the next invocation', async () => {
    await sleep(2_000);
    expect(pool.stats().workers).toBe(0);
    expect(events.filter((e) => e.type === 'worker-exited')).toHaveLength(1);
    const out = await pool.run(inv('return { raw: { n: 2 } };'), null);
    expect(out).toMatchObject({ ok: true, result: { raw: { n: 2 } } });
    expect(events.filter((e) => e.type === 'worker-started')).toHaveLength(2);
  });

  it('keeps its workers while invocations run, however long', async () => {
    const long = pool.run(inv('await new Promise((r) => setTimeout(r, 1500)); return { raw: { n: 3 } };'), null);
    await sleep(1_300);
    expect(pool.stats().workers).toBe(1);
    expect(await long).toMatchObject({ ok: true, result: { raw: { n: 3 } } });
  });
});
