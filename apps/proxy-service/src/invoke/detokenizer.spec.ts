import type { CallContext, RpcClient } from '@coffer/bus';
import { ProblemError, type Principal } from '@coffer/contracts';
import { withActingContext } from '@coffer/operations';
import { Detokenizer } from './detokenizer';

/** token-service stood in for by a function that replaces `{{ tok1 }}` the way detokenize would. */
function detokenizerWith(replace: (payload: unknown) => unknown) {
  const calls: unknown[] = [];
  const contexts: CallContext[] = [];
  const rpc = {
    call: async (_op: unknown, body: { payload: unknown }, ctx: CallContext) => {
      calls.push(body.payload);
      contexts.push(ctx);
      return replace(body.payload);
    },
  } as unknown as RpcClient;
  const detokenizer = new Detokenizer(rpc);
  // as the proxy.invoke operation runs it: as its caller
  const asTheCaller: Pick<Detokenizer, 'detokenize'> = {
    detokenize: (...args) => withActingContext({ principal: CALLER, traceId: 't' }, () => detokenizer.detokenize(...args)),
  };
  return { detokenizer: asTheCaller, unbound: detokenizer, calls, contexts };
}

const swap = (v: unknown): unknown =>
  typeof v === 'string'
    ? v.trim() === '{{ tok1 }}'
      ? 'SECRET'
      : v.replace('{{ tok1 }}', 'SECRET')
    : Array.isArray(v)
      ? v.map(swap)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, swap(x)]))
        : v;
const CALLER: Principal = {
  tenantId: '11111111-1111-4111-8111-111111111111',
  applicationId: '22222222-2222-4222-8222-222222222222',
  applicationType: 'private',
  permissions: ['token:use'],
};

describe('Detokenizer', () => {
  it('makes no call when nothing is to be replaced, and passes the request through as it is', async () => {
    const { detokenizer, calls } = detokenizerWith(swap);
    const req = { headers: [['x-a', 'b']] as [string, string][], body: Buffer.from('{ "a" : "{{ bad id }}" }'), contentType: 'text/plain' };
    await expect(detokenizer.detokenize({ ...req, body: Buffer.from('{"a": 1}'), contentType: 'application/json' })).resolves.toMatchObject({
      body: Buffer.from('{"a": 1}'),
    });
    await expect(detokenizer.detokenize(req)).rejects.toBeInstanceOf(ProblemError);
    expect(calls).toEqual([]);
  });

  it('replaces header values in one call, leaving a body without expressions byte for byte', async () => {
    const { detokenizer, calls } = detokenizerWith(swap);
    const body = Buffer.from('{ "keep" :  1.50 }');
    const out = await detokenizer.detokenize({
      headers: [
        ['authorization', 'Basic {{ tok1 }}'],
        ['x-b', 'plain'],
      ],
      body,
      contentType: 'application/json',
    });
    expect(out.headers).toEqual([
      ['authorization', 'Basic SECRET'],
      ['x-b', 'plain'],
    ]);
    expect(out.body.equals(body)).toBe(true);
    expect(calls).toEqual([{ headers: ['Basic {{ tok1 }}'] }]);
  });

  it('replaces body and headers together in a single call', async () => {
    const { detokenizer, calls } = detokenizerWith(swap);
    const out = await detokenizer.detokenize({
      headers: [['x-card', '{{ tok1 }}']],
      body: Buffer.from('{"n":"{{ tok1 }}","m":2}'),
      contentType: 'application/json',
    });
    expect(out.body.toString()).toBe('{"n":"SECRET","m":2}');
    expect(out.headers).toEqual([['x-card', 'SECRET']]);
    expect(calls).toHaveLength(1);
  });

  it("asks token-service as the operation's caller, in its trace; outside an operation it asks nothing", async () => {
    const { detokenizer, unbound, calls, contexts } = detokenizerWith(swap);
    const req = { headers: [['x-card', '{{ tok1 }}']] as [string, string][], body: Buffer.alloc(0), contentType: undefined };
    await detokenizer.detokenize(req);
    expect(contexts).toEqual([{ principal: CALLER, traceId: 't' }]);
    await expect(unbound.detokenize(req)).rejects.toThrow(/no authenticated caller/);
    expect(calls).toHaveLength(1);
  });

  it("given the caller's own expressions, detokenizes those and refuses any other before token-service is asked", async () => {
    const { detokenizer, calls } = detokenizerWith(swap);
    const req = { headers: [['x-card', '{{ tok1 }}']] as [string, string][], body: Buffer.alloc(0), contentType: undefined };
    await expect(detokenizer.detokenize(req, new Set(['tok1']))).resolves.toMatchObject({ headers: [['x-card', 'SECRET']] });
    await expect(detokenizer.detokenize(req, new Set(['tok2']))).rejects.toMatchObject({ status: 403 });
    expect(calls).toHaveLength(1);
  });
});
