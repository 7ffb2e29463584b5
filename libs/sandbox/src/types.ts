/** What the caller (the reactor-service invoke use case) hands to the sandbox. */
export interface SandboxInvocation {
  /** CommonJS module for Node 16: `module.exports = async function (req) {...}`. */
  code: string;
  /** Already detokenized and validated by the caller; must be JSON-serializable. */
  args: unknown;
  configuration: Record<string, unknown>;
  /** Whether `req.svc` is a client (true) or null (false). */
  svc: boolean;
  /** Wall-clock deadline for the whole invocation, queueing included (synchronous invocations: 10000). */
  timeoutMs: number;
  /** Return the formula's console output in `logs`. */
  captureConsole?: boolean;
  /**
   * The isolation key: the tenant whose code and data this is. An isolate only ever runs invocations of one tenant
   * (README, "Isolation unit"). Without one, the invocation gets an isolate of its own, disposed when it ends.
   */
  tenant?: string;
  /**
   * Which hosts formula `fetch` may reach (README, "Egress"): the reactor's list, or the tenant's default. A function
   * is called on the first fetch only (a formula that never fetches costs no lookup). Absent: public internet.
   */
  egress?: EgressRule | (() => Promise<EgressRule>);
}

/** `allow`: the listed hosts (exact or `*.` patterns); `unlisted`: what happens to the others. */
export interface EgressRule {
  allow: readonly string[] | null;
  unlisted: 'allow' | 'deny';
}

/** One outbound request of formula code, for metrics and logs: never a URL path, header or body. */
export interface EgressRecord {
  host: string;
  /** `ok` (an HTTP answer, any status), `denied` (policy), `timeout`, `aborted`, `error` (anything else). */
  outcome: 'ok' | 'denied' | 'timeout' | 'aborted' | 'error';
  status?: number;
  /** Response body bytes (after decompression). */
  bytes: number;
  durationMs: number;
  tenant?: string;
}

/**
 * Host side of `req.svc`. `method` is one of {@link SVC_METHODS}; `args` are the JSON arguments of the call
 * (e.g. `call('tokens.retrieve', ['<id>'])`). Resolve with JSON as the HTTP API returns it; reject with
 * `{status, body}` where `body` is the problem document. `ctx` carries the invocation's deadline (epoch ms) and a
 * signal aborted when the invocation ends: use them for the RPC's own deadline so nothing outlives the invocation.
 */
export interface SvcBridge {
  call(method: string, args: unknown[], ctx?: SvcCallContext): Promise<unknown>;
}

export interface SvcCallContext {
  deadline: number;
  signal: AbortSignal;
}

export const SVC_METHODS = [
  'tokens.create',
  'tokens.retrieve',
  'tokens.update',
  'tokens.delete',
  'tokens.list',
  'tokens.search',
  'tokenize',
  'detokenize',
] as const;
export type SvcMethod = (typeof SVC_METHODS)[number];

export interface SandboxProblem {
  status: number;
  title: string;
  detail?: string;
  errors?: Record<string, string[]>;
}

export interface SandboxCustomResponse {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export type SandboxOutcome =
  | { ok: true; result: { raw?: unknown; tokenize?: unknown }; logs?: string[] }
  | { ok: false; problem: SandboxProblem; custom?: SandboxCustomResponse; logs?: string[] };

export interface SandboxPoolOptions {
  /** Worker processes. Default 2. */
  size?: number;
  /** Concurrent invocations per worker process (each in its own isolate). Default 4. */
  concurrency?: number;
  /** Memory limit of each isolate in MB. Default 64. */
  memoryLimitMb?: number;
  /**
   * Allow formula `fetch` to reach loopback/private/link-local addresses. Default: the environment's
   * `ALLOW_PRIVATE_EGRESS` (true, 1 or yes; @coffer/egress allowPrivateEgressFromEnv).
   */
  allowPrivateEgress?: boolean;
  /** Host names exempt from the address check (operator allow-list; tests). Redirect targets are still checked. */
  allowHosts?: string[];
  /** Limit on the JSON of `{raw, tokenize}` (and of a CustomHttpResponseError). Default 1 MiB. */
  maxResultBytes?: number;
  /** DNS resolution for formula `fetch` (tests inject one). */
  resolver?: (host: string) => Promise<string[]>;
  /** Response body limit of formula `fetch`. Default 5 MiB. */
  maxFetchBytes?: number;
  /** Invocations waiting for a free isolate beyond this are refused with 503. Default 1000. */
  maxQueue?: number;
  /**
   * Invocations one tenant may have running at once (size × concurrency slots in all). Default: half the slots,
   * rounded up, so one tenant's long-running code always leaves the other half to everyone else.
   */
  maxRunningPerTenant?: number;
  /** Invocations one tenant may have waiting; more are refused with 503. Default 100. */
  maxQueuedPerTenant?: number;
  /**
   * Isolates each worker keeps parked for their tenant's next invocation (all tenants together, least recently used
   * go first). Default 8. 0: an isolate per invocation.
   */
  maxIdleIsolates?: number;
  /**
   * Unset or 0: the worker processes start with the pool and stay. Above 0: they start with the first invocation
   * (its deadline counts from the moment a worker is ready) and stop once no invocation ran for this many ms, so an
   * idle service holds none; the next invocation starts them again.
   */
  idleExitMs?: number;
  /** Path of the worker entry (default: found next to this module / the bundle). */
  workerScript?: string;
  /** Every outbound request of formula code, when it ends (metrics, logs). */
  onEgress?: (record: EgressRecord) => void;
  /** Diagnostics (worker exits, restarts). Never receives formula data. */
  onEvent?: (event: SandboxPoolEvent) => void;
}

export type SandboxPoolEvent =
  | { type: 'worker-started'; pid: number }
  | { type: 'worker-exited'; pid: number; code: number | null; signal: string | null; inFlight: number; stderrTail?: string }
  | { type: 'worker-retiring'; pid: number; reason: string }
  | { type: 'worker-killed'; pid: number; reason: string }
  /** A parked isolate ran something after its invocation ended (work a formula left behind): it was disposed. */
  | { type: 'isolate-discarded'; pid: number; reason: string };
