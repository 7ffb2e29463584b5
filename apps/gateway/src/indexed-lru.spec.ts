import type { Principal } from '@coffer/contracts';
import { IndexedLru } from './indexed-lru';
import { nameOf, namesOf } from './auth/principal-cache';

const principal = (tenantId: string, applicationId: string, extra: Partial<Principal> = {}) =>
  ({ tenantId, applicationId, applicationType: 'public', permissions: [], ...extra }) as Principal;

// filed as the gateway's principal cache files its principals
const lru = (max = 100, ttl = 60_000) => new IndexedLru<Principal>({ max, ttl }, namesOf);
const everyone = () => true;

describe('IndexedLru', () => {
  it('looks only at the entries filed under the names it is given', () => {
    const cache = lru();
    cache.set('k1', principal('t1', 'a1'));
    cache.set('k2', principal('t1', 'a2', { sessionId: 's1' }));
    cache.set('k3', principal('t2', 'a3', { sessionId: 's2', authorizer: { applicationId: 'a9', permissions: [] } }));
    const seen: string[] = [];
    cache.deleteWhere([nameOf.session('s1')], (p) => (seen.push(p.applicationId), true));
    expect(seen).toEqual(['a2']);
    expect(cache.get('k2')).toBeUndefined();
    // the authorizer's name reaches the sessions it authorized
    cache.deleteWhere([nameOf.application('a9')], everyone);
    expect(cache.get('k3')).toBeUndefined();
    expect(cache.get('k1')?.applicationId).toBe('a1');
  });

  it("files a replaced entry under its new principal's names only", () => {
    const cache = lru();
    cache.set('k1', principal('t1', 'a1', { sessionId: 's1', sessionPending: true }));
    // the same session key, now authorized by a2
    cache.set('k1', principal('t1', 'a1', { sessionId: 's1', authorizer: { applicationId: 'a2', permissions: [] } }));
    cache.deleteWhere([nameOf.application('a2')], everyone);
    expect(cache.get('k1')).toBeUndefined();
    cache.set('k1', principal('t1', 'a1', { authorizer: { applicationId: 'a2', permissions: [] } }));
    cache.set('k1', principal('t1', 'a1'));
    // a2 no longer names k1: nothing is looked at
    const seen: string[] = [];
    cache.deleteWhere([nameOf.application('a2')], (p) => (seen.push(p.applicationId), true));
    expect(seen).toEqual([]);
    expect(cache.get('k1')).toBeDefined();
  });

  it('keeps nothing filed for an entry that left the LRU, by delete, eviction or expiry', async () => {
    const cache = lru(2);
    cache.set('k1', principal('t1', 'a1', { sessionId: 's1' }));
    cache.set('k2', principal('t1', 'a2', { user: { id: 'u1', email: 'x@example.com', memberId: 'm1', role: 'admin' } }));
    cache.set('k3', principal('t2', 'a3'));
    // k1 was evicted: its session and application are no longer filed
    expect(cache.get('k1')).toBeUndefined();
    expect(cache.names).toBe(5);
    cache.delete('k2');
    cache.delete('k3');
    expect(cache.names).toBe(0);

    const short = lru(10, 1);
    short.set('k1', principal('t1', 'a1'));
    await new Promise((r) => setTimeout(r, 10));
    expect(short.get('k1')).toBeUndefined();
    expect(short.names).toBe(0);
  });

  it('finds every key of a name as keys come and go under it', () => {
    const cache = lru();
    cache.set('k1', principal('t1', 'a1'));
    cache.set('k2', principal('t1', 'a1'));
    cache.set('k3', principal('t1', 'a1'));
    cache.delete('k2');
    cache.set('k4', principal('t2', 'a1'));
    cache.delete('k1');
    cache.set('k1', principal('t1', 'a2'));
    cache.deleteWhere([nameOf.application('a1')], everyone);
    expect(['k1', 'k2', 'k3', 'k4'].map((k) => cache.get(k)?.applicationId)).toEqual(['a2', undefined, undefined, undefined]);
    cache.deleteWhere([nameOf.tenant('t1')], everyone);
    expect(cache.get('k1')).toBeUndefined();
    expect(cache.names).toBe(0);
  });

  it('does not keep an entry whose lifetime is already over', () => {
    const cache = lru(10);
    cache.set('k1', principal('t1', 'a1'), 0);
    expect(cache.get('k1')).toBeUndefined();
    expect(cache.names).toBe(0);
  });
});
