import { ProblemError } from '@coffer/contracts';
import type { RpcClient } from '@coffer/bus';
import { answerOf, recheckReplay } from './replay-check';

const rpcFailingWith = (status?: number) => {
  const calls: unknown[] = [];
  const rpc = {
    call: async (_op: unknown, body: unknown) => {
      calls.push(body);
      if (status) throw new ProblemError(status, 'refused');
      return {};
    },
  } as unknown as RpcClient;
  return { rpc, calls };
};
const recorded = { status: 200, headers: [['content-type', 'application/json']] as [string, string][], body: 'e30=', usedTokenIds: ['tok_1', 'tok_2'] };
const ctx = { traceId: 't' };

describe('recheckReplay', () => {
  it('detokenizes every recorded token as the caller, and lets the replay through when it still may', async () => {
    const { rpc, calls } = rpcFailingWith();
    await expect(recheckReplay(rpc, ctx, recorded)).resolves.toBeUndefined();
    expect(calls).toEqual([{ payload: ['{{ tok_1 }}', '{{ tok_2 }}'], path: 'request' }]);
  });

  it('asks nothing for an answer that detokenized nothing, or a record made before tokens were kept', async () => {
    const { rpc, calls } = rpcFailingWith(403);
    await recheckReplay(rpc, ctx, { ...recorded, usedTokenIds: [] });
    await recheckReplay(rpc, ctx, { status: 200, headers: [], body: '' });
    expect(calls).toEqual([]);
  });

  it.each([
    [403, 403],
    [400, 409],
    [404, 409],
    [503, 503],
  ])('a %p from token-service refuses the replay with %p', async (from, to) => {
    const { rpc } = rpcFailingWith(from);
    await expect(recheckReplay(rpc, ctx, recorded)).rejects.toMatchObject({ status: to });
  });
});

describe('answerOf', () => {
  it('keeps the recorded tokens out of the answer', () => {
    expect(answerOf(recorded)).toEqual({ status: 200, headers: recorded.headers, body: 'e30=' });
  });
});
