/**
 * The isolation unit's policy (isolate-cache.ts) with fake isolates: an isolate serves one tenant, and is reused
 * only when nothing of the last invocation can remain. The same policy runs with real isolates in isolation.spec.ts.
 */
import { IsolateCache, type CachedIsolate, type DiscardReason, type IsolateLike } from './isolate-cache';

const MB = 1024 * 1024;

class FakeIsolate implements IsolateLike {
  isDisposed = false;
  cpuTime = 0n;
  heap = 2 * MB;
  failStats = false;
  getHeapStatisticsSync() {
    if (this.failStats) throw new Error('Isolate is disposed');
    return { used_heap_size: this.heap, externally_allocated_size: 0 };
  }
  /** `ms` of CPU spent running in the isolate. */
  burn(ms: number): void {
    this.cpuTime += BigInt(ms) * 1_000_000n;
  }
}

interface Entry extends CachedIsolate {
  isolate: FakeIsolate;
  name: string;
}

function setup(overrides: { maxIdle?: number; maxIdleMs?: number } = {}) {
  let now = 1000;
  const discarded: Array<[DiscardReason, string]> = [];
  const cache = new IsolateCache<Entry>({
    maxIdle: overrides.maxIdle ?? 4,
    maxReusableHeapBytes: 16 * MB,
    maxIdleCpuNs: 50n * 1_000_000n,
    maxIdleMs: overrides.maxIdleMs ?? 60_000,
    dispose: (e) => {
      e.isolate.isDisposed = true;
    },
    onDiscard: (reason, e) => discarded.push([reason, e.name]),
    now: () => now,
  });
  const entry = (owner: string | null, name = owner ?? 'anonymous'): Entry => ({ isolate: new FakeIsolate(), owner, name });
  return { cache, discarded, entry, advance: (ms: number) => (now += ms) };
}

describe('IsolateCache', () => {
  it('gives a parked isolate back to its own tenant only', () => {
    const { cache, entry, discarded } = setup();
    expect(cache.take('a')).toBeNull();
    const a = entry('a');
    cache.release(a, true);
    expect(cache.take('b')).toBeNull();
    expect(cache.take('a')).toBe(a);
    expect(cache.take('a')).toBeNull(); // taken: one invocation at a time
    expect(a.isolate.isDisposed).toBe(false);
    expect(discarded).toEqual([]);
  });

  it('gives the most recently parked isolate of the tenant', () => {
    const { cache, entry } = setup();
    const first = entry('a', 'first');
    const second = entry('a', 'second');
    cache.release(first, true);
    cache.release(second, true);
    expect(cache.take('a')).toBe(second);
    expect(cache.take('a')).toBe(first);
  });

  it('disposes the isolate of an invocation that did not answer normally', () => {
    const { cache, entry, discarded } = setup();
    const a = entry('a');
    cache.release(a, false);
    expect(a.isolate.isDisposed).toBe(true);
    expect(cache.take('a')).toBeNull();
    expect(discarded).toEqual([['failed', 'a']]);
  });

  it('never reuses the isolate of an invocation without a tenant', () => {
    const { cache, entry, discarded } = setup();
    const anon = entry(null);
    cache.release(anon, true);
    expect(anon.isolate.isDisposed).toBe(true);
    expect(cache.size).toBe(0);
    expect(discarded).toEqual([['no-tenant', 'anonymous']]);
  });

  it('disposes an isolate left with a large heap (no memory pressure carried over)', () => {
    const { cache, entry, discarded } = setup();
    const a = entry('a');
    a.isolate.heap = 40 * MB;
    cache.release(a, true);
    expect(a.isolate.isDisposed).toBe(true);
    expect(discarded).toEqual([['heap', 'a']]);
    const unreadable = entry('b');
    unreadable.isolate.failStats = true;
    cache.release(unreadable, true);
    expect(unreadable.isolate.isDisposed).toBe(true);
  });

  it('disposes a parked isolate that runs something (CPU while parked), when taken or when swept', () => {
    const { cache, entry, discarded } = setup();
    const quiet = entry('a', 'quiet');
    const busy = entry('a', 'busy');
    const swept = entry('b', 'swept');
    cache.release(quiet, true);
    cache.release(busy, true);
    cache.release(swept, true);
    quiet.isolate.burn(5); // V8 housekeeping (handle release, a GC) is tolerated
    busy.isolate.burn(400); // a callback left behind, running
    expect(cache.take('a')).toBe(quiet); // the busy one was skipped and disposed
    expect(busy.isolate.isDisposed).toBe(true);
    swept.isolate.burn(60);
    cache.sweep();
    expect(swept.isolate.isDisposed).toBe(true);
    expect(cache.take('b')).toBeNull();
    expect(discarded).toEqual([
      ['idle-cpu', 'busy'],
      ['idle-cpu', 'swept'],
    ]);
  });

  it('keeps at most maxIdle parked isolates, evicting the least recently parked', () => {
    const { cache, entry, discarded } = setup({ maxIdle: 2 });
    const [a, b, c] = [entry('a'), entry('b'), entry('c')];
    cache.release(a, true);
    cache.release(b, true);
    cache.release(c, true);
    expect(a.isolate.isDisposed).toBe(true);
    expect(cache.owners()).toEqual(['b', 'c']);
    expect(discarded).toEqual([['evicted', 'a']]);
    const none = setup({ maxIdle: 0 });
    const x = none.entry('x');
    none.cache.release(x, true);
    expect(x.isolate.isDisposed).toBe(true); // maxIdle 0: an isolate per invocation
  });

  it('disposes isolates parked too long, skips isolates disposed meanwhile, and clears', () => {
    const { cache, entry, advance } = setup({ maxIdleMs: 10_000 });
    const old = entry('old');
    cache.release(old, true);
    advance(9_000);
    const recent = entry('recent');
    cache.release(recent, true);
    advance(2_000);
    cache.sweep();
    expect(old.isolate.isDisposed).toBe(true);
    expect(cache.owners()).toEqual(['recent']);
    recent.isolate.isDisposed = true; // e.g. memory limit
    expect(cache.take('recent')).toBeNull();
    const last = entry('last');
    cache.release(last, true);
    cache.clear();
    expect(last.isolate.isDisposed).toBe(true);
    expect(cache.size).toBe(0);
  });
});
