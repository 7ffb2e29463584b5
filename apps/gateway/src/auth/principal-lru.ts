import { LRUCache } from 'lru-cache';
import type { Principal } from '@coffer/contracts';

/** The names an invalidation can give a cached principal by (`namesOf`). */
export const nameOf = {
  tenant: (id: string) => `tenant:${id}`,
  session: (id: string) => `session:${id}`,
  application: (id: string) => `application:${id}`,
  user: (id: string) => `user:${id}`,
};

/**
 * What an invalidation can name a cached principal by: its tenant, its session, its application or the application
 * that authorized its session, and the person signed in with it.
 */
export function namesOf(p: Principal): string[] {
  const names = [nameOf.tenant(p.tenantId), nameOf.application(p.applicationId)];
  if (p.sessionId) names.push(nameOf.session(p.sessionId));
  if (p.authorizer?.applicationId && p.authorizer.applicationId !== p.applicationId) names.push(nameOf.application(p.authorizer.applicationId));
  if (p.user?.id) names.push(nameOf.user(p.user.id));
  return names;
}

/**
 * An LRU of principals by key hash that also files each key hash under the names of its principal (`namesOf`), so an
 * invalidation looks only at the entries it may concern. Scanning the whole cache instead cost about a millisecond per
 * thousand entries, on the gateway's event loop, for every session authorized or expired.
 */
export class PrincipalLru<V> {
  private readonly lru: LRUCache<string, V & {}>;
  /** key hashes by name; an entry leaves it when it leaves the LRU (dispose: deleted, evicted, expired, replaced) */
  private readonly filed = new Map<string, Set<string>>();

  constructor(
    options: { max: number; ttl: number },
    private readonly principalOf: (value: V) => Principal,
  ) {
    this.lru = new LRUCache<string, V & {}>({ ...options, dispose: (value, hash) => this.unfile(hash, value) });
  }

  get(hash: string): V | undefined {
    return this.lru.get(hash);
  }

  /** `ttlMs`: this entry's own lifetime when shorter than the cache's; none left (≤ 0), the entry is not kept */
  set(hash: string, value: V & {}, ttlMs?: number): void {
    // lru-cache reads a ttl of 0 as "no expiry"
    if (ttlMs !== undefined && ttlMs <= 0) return;
    // a value already held under `hash` is disposed (unfiled) inside set: the new one is filed after it
    this.lru.set(hash, value, ttlMs === undefined ? undefined : { ttl: ttlMs });
    if (this.lru.peek(hash) !== value) return;
    for (const name of namesOf(this.principalOf(value))) {
      let hashes = this.filed.get(name);
      if (!hashes) this.filed.set(name, (hashes = new Set()));
      hashes.add(hash);
    }
  }

  delete(hash: string): void {
    this.lru.delete(hash);
  }

  /** Deletes the entries filed under any of `names` whose principal `affected` says so. */
  deleteWhere(names: string[], affected: (p: Principal) => boolean): void {
    const candidates = new Set<string>();
    for (const name of names) for (const hash of this.filed.get(name) ?? []) candidates.add(hash);
    for (const hash of candidates) {
      const value = this.lru.peek(hash, { allowStale: true });
      if (value !== undefined && affected(this.principalOf(value))) this.lru.delete(hash);
    }
  }

  /** How many names have entries filed under them (for tests: the index holds nothing the LRU does not). */
  get names(): number {
    return this.filed.size;
  }

  private unfile(hash: string, value: V): void {
    for (const name of namesOf(this.principalOf(value))) {
      const hashes = this.filed.get(name);
      if (!hashes) continue;
      hashes.delete(hash);
      if (!hashes.size) this.filed.delete(name);
    }
  }
}
