import { ProblemError, SUBJECTS, type Principal } from '@coffer/contracts';
import type { RpcClient } from '@coffer/bus';
import { SVC_ROUTES, TokenSvcBridge, listQuery } from './svc-bridge';

const principal: Principal = { tenantId: 't', applicationId: 'a', applicationType: 'private', permissions: ['token:read'] };

function fakeRpc(answer: (subject: string, body: unknown) => unknown) {
  const calls: Array<{ subject: string; body: unknown; principal?: Principal; deadline?: number }> = [];
  const rpc = {
    async call(target: string | { subject: string }, body: unknown, ctx: { principal?: Principal }, deadline?: number) {
      const subject = typeof target === 'string' ? target : target.subject;
      calls.push({ subject, body, principal: ctx.principal, deadline });
      return answer(subject, body);
    },
  } as unknown as RpcClient;
  return { rpc, calls };
}

describe('TokenSvcBridge', () => {
  it('maps svc methods to token-service RPCs as the application', async () => {
    const { rpc, calls } = fakeRpc(() => ({ ok: true }));
    const bridge = new TokenSvcBridge(rpc, principal, 'trace');
    const ctx = { deadline: Date.now() + 1000, signal: new AbortController().signal };
    await bridge.call('tokens.create', [{ type: 'token', data: 1 }], ctx);
    await bridge.call('tokens.retrieve', ['id1'], ctx);
    await bridge.call('tokens.update', ['id1', { data: 2 }], ctx);
    expect(await bridge.call('tokens.delete', ['id1'], ctx)).toBeUndefined();
    await bridge.call('tokenize', [{ a: 'b' }], ctx);
    await bridge.call('detokenize', [{ a: '{{ x }}' }], ctx);
    expect(calls.map((c) => [c.subject, c.body])).toEqual([
      [SUBJECTS.token.tokens.create, { type: 'token', data: 1 }],
      [SUBJECTS.token.tokens.get, { id: 'id1' }],
      [SUBJECTS.token.tokens.update, { id: 'id1', patch: { data: 2 } }],
      [SUBJECTS.token.tokens.delete, { id: 'id1' }],
      [SUBJECTS.token.tokens.tokenize, { payload: { a: 'b' } }],
      [SUBJECTS.token.tokens.detokenize, { payload: { a: '{{ x }}' } }],
    ]);
    for (const c of calls) {
      expect(c.principal).toBe(principal);
      expect(c.deadline).toBeLessThanOrEqual(1000);
    }
  });

  it('rejects with {status, body} carrying the problem, never host error text', async () => {
    const bridge = new TokenSvcBridge(
      fakeRpc((subject) => {
        if (subject === SUBJECTS.token.tokens.get) throw new ProblemError(404, 'The token was not found');
        throw new Error('host secret');
      }).rpc,
      principal,
      'trace',
    );
    await expect(bridge.call('tokens.retrieve', ['x'])).rejects.toEqual({
      status: 404,
      body: { status: 404, title: 'Not Found', detail: 'The token was not found' },
    });
    await expect(bridge.call('tokens.list', [{}])).rejects.toEqual({ status: 500, body: { status: 500, title: 'Internal Server Error' } });
    await expect(bridge.call('constructor', [])).rejects.toMatchObject({ status: 400 });
    const expired = { deadline: Date.now() - 1, signal: new AbortController().signal };
    await expect(bridge.call('tokens.retrieve', ['x'], expired)).rejects.toMatchObject({ status: 504 });
  });

  it('refuses arguments breaking the JSON limits with a 400 problem, before serializing or calling anything', async () => {
    const { rpc, calls } = fakeRpc(() => ({ ok: true }));
    const bridge = new TokenSvcBridge(rpc, principal, 'trace');
    const deep = JSON.parse('{"a":'.repeat(5000) + '1' + '}'.repeat(5000));
    const at64 = JSON.parse('{"a":'.repeat(64) + '1' + '}'.repeat(64));
    const at65 = { a: at64 };
    for (const [method, args] of [
      ['tokens.create', [{ type: 'token', data: deep }]],
      ['tokens.update', ['id1', { data: at65 }]],
      ['tokenize', [at65]],
      ['detokenize', [{ x: deep }]],
      ['tokens.search', [{ query: 'type:token', x: deep }]],
      ['tokens.list', [{ metadata: deep }]],
      ['tokens.create', [{ type: 'token', data: { n: Infinity } }]],
    ] as const) {
      await expect(bridge.call(method, [...args])).rejects.toMatchObject({ status: 400, body: { status: 400, title: 'Bad Request' } });
    }
    expect(calls).toEqual([]);
    // 64 levels in all (the body, then data holding 63) is within the limit
    await bridge.call('tokens.create', [{ type: 'token', data: at64.a }]);
    await bridge.call('tokenize', [at64]);
    expect(calls).toHaveLength(2);
  });

  it('turns the SDK list query into the HTTP query', () => {
    expect(listQuery({ type: ['card', 'bank'], metadata: { Customer: 'c1', n: 2 }, page: 2, size: 10, skip: null })).toEqual({
      type: ['card', 'bank'],
      'metadata.Customer': 'c1',
      'metadata.n': '2',
      page: '2',
      size: '10',
    });
    expect(listQuery(undefined)).toEqual({});
  });
});

describe('what a formula may call through svc', () => {
  it('token operations of the table only, none of them internal', () => {
    const rows = Object.values(SVC_ROUTES).map((r) => r.op);
    expect(rows.filter((r) => r.internal)).toEqual([]);
    expect(rows.every((r) => r.subject.startsWith('token.tokens.'))).toBe(true);
    expect(rows.map((r) => r.subject)).not.toContain(SUBJECTS.token.audit.record);
  });
});
