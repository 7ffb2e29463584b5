import type { Principal, ResolvedProxy } from '@coffer/contracts';
import type { EventBus, RpcClient } from '@coffer/bus';
import { withActingContext } from '@coffer/operations';
import { ProxyDirectory } from './proxy-directory';

const TENANT = '11111111-1111-4111-8111-111111111111';
const PROXY: ResolvedProxy = {
  id: '22222222-2222-4222-8222-222222222222',
  tenantId: TENANT,
  destinationUrl: 'https://example.com',
  requireAuth: false,
  disableDetokenization: false,
  requestTransforms: 0,
  responseTransforms: 0,
};
const CALLER: Principal = { tenantId: TENANT, applicationId: TENANT, applicationType: 'private', permissions: [] };

/** reactor-service's lookups, answered when the test says so; and the bus's proxy-changed subscription. */
function directory() {
  const pending: Array<(p: ResolvedProxy | null) => void> = [];
  let lookups = 0;
  let onChanged: (e: { proxyId?: string }) => void = () => undefined;
  const rpc = {
    call: () => {
      lookups++;
      return new Promise<ResolvedProxy | null>((resolve) => pending.push(resolve));
    },
  } as unknown as RpcClient;
  const bus = {
    subscribe: async (_subject: string, handler: (e: { proxyId?: string }) => void) => {
      onChanged = handler;
    },
  } as unknown as EventBus;
  const directory = new ProxyDirectory(rpc, bus);
  // as the proxy.invoke operation runs it: as its caller (CALLER unless a test says)
  const dir = {
    resolve: (key: string, principal: Principal = CALLER) => withActingContext({ principal, traceId: 't' }, () => directory.resolve(key)),
  };
  return { dir, init: () => directory.onModuleInit(), pending, lookups: () => lookups, changed: (proxyId: string) => onChanged({ proxyId }) };
}

describe('ProxyDirectory', () => {
  it('keeps a lookup, and drops it when the proxy changes', async () => {
    const d = directory();
    await d.init();
    const first = d.dir.resolve('key');
    d.pending.shift()?.(PROXY);
    expect(await first).toEqual(PROXY);
    expect(await d.dir.resolve('key')).toEqual(PROXY);
    expect(d.lookups()).toBe(1);
    d.changed(PROXY.id);
    const again = d.dir.resolve('key');
    d.pending.shift()?.(null);
    expect(await again).toBeNull();
    expect(d.lookups()).toBe(2);
  });

  it("keeps a proxy's lookups when another proxy changes", async () => {
    const d = directory();
    await d.init();
    const first = d.dir.resolve('key');
    d.pending.shift()?.(PROXY);
    await first;
    d.changed('33333333-3333-4333-8333-333333333333');
    expect(await d.dir.resolve('key')).toEqual(PROXY);
    expect(d.lookups()).toBe(1);
  });

  it('does not keep an answer that was under way when the proxy changed (it may be the state before the change)', async () => {
    const d = directory();
    await d.init();
    const racing = d.dir.resolve('key');
    // the proxy is deleted (or switched to require auth) while the lookup is in flight; its answer comes after
    d.changed(PROXY.id);
    d.pending.shift()?.(PROXY);
    expect(await racing).toEqual(PROXY);
    const next = d.dir.resolve('key');
    expect(d.lookups()).toBe(2);
    d.pending.shift()?.(null);
    expect(await next).toBeNull();
  });

  it('answers a cached proxy to its own tenant only', async () => {
    const d = directory();
    await d.init();
    const first = d.dir.resolve('key');
    d.pending.shift()?.(PROXY);
    await first;
    const other: Principal = { ...CALLER, tenantId: '33333333-3333-4333-8333-333333333333' };
    expect(await d.dir.resolve('key', other)).toBeNull();
  });
});
