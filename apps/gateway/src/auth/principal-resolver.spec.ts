import type { FastifyRequest } from 'fastify';
import { OPS, SUBJECTS, type Principal } from '@coffer/contracts';
import type { EventBus, RpcClient } from '@coffer/bus';
import { sha256Hex } from '@coffer/crypto';
import { PrincipalCache, type Invalidation, type LookedUp } from './principal-cache';
import { PrincipalResolver } from './principal-resolver';
import type { ConsoleSessions } from '../console/console-sessions';

const principal = (permissions: string[]) => ({ tenantId: 't1', applicationId: 'a1', applicationType: 'private', permissions }) as Principal;
const WIDE = principal(['token:read', 'token:create']);
const NARROW = principal(['token:read']);

/**
 * A gateway's resolver and its real cache; session-service's answers to `authenticate` are held until the test gives
 * them (`lookups[i].answer`), and `announce` delivers an `events.auth.invalidated` as the bus would.
 */
async function gateway() {
  const subscribed = new Map<string, (payload: unknown) => void>();
  const events = { subscribe: async (subject: string, handler: (p: unknown) => void) => void subscribed.set(subject, handler) } as unknown as EventBus;
  const lookups: Array<{ keyHash: string; answer: (a: LookedUp) => void }> = [];
  const rpc = {
    call: (subject: string, body: { keyHash: string }) => {
      expect(subject).toBe(OPS.session.authenticate);
      return new Promise<LookedUp>((answer) => lookups.push({ keyHash: body.keyHash, answer }));
    },
  } as unknown as RpcClient;
  const cache = new PrincipalCache(events);
  await cache.onModuleInit();
  const resolver = new PrincipalResolver(rpc, cache, {} as ConsoleSessions);
  const announce = (e: Invalidation) => subscribed.get(SUBJECTS.events.authInvalidated)?.(e);
  const request = (key: string) =>
    ({ headers: { 'svc-api-key': key }, routeOptions: { url: '/tokens/:id' }, raw: { socket: {} } }) as unknown as FastifyRequest;
  const resolve = (key: string) => resolver.resolve(request(key));
  return { resolver, resolve, request, lookups, announce };
}

describe('PrincipalResolver', () => {
  it('asks once for a key that a burst of requests brings, and serves it from the cache afterwards', async () => {
    const g = await gateway();
    const first = [g.resolve('key-1'), g.resolve('key-1')];
    expect(g.lookups).toHaveLength(1);
    expect(g.resolver.lookingUp(g.request('key-1'))).toBe(true);
    g.lookups[0].answer({ principal: WIDE });
    expect(await Promise.all(first)).toEqual([WIDE, WIDE]);
    expect(g.resolver.lookingUp(g.request('key-1'))).toBe(false);
    expect(await g.resolve('key-1')).toEqual(WIDE);
    expect(g.lookups).toHaveLength(1);
  });

  // The application's permissions were narrowed (or its key revoked) while a lookup of its key was under way in
  // session-service: that lookup may have read the application before the change. A request made after the change
  // was announced must not wait for that answer, and nobody may be served it from the cache afterwards, or the old
  // permissions would go on working for AUTH_CACHE_TTL_MS after `PUT /applications/{id}` answered.
  it('never gives a request made after a change the principal a lookup from before it read, nor caches that', async () => {
    const g = await gateway();
    const before = g.resolve('key-1');
    g.announce({ tenantId: 't1', applicationId: 'a1' });
    const after = g.resolve('key-1');
    expect(g.lookups).toHaveLength(2);
    g.lookups[0].answer({ principal: WIDE });
    // the request made before the change asked before it: the older answer is its own
    expect(await before).toEqual(WIDE);
    g.lookups[1].answer({ principal: NARROW });
    expect(await after).toEqual(NARROW);
    expect(await g.resolve('key-1')).toEqual(NARROW);
    expect(g.lookups).toHaveLength(2);
  });

  it('does not cache what a lookup answers after a change, even with no request waiting on a newer one', async () => {
    const g = await gateway();
    const before = g.resolve('key-1');
    g.announce({ tenantId: 't1', applicationId: 'a1' });
    g.lookups[0].answer({ principal: WIDE });
    expect(await before).toEqual(WIDE);
    const next = g.resolve('key-1');
    expect(g.lookups).toHaveLength(2);
    g.lookups[1].answer({ principal: null });
    await expect(next).rejects.toMatchObject({ status: 401 });
  });

  it("keeps a console sign-in's lookup of a key to the same rule", async () => {
    const g = await gateway();
    const keyHash = sha256Hex('key-1');
    const signIn = g.resolver.principalOf(keyHash, 'trace-1');
    g.announce({ tenantId: 't1', applicationId: 'a1' });
    g.lookups[0].answer({ principal: WIDE });
    expect(await signIn).toEqual(WIDE);
    const next = g.resolve('key-1');
    expect(g.lookups.map((l) => l.keyHash)).toEqual([keyHash, keyHash]);
    g.lookups[1].answer({ principal: NARROW });
    expect(await next).toEqual(NARROW);
  });
});
