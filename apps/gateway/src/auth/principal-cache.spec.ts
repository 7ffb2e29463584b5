import fc from 'fast-check';
import type { Principal } from '@coffer/contracts';
import type { EventBus } from '@coffer/bus';
import { PrincipalCache, invalidates, type Invalidation } from './principal-cache';
import { CONSOLE_SESSION_PREFIX } from '../console/console-sessions';

const principal = (tenantId: string, applicationId: string, extra: Partial<Principal> = {}) =>
  ({ tenantId, applicationId, applicationType: 'private', permissions: [], ...extra }) as Principal;

describe('PrincipalCache', () => {
  const subscribed = new Map<string, (payload: unknown) => void>();
  const events = { subscribe: async (subject: string, handler: (p: unknown) => void) => void subscribed.set(subject, handler) } as unknown as EventBus;

  it("drops every key of a tenant an operator acted on (allKeys), the anonymous proxy's too, and no other tenant's", async () => {
    const cache = new PrincipalCache(events);
    await cache.onModuleInit();
    cache.set('k1', { principal: principal('t1', 'a1') });
    cache.set('k2', { principal: principal('t1', 'a2', { sessionId: 's1', authorizer: { applicationId: 'a1' } } as Partial<Principal>) });
    cache.set('proxy:p1', { principal: principal('t1', 'p1', { anonymousProxyId: 'p1' } as Partial<Principal>) });
    cache.set('k3', { principal: principal('t2', 'a3') });
    subscribed.get('events.auth.invalidated.v1')?.({ tenantId: 't1', allKeys: true });
    expect(['k1', 'k2', 'proxy:p1'].map((k) => cache.get(k))).toEqual([undefined, undefined, undefined]);
    expect(cache.recentTenant('k1')).toBeUndefined();
    expect(cache.get('k3')?.principal.tenantId).toBe('t2');
    expect(cache.recentTenant('k3')).toBe('t2');
  });

  it('without allKeys, a tenant id alone drops nothing (it only scopes the other selectors)', async () => {
    const cache = new PrincipalCache(events);
    await cache.onModuleInit();
    cache.set('k1', { principal: principal('t1', 'a1') });
    cache.set('k2', { principal: principal('t1', 'a2') });
    subscribed.get('events.auth.invalidated.v1')?.({ tenantId: 't1' });
    expect(cache.get('k1')).toBeDefined();
    subscribed.get('events.auth.invalidated.v1')?.({ tenantId: 't1', applicationId: 'a2' });
    expect(cache.get('k1')).toBeDefined();
    expect(cache.get('k2')).toBeUndefined();
  });

  // the model: every entry `invalidates` holds for is dropped, found by a scan of the whole cache (what the gateway did)
  it('after any sequence of caching and invalidations, holds exactly what a scan of every entry would have left', async () => {
    const some = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
    const tenant = fc.constantFrom('t1', 't2');
    const app = fc.constantFrom('a1', 'a2', 'a3');
    const session = fc.constantFrom('s1', 's2');
    const user = fc.constantFrom('u1', 'u2');
    const hash = fc.constantFrom('k1', 'k2', 'k3', 'k4', `${CONSOLE_SESSION_PREFIX}c1`, `${CONSOLE_SESSION_PREFIX}c2`);
    const cached = fc.record({
      hash,
      principal: fc
        .record({ tenantId: tenant, applicationId: app, sessionId: some(session), authorizer: some(app), user: some(user) })
        .map(({ authorizer, user: u, ...p }) =>
          principal(p.tenantId, p.applicationId, {
            ...(p.sessionId ? { sessionId: p.sessionId } : {}),
            ...(authorizer ? { authorizer: { applicationId: authorizer, permissions: [] } } : {}),
            ...(u ? { user: { id: u, email: `${u}@example.com`, memberId: `m-${u}`, role: 'admin' } } : {}),
          }),
        ),
      expires: fc.boolean(),
    });
    const invalidation: fc.Arbitrary<Invalidation> = fc.record(
      {
        tenantId: tenant,
        allKeys: fc.boolean(),
        applicationId: app,
        sessionId: session,
        userId: user,
        consoleSessions: fc.subarray(['c1', 'c2']),
      },
      { requiredKeys: [] },
    );
    const step = fc.oneof(
      cached.map((c) => ({ cache: c })),
      invalidation.map((i) => ({ invalidate: i })),
    );
    const allHashes = ['k1', 'k2', 'k3', 'k4', `${CONSOLE_SESSION_PREFIX}c1`, `${CONSOLE_SESSION_PREFIX}c2`];

    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40 }), async (steps) => {
        const cache = new PrincipalCache(events);
        await cache.onModuleInit();
        const model = new Map<string, Principal>();
        const recent = new Map<string, Principal>();
        for (const s of steps) {
          if ('cache' in s) {
            const { hash: h, principal: p, expires } = s.cache;
            cache.set(h, { principal: p, ...(expires ? { expiresAt: Date.now() + 60_000 } : {}) });
            model.set(h, p);
            recent.set(h, p);
          } else {
            subscribed.get('events.auth.invalidated.v1')?.(s.invalidate);
            const drops = (p: Principal) => invalidates(s.invalidate, p);
            for (const id of s.invalidate.consoleSessions ?? []) {
              model.delete(`${CONSOLE_SESSION_PREFIX}${id}`);
              recent.delete(`${CONSOLE_SESSION_PREFIX}${id}`);
            }
            for (const [h, p] of [...model]) if (drops(p)) model.delete(h);
            for (const [h, p] of [...recent]) if (drops(p)) recent.delete(h);
          }
        }
        for (const h of allHashes) {
          expect(cache.get(h)?.principal).toEqual(model.get(h));
          expect(cache.recentTenant(h)).toEqual(recent.get(h)?.tenantId);
        }
      }),
      { numRuns: 150 },
    );
  });
});
