import { ProblemError, type Principal } from '@coffer/contracts';
import type { CallContext, RpcClient } from '@coffer/bus';
import { withActingContext } from '@coffer/operations';
import { answerOf, recheckReplay } from './replay-check';

const rpcFailingWith = (status?: number) => {
  const calls: unknown[] = [];
  const contexts: CallContext[] = [];
  const rpc = {
    call: async (_op: unknown, body: unknown, ctx: CallContext) => {
      calls.push(body);
      contexts.push(ctx);
      if (status) throw new ProblemError(status, 'refused');
      return {};
    },
  } as unknown as RpcClient;
  return { rpc, calls, contexts };
};
const recorded = { status: 200, headers: [['content-type', 'application/json']] as [string, string][], body: 'e30=', usedTokenIds: ['tok_1', 'tok_2'] };
const CALLER: Principal = {
  tenantId: '11111111-1111-4111-8111-111111111111',
  applicationId: '22222222-2222-4222-8222-222222222222',
  applicationType: 'private',
  permissions: ['token:use'],
};
/** as the proxy.invoke operation runs it: as its caller, in its trace */
const asTheCaller = <T>(fn: () => Promise<T>) => withActingContext({ principal: CALLER, traceId: 't' }, fn);

describe('recheckReplay', () => {
  it('detokenizes every recorded token as the caller, and lets the replay through when it still may', async () => {
    const { rpc, calls, contexts } = rpcFailingWith();
    await expect(asTheCaller(() => recheckReplay(rpc, recorded))).resolves.toBeUndefined();
    expect(calls).toEqual([{ payload: ['{{ tok_1 }}', '{{ tok_2 }}'], path: 'request' }]);
    expect(contexts).toEqual([{ principal: CALLER, traceId: 't' }]);
  });

  it('asks nothing for an answer that detokenized nothing, or a record made before tokens were kept', async () => {
    const { rpc, calls } = rpcFailingWith(403);
    await asTheCaller(() => recheckReplay(rpc, { ...recorded, usedTokenIds: [] }));
    await asTheCaller(() => recheckReplay(rpc, { status: 200, headers: [], body: '' }));
    expect(calls).toEqual([]);
  });

  it.each([
    [403, 403],
    [400, 409],
    [404, 409],
    [503, 503],
  ])('a %p from token-service refuses the replay with %p', async (from, to) => {
    const { rpc } = rpcFailingWith(from);
    await expect(asTheCaller(() => recheckReplay(rpc, recorded))).rejects.toMatchObject({ status: to });
  });
});

describe('answerOf', () => {
  it('keeps the recorded tokens out of the answer', () => {
    expect(answerOf(recorded)).toEqual({ status: 200, headers: recorded.headers, body: 'e30=' });
  });
});
