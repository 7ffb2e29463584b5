/**
 * The worker's supply of isolates: a fresh one has the runtime compiled in it (off the invocation path: a spare is
 * prepared after each answer); a used one is parked for its tenant's next invocation when isolate-cache.ts allows;
 * compiled formulas are cached per isolate by the SHA-256 of their code (LRU, never from `cachedData`).
 */
import { createHash } from 'node:crypto';
import ivm from 'isolated-vm';
import { ISOLATE_RUNTIME } from './generated/isolate-runtime';
import { IsolateCache } from './isolate-cache';
import { DEFAULTS, type WorkerConfig } from './protocol';

/** An isolate with the runtime compiled in it and the formulas compiled for it. */
export interface Holder {
  isolate: ivm.Isolate;
  runtime: ivm.Script;
  scripts: Map<string, ivm.Script>;
  /** The tenant it belongs to (null: fresh, or an invocation without a tenant). */
  owner: string | null;
}

export interface IsolateSupplyHooks {
  /** V8 lost control of an isolate: the worker must be replaced. */
  onCatastrophicError(): void;
  /** A parked isolate ran something after its invocation (work a formula left behind) and was disposed. */
  onDiscardedForIdleCpu(): void;
  /** The worker is retiring: no spare is worth preparing. */
  retiring(): boolean;
}

/** Disposing an isolate terminates whatever still runs in it. */
export function disposeHolder(h: Holder): void {
  h.scripts.clear();
  if (!h.isolate.isDisposed) {
    try {
      h.isolate.dispose();
    } catch {
      /* already gone */
    }
  }
}

export class IsolateSupply {
  /** Parked isolates, by tenant (see isolate-cache.ts for when an isolate may be reused). */
  private readonly cache: IsolateCache<Holder>;
  /** A fresh isolate prepared ahead, for the next tenant that has none parked. */
  private spare: Holder | null = null;
  private spareScheduled = false;
  /** checks the parked isolates while there are any (none parked: no timer) */
  private sweeper?: NodeJS.Timeout;

  constructor(
    private readonly config: WorkerConfig,
    private readonly hooks: IsolateSupplyHooks,
  ) {
    this.cache = new IsolateCache<Holder>({
      maxIdle: config.maxIdleIsolates ?? DEFAULTS.maxIdleIsolates,
      maxReusableHeapBytes: (config.maxReusableHeapMb || DEFAULTS.maxReusableHeapMb) * 1024 * 1024,
      maxIdleCpuNs: BigInt(DEFAULTS.maxIdleCpuMs) * 1_000_000n,
      maxIdleMs: DEFAULTS.maxIdleMs,
      dispose: disposeHolder,
      onDiscard: (reason) => {
        // an isolate that ran something while parked is the trace of an attempt: the pool reports it
        if (reason === 'idle-cpu') hooks.onDiscardedForIdleCpu();
      },
    });
  }

  /**
   * The isolate for an invocation of `tenant`: its own parked one if the cache still has it, else a fresh one (the
   * spare, or a new one). Without a tenant, always a fresh one, disposed when the invocation ends.
   */
  async isolateFor(tenant: string | null): Promise<Holder> {
    const parked = tenant === null ? null : this.cache.take(tenant);
    if (parked) return parked;
    let h = this.spare;
    this.spare = null;
    if (h && h.isolate.isDisposed) h = null;
    h = h ?? (await this.newHolder());
    h.owner = tenant;
    return h;
  }

  /** An invocation is over: its isolate is parked for its tenant if `reusable` and the cache agrees, else disposed. */
  release(h: Holder, reusable: boolean): void {
    this.cache.release(h, reusable);
    if (this.sweeper || this.cache.size === 0) return;
    this.sweeper = setInterval(() => {
      this.cache.sweep();
      if (this.cache.size > 0) return;
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }, DEFAULTS.idleSweepMs);
    this.sweeper.unref();
  }

  /** The compiled formula, and whether it had to be compiled (a compile-cache miss). */
  async compile(h: Holder, code: string): Promise<{ script: ivm.Script; compiled: boolean }> {
    const hash = createHash('sha256').update(code).digest('hex');
    const hit = h.scripts.get(hash);
    if (hit) {
      h.scripts.delete(hash); // LRU: move to the end
      h.scripts.set(hash, hit);
      return { script: hit, compiled: false };
    }
    // Same line numbers as the author's code; never consumes cachedData.
    const wrapped = '(function (exports, require, module, __filename, __dirname) { ' + code + '\n})';
    const script = await h.isolate.compileScript(wrapped, { filename: 'formula.js' });
    h.scripts.set(hash, script);
    while (h.scripts.size > (this.config.maxScriptsPerIsolate || 200)) {
      const oldest = h.scripts.keys().next().value as string;
      h.scripts.get(oldest)?.release();
      h.scripts.delete(oldest);
    }
    return { script, compiled: true };
  }

  /** Prepares the spare after an invocation has answered (so as not to delay it). */
  scheduleSpare(): void {
    if (this.spare || this.spareScheduled || this.hooks.retiring()) return;
    this.spareScheduled = true;
    setImmediate(() => {
      if (this.spare || this.hooks.retiring()) {
        this.spareScheduled = false;
        return;
      }
      this.newHolder().then(
        (h) => {
          this.spareScheduled = false;
          if (this.spare || this.hooks.retiring()) disposeHolder(h);
          else this.spare = h;
        },
        () => {
          // the next invocation creates its own and reports the failure
          this.spareScheduled = false;
        },
      );
    });
  }

  /** Disposes every parked isolate and the spare (the worker is exiting). */
  clear(): void {
    this.cache.clear();
    if (this.spare) disposeHolder(this.spare);
    this.spare = null;
  }

  /** A fresh isolate with the runtime compiled (on the isolate's thread: this process stays free meanwhile). */
  private async newHolder(): Promise<Holder> {
    const isolate = new ivm.Isolate({ memoryLimit: this.config.memoryLimitMb || 64, onCatastrophicError: () => this.hooks.onCatastrophicError() });
    try {
      const runtime = await isolate.compileScript(ISOLATE_RUNTIME, { filename: 'coffer:runtime.js' });
      return { isolate, runtime, scripts: new Map(), owner: null };
    } catch (e) {
      if (!isolate.isDisposed) isolate.dispose();
      throw e;
    }
  }
}
