import { OPS, SUBJECTS, type Principal, type TenantView } from '@coffer/contracts';
import type { RpcClient } from './rpc-client';
import type { EventBus } from './event-bus';
import { TenantSettingsClient } from './tenant-settings.client';

const principal = (tenantId: string) => ({ tenantId, applicationId: 'a', applicationType: 'private', permissions: [] }) as unknown as Principal;

/** session-service as the client sees it: the stored settings of each tenant, read on every call that reaches it */
function world() {
  const stored = new Map<string, Record<string, unknown>>();
  const calls: string[] = [];
  let hold: Promise<void> | undefined;
  const rpc = {
    call: async (operation: unknown, _payload: unknown, ctx: { principal: Principal }) => {
      expect(operation).toBe(OPS.session.tenants.get);
      calls.push(ctx.principal.tenantId);
      const settings = { ...stored.get(ctx.principal.tenantId) };
      await hold;
      return { id: ctx.principal.tenantId, settings } as unknown as TenantView;
    },
  } as unknown as RpcClient;
  const handlers = new Map<string, (payload: unknown) => void>();
  const events = {
    subscribe: async (subject: string, handler: (payload: unknown) => void) => void handlers.set(subject, handler),
  } as unknown as EventBus;
  const announce = (tenantId: unknown) => handlers.get(SUBJECTS.events.tenantSettingsChanged)?.({ tenantId });
  return { stored, calls, rpc, events, announce, holdReplies: (p: Promise<void>) => (hold = p) };
}

describe('TenantSettingsClient', () => {
  it('asks session-service once per tenant, then serves the settings it was given, with the defaults filled in', async () => {
    const w = world();
    w.stored.set('t1', { deduplicate_tokens: true });
    const client = new TenantSettingsClient(w.rpc, w.events);
    await client.onModuleInit();
    expect(await client.get(principal('t1'), 'trace')).toEqual({ deduplicate_tokens: true });
    expect(await client.get(principal('t1'), 'trace')).toEqual({ deduplicate_tokens: true });
    expect(await client.get(principal('t2'), 'trace')).toEqual({ deduplicate_tokens: false });
    expect(w.calls).toEqual(['t1', 't2']);
  });

  it("drops a tenant's settings when a change is announced (no other tenant's), and tells its listeners", async () => {
    const w = world();
    const client = new TenantSettingsClient(w.rpc, w.events);
    await client.onModuleInit();
    const heard: string[] = [];
    client.onChange((t) => heard.push(t));
    await client.get(principal('t1'), 'trace');
    await client.get(principal('t2'), 'trace');
    w.stored.set('t1', { deduplicate_tokens: true, reactor_egress: 'deny_unlisted' });
    w.announce('t1');
    expect(heard).toEqual(['t1']);
    expect(await client.get(principal('t1'), 'trace')).toEqual({ deduplicate_tokens: true, reactor_egress: 'deny_unlisted' });
    await client.get(principal('t2'), 'trace');
    expect(w.calls).toEqual(['t1', 't2', 't1']);
    // a malformed announcement changes nothing
    w.announce(42);
    w.announce(undefined);
    await client.get(principal('t1'), 'trace');
    expect(w.calls).toHaveLength(3);
    expect(heard).toEqual(['t1']);
  });

  it('does not keep an answer read while a change was announced (it may hold the settings from before the change)', async () => {
    const w = world();
    const client = new TenantSettingsClient(w.rpc, w.events);
    await client.onModuleInit();
    let release: () => void = () => undefined;
    w.holdReplies(new Promise<void>((r) => (release = r)));
    const reading = client.get(principal('t1'), 'trace'); // reads the old row, answers after the change
    w.stored.set('t1', { deduplicate_tokens: true });
    w.announce('t1');
    release();
    expect(await reading).toEqual({ deduplicate_tokens: false });
    expect(await client.get(principal('t1'), 'trace')).toEqual({ deduplicate_tokens: true });
    expect(w.calls).toEqual(['t1', 't1']);
  });

  it('makes one lookup for the requests that miss together, and shares it with them', async () => {
    const w = world();
    w.stored.set('t1', { deduplicate_tokens: true });
    const client = new TenantSettingsClient(w.rpc, w.events);
    await client.onModuleInit();
    let release: () => void = () => undefined;
    w.holdReplies(new Promise<void>((r) => (release = r)));
    const together = [client.get(principal('t1'), 'a'), client.get(principal('t1'), 'b'), client.get(principal('t2'), 'c')];
    release();
    expect(await Promise.all(together)).toEqual([{ deduplicate_tokens: true }, { deduplicate_tokens: true }, { deduplicate_tokens: false }]);
    expect(w.calls).toEqual(['t1', 't2']);
  });

  it("gives a request after a change the new settings, even while a lookup from before it is under way; another tenant's change costs nothing", async () => {
    const w = world();
    const client = new TenantSettingsClient(w.rpc, w.events);
    await client.onModuleInit();
    let release: () => void = () => undefined;
    w.holdReplies(new Promise<void>((r) => (release = r)));
    const before = client.get(principal('t1'), 'trace'); // reads the row from before the change
    const other = client.get(principal('t2'), 'trace');
    await new Promise((r) => setImmediate(r));
    w.stored.set('t1', { deduplicate_tokens: true });
    w.announce('t1');
    w.holdReplies(Promise.resolve());
    expect(await client.get(principal('t1'), 'trace')).toEqual({ deduplicate_tokens: true });
    release();
    expect(await before).toEqual({ deduplicate_tokens: false });
    expect(await other).toEqual({ deduplicate_tokens: false });
    // the answer from before the change did not replace the new one; t2's lookup was kept
    expect(await client.get(principal('t1'), 'trace')).toEqual({ deduplicate_tokens: true });
    await client.get(principal('t2'), 'trace');
    expect(w.calls).toEqual(['t1', 't2', 't1']);
  });
});
