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
    }
  | { t: 'result'; id: number; callId: number; ok: boolean; payload: string; body?: Uint8Array }
  | { t: 'exit' };

export type WorkerToHost =
  | { t: 'ready'; pid: number }
  /** `out` is the isolate's answer: `R<result JSON>` or `E<error JSON>`. */
  | { t: 'done'; id: number; out?: string; fail?: FailKind; message?: string; logs?: string[]; compiled?: boolean }
  | { t: 'call'; id: number; callId: number; kind: 'fetch' | 'svc'; payload: string; body?: Uint8Array }
  | { t: 'cancel'; id: number; callId: number }
  | { t: 'retire'; reason: string };

export const DEFAULTS = {
  size: 2,
  concurrency: 4,
  memoryLimitMb: 64,
  maxResultBytes: 1024 * 1024,
  maxFetchBytes: 5 * 1024 * 1024,
  maxQueue: 1000,
  maxTimers: 100,
  maxLogLines: 200,
  maxLogBytes: 64 * 1024,
  maxSvcCalls: 1000,
  maxFetchCalls: 100,
  /** In-flight fetch/svc calls per invocation; more wait in line. */
  maxConcurrentCalls: 16,
  maxScriptsPerIsolate: 200,
  /** After the deadline, how long a worker may take to confirm the abort before it is killed. */
  killGraceMs: 1500,
  workerStartTimeoutMs: 30_000,
} as const;
