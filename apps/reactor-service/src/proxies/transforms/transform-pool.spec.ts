import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { ProxyTransformView } from '@coffer/contracts';
import { TransformPool } from './transform-pool';
import { runJob, type TransformJob, type WireMessage } from './transform-steps';

jest.setTimeout(60_000);

const json = (value: unknown): WireMessage => ({ headers: [['content-type', 'application/json']], body: Buffer.from(JSON.stringify(value)) });
const mask = (replacement: string): ProxyTransformView => ({ type: 'mask', matcher: 'regex', expression: '"n":"(\\d+)"', replacement }) as ProxyTransformView;
const budget = (remainingMs: number, maxBytes = 5 * 1024 * 1024) => ({ remainingMs, maxBytes, budgetMs: remainingMs });
const steps = (message: WireMessage, list: ProxyTransformView[], remainingMs = 5_000, maxBytes?: number): TransformJob => ({
  op: 'steps',
  message,
  steps: list,
  configuration: { KEY: 'sk' },
  direction: 'response',
  budget: budget(remainingMs, maxBytes),
});
/** about 1 MiB of JSON with 17 000 card numbers */
const large = () => json(Array.from({ length: 17_500 }, () => ({ n: '4242424242424242', name: 'x'.repeat(20) })));
const text = (m: WireMessage | undefined) => Buffer.from(m?.body ?? []).toString();

describe('transform steps (the worker thread job)', () => {
  it('runs masks and appends in order and writes the body back', () => {
    const out = runJob(
      steps(json({ n: '4242', a: 1 }), [
        mask('*'),
        { type: 'append_json', options: { location: '$.k', value: '{{ configuration.KEY }}' } } as ProxyTransformView,
        { type: 'append_header', options: { location: 'X-A', value: 'b' } } as ProxyTransformView,
      ]),
    );
    expect(out.ok && JSON.parse(text(out.message))).toEqual({ n: '****', a: 1, k: 'sk' });
    expect(out.ok && out.message?.headers).toContainEqual(['x-a', 'b']);
  });

  it('stops a mask of a large body once the budget is spent, with the budget error', () => {
    const out = runJob(
      steps(
        large(),
        Array.from({ length: 20 }, () => mask('9')),
        50,
      ),
    );
    expect(out).toMatchObject({ ok: false, kind: 'budget', message: expect.stringMatching(/over the call's 50 ms budget/) });
  });

  it('refuses a body grown past the byte budget', () => {
    const out = runJob(
      steps(
        { headers: [['content-type', 'text/plain']], body: Buffer.from('a'.repeat(1000)) },
        [{ type: 'append_text', options: { value: 'x'.repeat(100) } } as ProxyTransformView],
        5000,
        1024,
      ),
    );
    expect(out).toMatchObject({ ok: false, kind: 'budget', message: expect.stringMatching(/larger than 1024 bytes/) });
  });

  it('finds and replaces a tokenize path', () => {
    const found = runJob({ op: 'find', message: json({ cards: [{ n: '1' }, { n: '2' }] }), path: '$.cards[*].n', budget: budget(1000) });
    expect(found).toMatchObject({ ok: true, values: ['1', '2'] });
    const replaced = runJob({
      op: 'replace',
      message: json({ cards: [{ n: '1' }, { n: '2' }] }),
      path: '$.cards[*].n',
      values: ['t1', 't2'],
      budget: budget(1000),
    });
    expect(replaced.ok && JSON.parse(text(replaced.message))).toEqual({ cards: [{ n: 't1' }, { n: 't2' }] });
  });
});

describe('TransformPool', () => {
  let pool: TransformPool;
  afterEach(() => pool?.close());

  it('runs twenty masks of 1 MiB on a thread while the event loop stays free', async () => {
    pool = new TransformPool({ size: 2, maxRunningPerTenant: 1, maxQueuedPerTenant: 5 });
    await pool.run('warm', steps(json({ n: '1' }), [mask('*')]));
    // the loop's turns while the job runs (the histogram samples once per turn, at most every 10 ms): a job run on the
    // loop would leave it none (or one) for its whole second
    const turns = monitorEventLoopDelay({ resolution: 10 });
    turns.enable();
    const out = await pool.run(
      't1',
      steps(
        large(),
        Array.from({ length: 20 }, () => mask('9')),
        1_500,
      ),
    );
    turns.disable();
    expect(out).toMatchObject({ ok: false, kind: 'budget' });
    expect(out.ms).toBeGreaterThanOrEqual(1_000);
    // a free loop takes a turn every 10 ms; a tenth of those leaves room for a loaded machine's scheduling delays
    // (which reached half a second in CI) and still tells a free loop from a blocked one by an order of magnitude
    expect(turns.count).toBeGreaterThan((out.ms ?? 0) / 10 / 10);
  });

  it('terminates a thread whose job runs past its budget and serves the next job on a new one', async () => {
    pool = new TransformPool({ size: 1, maxRunningPerTenant: 1, maxQueuedPerTenant: 5, graceMs: 0 });
    // one step the job cannot interrupt: a single mask match over a large body
    const body: WireMessage = { headers: [['content-type', 'text/plain']], body: Buffer.from('a'.repeat(4 * 1024 * 1024)) };
    const started = Date.now();
    const slow = await pool.run('t1', steps(body, [{ type: 'mask', matcher: 'regex', expression: '(a+)b?a*$', replacement: '*' } as ProxyTransformView], 20));
    expect(slow).toMatchObject({ ok: false, kind: 'budget' });
    expect(Date.now() - started).toBeLessThan(5_000);
    const next = await pool.run('t1', steps(json({ n: '12' }), [mask('#')]));
    expect(next.ok && JSON.parse(text(next.message))).toEqual({ n: '##' });
  });

  it("holds one tenant to its share of the threads: another tenant's job runs while its jobs wait", async () => {
    pool = new TransformPool({ size: 2, maxRunningPerTenant: 1, maxQueuedPerTenant: 1 });
    const order: string[] = [];
    const heavy = () =>
      pool
        .run(
          'hog',
          steps(
            large(),
            Array.from({ length: 3 }, () => mask('9')),
            10_000,
          ),
        )
        .then(() => order.push('hog'));
    const hog = [heavy(), heavy()];
    // a third waiting job of the same tenant is over its queue: refused at once
    await expect(pool.run('hog', steps(json({}), []))).rejects.toMatchObject({ status: 503 });
    await pool.run('victim', steps(json({ n: '1' }), [mask('*')])).then(() => order.push('victim'));
    await Promise.all(hog);
    expect(order[0]).toBe('victim');
  });

  it('ends a thread left without a job for idleExitMs, and starts one again when next needed', async () => {
    pool = new TransformPool({ size: 1, maxRunningPerTenant: 1, maxQueuedPerTenant: 5, idleExitMs: 200 });
    const threads = () => (pool as unknown as { slots: unknown[] }).slots.length;
    expect(threads()).toBe(0);
    await pool.run('t', steps(json({ n: '1' }), [mask('*')]));
    expect(threads()).toBe(1);
    await new Promise((r) => setTimeout(r, 400));
    expect(threads()).toBe(0);
    const out = await pool.run('t', steps(json({ n: '2' }), [mask('*')]));
    expect(out.ok && JSON.parse(text(out.message))).toEqual({ n: '*' });
    expect(threads()).toBe(1);
  });
});
