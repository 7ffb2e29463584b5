/**
 * Messages between the pool (reactor-service process) and its sandbox worker processes, over the IPC channel
 * (`serialization: 'advanced'`). Formula data crosses only as JSON strings and byte arrays.
 */

/** Limits the pool hands to each worker at start (env `COFFER_SANDBOX_CONFIG`). */
export interface WorkerConfig {
  memoryLimitMb: number;
  concurrency: number;
  maxResultBytes: number;
  maxTimers: number;
  maxLogLines: number;
  maxLogBytes: number;
  maxSvcCalls: number;
  maxFetchCalls: number;
  /** Request bodies larger than this are refused before they leave the worker. */
  maxFetchBytes: number;
  maxScriptsPerIsolate: number;
  /** Isolates parked for their tenant's next invocation, per worker (all tenants together). */
  maxIdleIsolates?: number;
  /** An isolate whose heap is above this after an invocation is not reused. */
  maxReusableHeapMb?: number;
}

export type FailKind = 'timeout' | 'memory' | 'load' | 'uncaught' | 'too-large' | 'internal';

export type HostToWorker =
  | {
      t: 'run';
      id: number;
      code: string;
      /** JSON of `{args, configuration}`. */
      req: string;
      svc: boolean;
      capture: boolean;
      remainingMs: number;
      /** The isolation key (the tenant): the invocation runs in an isolate of this tenant only; none: its own. */
      tenant?: string;
    }
  | { t: 'result'; id: number; callId: number; ok: boolean; payload: string; body?: Uint8Array }
  | { t: 'exit' };

export type WorkerToHost =
  | { t: 'ready'; pid: number }
  /** `out` is the isolate's answer: `R<result JSON>` or `E<error JSON>`. */
  | { t: 'done'; id: number; out?: string; fail?: FailKind; message?: string; logs?: string[]; compiled?: boolean }
  | { t: 'call'; id: number; callId: number; kind: 'fetch' | 'svc'; payload: string; body?: Uint8Array }
  | { t: 'cancel'; id: number; callId: number }
  | { t: 'retire'; reason: string }
  /** An isolate was disposed because something left behind ran in it while it was parked. */
  | { t: 'discarded'; reason: string };

export const DEFAULTS = {
  size: 2,
  concurrency: 4,
  memoryLimitMb: 64,
  maxResultBytes: 1024 * 1024,
  maxFetchBytes: 5 * 1024 * 1024,
  maxQueue: 1000,
  maxQueuedPerTenant: 100,
  maxTimers: 100,
  maxLogLines: 200,
  maxLogBytes: 64 * 1024,
  maxSvcCalls: 1000,
  maxFetchCalls: 100,
  /** In-flight fetch/svc calls per invocation; more wait in line. */
  maxConcurrentCalls: 16,
  maxScriptsPerIsolate: 200,
  /** Parked isolates per worker (a tenant's isolate is reused only by that tenant; least recently used go first). */
  maxIdleIsolates: 8,
  /** Heap (used + external) above which an isolate is not reused: no memory pressure carried to the next invocation. */
  maxReusableHeapMb: 16,
  /** CPU a parked isolate may use (V8 housekeeping) before it is deemed to run something left behind, and disposed. */
  maxIdleCpuMs: 50,
  /**
   * After the formula answered, how long the calls still in its isolate (a timer callback that fired just before)
   * may take to return before the isolate is disposed instead of reused.
   */
  quiesceMs: 50,
  /** How often parked isolates are checked. */
  idleSweepMs: 250,
  /** A parked isolate unused this long is disposed. */
  maxIdleMs: 5 * 60_000,
  /** After the deadline, how long a worker may take to confirm the abort before it is killed. */
  killGraceMs: 1500,
  workerStartTimeoutMs: 30_000,
} as const;
