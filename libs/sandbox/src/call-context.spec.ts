import { AsyncLocalStorage } from 'node:async_hooks';
import { SandboxPool, type SvcBridge } from './index';

jest.setTimeout(30_000);

/**
 * A formula's svc and fetch calls are made on behalf of the invocation that ran it: the host handles them in the
 * async context `run` was called in (the request's deadline and trace live there), not in the context the worker
 * process happened to be started in.
 */
describe('SandboxPool - calls run in the invoking context', () => {
  const request = new AsyncLocalStorage<string>();
  let pool: SandboxPool;

  beforeAll(() => {
    // started inside one request's context: a later invocation must not see it
    pool = request.run('the request that started the pool', () => new SandboxPool({ size: 1, concurrency: 2 }));
  });
  afterAll(() => pool.close());

  it('each invocation sees its own context in its svc calls', async () => {
    const seen: Array<string | undefined> = [];
    const svc: SvcBridge = {
      async call() {
        seen.push(request.getStore());
        return { ok: true };
      },
    };
    const code = 'module.exports = async function (req) { await req.svc.tokens.retrieve("x"); return { raw: "done" }; };';
    const outcomes = await Promise.all(
      ['request A', 'request B'].map((id) =>
        request.run(id, () => pool.run({ code, args: {}, configuration: {}, svc: true, timeoutMs: 10_000, tenant: id }, svc)),
      ),
    );
    for (const o of outcomes) expect(o).toEqual({ ok: true, result: { raw: 'done' } });
    expect(seen.sort()).toEqual(['request A', 'request B']);
  });
});
