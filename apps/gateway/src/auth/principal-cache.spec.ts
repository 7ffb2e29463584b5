import type { Principal } from '@coffer/contracts';
import type { EventBus } from '@coffer/bus';
import { PrincipalCache } from './principal-cache';

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
});
