/**
 * The isolation unit of the sandbox (README, "Isolation unit"): which isolate an invocation may run in.
 *
 * - An isolate belongs to one tenant from its first invocation to its disposal; an invocation of another tenant
 *   never enters it. Whatever escapes a context (an engine-scheduled task we do not know of) can only ever reach
 *   the same tenant's later invocations, and the checks below end even that.
 * - After an invocation, an isolate is parked for its tenant's next invocation only if nothing of that invocation
 *   may remain: the invocation answered normally, the heap it leaves is small (no memory pressure carried over), and
 *   the tenant is known. Otherwise it is disposed (disposal terminates anything still running in it).
 * - A parked isolate must stay quiet: if it uses CPU while parked (beyond a little V8 housekeeping), something the
 *   formula left is running in it, and it is disposed - when the sweep notices, or at the latest when its tenant's
 *   next invocation would take it.
 *
 * Kept free of isolated-vm so that the policy is unit-tested with fake isolates (isolate-cache.spec.ts).
 */

/** What the cache needs of an isolate (an `ivm.Isolate` fits). */
export interface IsolateLike {
  readonly isDisposed: boolean;
  /** CPU time spent running in the isolate, in nanoseconds. */
  readonly cpuTime: bigint;
  getHeapStatisticsSync(): { used_heap_size: number; externally_allocated_size: number };
}

export interface CachedIsolate {
  readonly isolate: IsolateLike;
  /** The tenant whose invocations run in it; null while fresh (only the runtime has ever run in it). */
  owner: string | null;
}

export type DiscardReason =
  /** the invocation did not answer normally (deadline, memory, uncaught exception, sandbox error) */
  | 'failed'
  /** an invocation without a tenant: its isolate is its own */
  | 'no-tenant'
  /** the heap left behind is above the reuse limit */
  | 'heap'
  /** it used CPU while parked: something left behind was running */
  | 'idle-cpu'
  /** least recently used beyond the cache size, or parked too long */
  | 'evicted';

export interface IsolateCacheOptions<T extends CachedIsolate> {
  /** Parked isolates kept (all tenants together); the least recently used beyond it are disposed. */
  maxIdle: number;
  /** Heap (used + external) above which an isolate is not reused. */
  maxReusableHeapBytes: number;
  /** CPU an isolate may use while parked (V8 housekeeping: handle release, GC) before it is disposed, in ns. */
  maxIdleCpuNs: bigint;
  /** Parked longer than this, an isolate is disposed (memory of tenants gone quiet). */
  maxIdleMs: number;
  /** Disposes an isolate (and what hangs on it). Must not throw. */
  dispose: (entry: T) => void;
  /** Told of every discard (for diagnostics; 'idle-cpu' is worth a warning). */
  onDiscard?: (reason: DiscardReason, entry: T) => void;
  now?: () => number;
}

interface Parked<T> {
  entry: T;
  owner: string;
  cpu: bigint;
  at: number;
}

export class IsolateCache<T extends CachedIsolate> {
  /** Least recently parked first. */
  private idle: Parked<T>[] = [];
  private readonly now: () => number;

  constructor(private readonly opts: IsolateCacheOptions<T>) {
    this.now = opts.now ?? Date.now;
  }

  get size(): number {
    return this.idle.length;
  }

  /** Owners of the parked isolates (most recently parked last), for diagnostics. */
  owners(): string[] {
    return this.idle.map((p) => p.owner);
  }

  /** The most recently parked isolate of `owner` that is still quiet, or null (the caller uses a fresh one). */
  take(owner: string): T | null {
    for (let i = this.idle.length - 1; i >= 0; i--) {
      const p = this.idle[i];
      if (p.owner !== owner) continue;
      this.idle.splice(i, 1);
      if (p.entry.isolate.isDisposed) continue;
      if (this.stirred(p)) {
        this.discard(p.entry, 'idle-cpu');
        continue;
      }
      return p.entry;
    }
    return null;
  }

  /**
   * After an invocation ended: parks the isolate for its owner's next invocation, or disposes it.
   * `clean` is false when the invocation did not answer normally.
   */
  release(entry: T, clean: boolean): void {
    if (entry.isolate.isDisposed) return;
    if (!clean) return this.discard(entry, 'failed');
    const owner = entry.owner;
    if (owner === null) return this.discard(entry, 'no-tenant');
    let heap: number;
    let cpu: bigint;
    try {
      const stats = entry.isolate.getHeapStatisticsSync();
      heap = stats.used_heap_size + stats.externally_allocated_size;
      cpu = entry.isolate.cpuTime;
    } catch {
      return this.discard(entry, 'failed');
    }
    if (!(heap <= this.opts.maxReusableHeapBytes)) return this.discard(entry, 'heap');
    this.idle.push({ entry, owner, cpu, at: this.now() });
    while (this.idle.length > Math.max(0, this.opts.maxIdle)) this.discard((this.idle.shift() as Parked<T>).entry, 'evicted');
  }

  /** Disposes parked isolates that used CPU while parked, or were parked too long. Call it periodically. */
  sweep(): void {
    const now = this.now();
    const keep: Parked<T>[] = [];
    const drop: Array<[T, DiscardReason]> = [];
    for (const p of this.idle) {
      if (p.entry.isolate.isDisposed) continue;
      if (this.stirred(p)) drop.push([p.entry, 'idle-cpu']);
      else if (now - p.at > this.opts.maxIdleMs) drop.push([p.entry, 'evicted']);
      else keep.push(p);
    }
    this.idle = keep;
    for (const [entry, reason] of drop) this.discard(entry, reason);
  }

  /** Disposes every parked isolate. */
  clear(): void {
    const all = this.idle;
    this.idle = [];
    for (const p of all) this.opts.dispose(p.entry);
  }

  private stirred(p: Parked<T>): boolean {
    try {
      return p.entry.isolate.cpuTime - p.cpu > this.opts.maxIdleCpuNs;
    } catch {
      return true;
    }
  }

  private discard(entry: T, reason: DiscardReason): void {
    this.opts.dispose(entry);
    this.opts.onDiscard?.(reason, entry);
  }
}
