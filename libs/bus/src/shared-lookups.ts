interface Lookup<V> {
  answer: Promise<V>;
  /** whose data it reads; undefined until the lookup knows (a change to any tenant then detaches it) */
  tenantId: string | undefined;
  /** no change to its tenant came while it was under way: its answer may be kept */
  current: boolean;
}

/**
 * Lookups under way, by key, shared: who asks for a key while its lookup is under way waits for that answer instead of
 * starting another lookup (a burst of requests after a cache entry expires makes one call, not one each).
 *
 * A change to a tenant (`forgetTenant`) detaches that tenant's lookups under way: who asks afterwards starts a new
 * one, and what a detached lookup answers serves the callers it already had but is never kept, since it may have read
 * the data from before the change. So nobody who asks after a change is announced gets an answer read before it, and
 * a change to one tenant costs the other tenants' lookups nothing.
 */
export class SharedLookups<V> {
  private readonly byKey = new Map<string, Lookup<V>>();
  /** lookups not finished yet, the detached ones too */
  private unfinished = 0;

  /** lookups under way now that can be shared (not detached) */
  get size(): number {
    return this.byKey.size;
  }

  /**
   * Lookups not finished yet, detached or not: what a cap on the work under way must count, or a caller who can make
   * changes could detach lookups as fast as they start and have any number running.
   */
  get running(): number {
    return this.unfinished;
  }

  /** The answer of `key`'s lookup under way, if one is (and no change detached it). */
  underway(key: string): Promise<V> | undefined {
    return this.byKey.get(key)?.answer;
  }

  /**
   * The answer for `key`: the lookup under way, or a new one by `look`. `tenantId` is whose data `look` reads, when
   * known before it starts; `look` may name it once it knows (`learnTenant`). `keep` gets the answer to cache it,
   * unless a change to its tenant came while it was read.
   */
  ask(key: string, tenantId: string | undefined, look: (learnTenant: (tenantId: string) => void) => Promise<V>, keep: (value: V) => void): Promise<V> {
    const underway = this.byKey.get(key);
    if (underway) return underway.answer;
    const lookup = { tenantId, current: true } as Lookup<V>;
    // filed before `look` starts, so a `look` that fails at once is unfiled by `settle` like any other
    this.byKey.set(key, lookup);
    lookup.answer = this.settle(key, lookup, look, keep);
    return lookup.answer;
  }

  /** `tenantId` changed: its lookups under way (and those that do not know their tenant yet) are not shared or kept. */
  forgetTenant(tenantId: string): void {
    for (const [key, lookup] of this.byKey) {
      if (lookup.tenantId !== undefined && lookup.tenantId !== tenantId) continue;
      lookup.current = false;
      this.byKey.delete(key);
    }
  }

  /**
   * A change that cannot be matched to the lookups under way, since they learn whose data they read only from their
   * answer (a key's principal): every one of them is detached.
   */
  forgetAll(): void {
    for (const lookup of this.byKey.values()) lookup.current = false;
    this.byKey.clear();
  }

  private async settle(key: string, lookup: Lookup<V>, look: (learnTenant: (tenantId: string) => void) => Promise<V>, keep: (value: V) => void): Promise<V> {
    this.unfinished++;
    try {
      const value = await look((tenantId) => {
        lookup.tenantId = tenantId;
      });
      if (lookup.current) keep(value);
      return value;
    } finally {
      this.unfinished--;
      if (this.byKey.get(key) === lookup) this.byKey.delete(key);
    }
  }
}
