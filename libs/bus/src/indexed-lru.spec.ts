import { IndexedLru } from './indexed-lru';

/** A cached value as the gateway's principals are: a tenant, maybe a session, one or two applications. */
interface Held {
  tenant: string;
  session?: string;
  apps: string[];
}

const held = (tenant: string, apps: string[], session?: string): Held => ({ tenant, apps, session });
const namesOf = (v: Held) => [`tenant:${v.tenant}`, ...(v.session ? [`session:${v.session}`] : []), ...v.apps.map((a) => `app:${a}`)];
const lru = (max = 100, ttl = 60_000) => new IndexedLru<Held>({ max, ttl }, namesOf);
const everyone = () => true;

describe('IndexedLru', () => {
  it('looks only at the entries filed under the names it is given', () => {
    const cache = lru();
    cache.set('k1', held('t1', ['a1']));
    cache.set('k2', held('t1', ['a2'], 's1'));
    cache.set('k3', held('t2', ['a3', 'a9'], 's2'));
    const seen: string[] = [];
    cache.deleteWhere(['session:s1'], (v) => (seen.push(v.apps[0]), true));
    expect(seen).toEqual(['a2']);
    expect(cache.get('k2')).toBeUndefined();
    cache.deleteWhere(['app:a9'], everyone);
    expect(cache.get('k3')).toBeUndefined();
    // `affected` decides among those filed: k1 stays
    cache.deleteWhere(['tenant:t1'], (v) => v.apps[0] !== 'a1');
    expect(cache.get('k1')?.apps).toEqual(['a1']);
  });

  it("files a replaced entry under its new value's names only", () => {
    const cache = lru();
    cache.set('k1', held('t1', ['a1'], 's1'));
    cache.set('k1', held('t1', ['a1', 'a2'], 's1'));
    cache.deleteWhere(['app:a2'], everyone);
    expect(cache.get('k1')).toBeUndefined();
    cache.set('k1', held('t1', ['a1', 'a2']));
    cache.set('k1', held('t1', ['a1']));
    // a2 no longer names k1: nothing is looked at
    const seen: string[] = [];
    cache.deleteWhere(['app:a2'], (v) => (seen.push(v.tenant), true));
    expect(seen).toEqual([]);
    expect(cache.get('k1')).toBeDefined();
    // the tenant, filed by both values, still finds it
    cache.deleteWhere(['tenant:t1']);
    expect(cache.get('k1')).toBeUndefined();
    expect(cache.names).toBe(0);
  });

  it('finds every key of a name as keys come and go under it', () => {
    const cache = lru();
    cache.set('k1', held('t1', ['a1']));
    cache.set('k2', held('t1', ['a1']));
    cache.set('k3', held('t1', ['a1']));
    cache.delete('k2');
    cache.set('k4', held('t2', ['a1']));
    cache.delete('k1');
    cache.set('k1', held('t1', ['a2']));
    cache.deleteWhere(['app:a1'], everyone);
    expect(['k1', 'k2', 'k3', 'k4'].map((k) => cache.get(k)?.apps[0])).toEqual(['a2', undefined, undefined, undefined]);
    cache.deleteWhere(['tenant:t1'], everyone);
    expect(cache.get('k1')).toBeUndefined();
    expect(cache.names).toBe(0);
  });

  it('keeps nothing filed for an entry that left the LRU, by delete, eviction or expiry', async () => {
    const cache = lru(2);
    cache.set('k1', held('t1', ['a1'], 's1'));
    cache.set('k2', held('t1', ['a2']));
    cache.set('k3', held('t2', ['a3']));
    // k1 was evicted: its session and application are no longer filed
    expect(cache.get('k1')).toBeUndefined();
    expect(cache.names).toBe(4);
    cache.delete('k2');
    cache.delete('k3');
    expect(cache.names).toBe(0);

    const short = lru(10, 1);
    short.set('k1', held('t1', ['a1']));
    await new Promise((r) => setTimeout(r, 10));
    expect(short.get('k1')).toBeUndefined();
    expect(short.names).toBe(0);
  });

  it('does not keep an entry whose lifetime is already over', () => {
    const cache = lru(10);
    cache.set('k1', held('t1', ['a1']), 0);
    expect(cache.get('k1')).toBeUndefined();
    expect(cache.names).toBe(0);
  });
});
