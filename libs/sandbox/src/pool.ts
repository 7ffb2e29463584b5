import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { egressFetch, EgressFetchError, releaseAgent } from '@coffer/egress';
import { EgressPolicy } from '@coffer/egress';
import { failureProblem, outcomeFromIsolate, parseUntrustedJson, runtimeError, timeoutProblem, unavailableProblem } from './outcome';
import { DEFAULTS, type HostToWorker, type WorkerConfig, type WorkerToHost } from './protocol';
import {
  SVC_METHODS,
  type SandboxInvocation,
  type SandboxOutcome,
  type SandboxPoolEvent,
  type SandboxPoolOptions,
  type SvcBridge,
} from './types';

const MAX_TIMEOUT_MS = 15 * 60 * 1000;
const SVC_METHOD_SET: ReadonlySet<string> = new Set(SVC_METHODS);

interface WorkerHandle {
  child: ChildProcess;
  pid: number;
  ready: boolean;
  draining: boolean;
  /** A replacement has been started already (it retired). */
  replaced: boolean;
  exited: boolean;
  active: Map<number, Task>;
  stderrTail: string;
  startTimer: NodeJS.Timeout | null;
  /** Tenants it ran lately (least recent first): it may hold a warm isolate for them. */
  recent: Map<string, true>;
}

interface Task {
  id: number;
  inv: SandboxInvocation;
  svc: SvcBridge | null;
  req: string;
  /** The isolation key, validated. */
  tenant: string | undefined;
  deadline: number;
  timeoutMs: number;
  resolve: (o: SandboxOutcome) => void;
  finished: boolean;
  timer: NodeJS.Timeout | null;
  killTimer: NodeJS.Timeout | null;
  worker: WorkerHandle | null;
  calls: Map<number, AbortController>;
  inflight: number;
  waiting: Array<() => void>;
  svcCount: number;
  fetchCount: number;
}

interface WorkerLaunch {
  script: string;
  execArgv: string[];
  env: Record<string, string>;
}

/** Finds the worker entry: the bundled `sandbox-worker.js` next to the running bundle, else the sources (ts-node). */
export function resolveWorkerLaunch(override?: string): WorkerLaunch {
  const candidates = override ? [override] : [join(__dirname, 'sandbox-worker.js'), join(__dirname, 'worker.js'), join(__dirname, 'worker.ts')];
  const script = candidates.find((c) => existsSync(c));
  if (!script) throw new Error(`Sandbox worker entry not found (looked for ${candidates.join(', ')})`);
  const execArgv = ['--no-node-snapshot'];
  const env: Record<string, string> = {};
  if (script.endsWith('.ts')) {
    const register = findUp(dirname(script), join('node_modules', 'ts-node', 'register', 'transpile-only.js'));
    if (!register) throw new Error('Running the sandbox worker from TypeScript sources needs ts-node');
    execArgv.push('-r', register);
    env['TS_NODE_TRANSPILE_ONLY'] = 'true';
    env['TS_NODE_SKIP_PROJECT'] = 'true';
    env['TS_NODE_COMPILER_OPTIONS'] = JSON.stringify({
      module: 'node16',
      moduleResolution: 'node16',
      target: 'es2022',
      esModuleInterop: true,
      sourceMap: false,
    });
  }
  return { script, execArgv, env };
}

function findUp(start: string, rel: string): string | null {
  let dir = start;
  for (;;) {
    const candidate = join(dir, rel);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/**
 * A supervised pool of sandbox worker processes running formula code in isolated-vm. `run` never rejects: every
 * failure is an outcome with a problem document. See README.md in this folder.
 */
export class SandboxPool {
  readonly egress: EgressPolicy;
  private readonly size: number;
  private readonly concurrency: number;
  private readonly maxResultBytes: number;
  private readonly maxFetchBytes: number;
  private readonly maxQueue: number;
  private readonly workerConfig: WorkerConfig;
  private readonly launch: WorkerLaunch;
  private readonly onEvent?: (e: SandboxPoolEvent) => void;
  private readonly workers = new Set<WorkerHandle>();
  private readonly queue: Task[] = [];
  private seq = 0;
  private compiles = 0;
  private closed = false;
  private startFailures = 0;
  private respawnTimer: NodeJS.Timeout | null = null;

  constructor(opts: SandboxPoolOptions = {}) {
    this.size = Math.max(1, Math.floor(opts.size ?? DEFAULTS.size));
    this.concurrency = Math.max(1, Math.floor(opts.concurrency ?? DEFAULTS.concurrency));
    this.maxResultBytes = opts.maxResultBytes ?? DEFAULTS.maxResultBytes;
    this.maxFetchBytes = opts.maxFetchBytes ?? DEFAULTS.maxFetchBytes;
    this.maxQueue = opts.maxQueue ?? DEFAULTS.maxQueue;
    this.onEvent = opts.onEvent;
    this.egress = new EgressPolicy({
      allowPrivate: opts.allowPrivateEgress ?? (process.env['ALLOW_PRIVATE_EGRESS'] ?? '').toLowerCase() === 'true',
      allowHosts: opts.allowHosts,
      resolver: opts.resolver,
    });
    this.workerConfig = {
      memoryLimitMb: opts.memoryLimitMb ?? DEFAULTS.memoryLimitMb,
      concurrency: this.concurrency,
      maxResultBytes: this.maxResultBytes,
      maxTimers: DEFAULTS.maxTimers,
      maxLogLines: DEFAULTS.maxLogLines,
      maxLogBytes: DEFAULTS.maxLogBytes,
      maxSvcCalls: DEFAULTS.maxSvcCalls,
      maxFetchCalls: DEFAULTS.maxFetchCalls,
      maxFetchBytes: this.maxFetchBytes,
      maxScriptsPerIsolate: DEFAULTS.maxScriptsPerIsolate,
      maxIdleIsolates: Math.max(0, Math.floor(opts.maxIdleIsolates ?? DEFAULTS.maxIdleIsolates)),
      maxReusableHeapMb: DEFAULTS.maxReusableHeapMb,
    };
    this.launch = resolveWorkerLaunch(opts.workerScript);
    for (let i = 0; i < this.size; i++) this.spawn();
  }

  /** Runs one invocation. Never rejects. */
  run(inv: SandboxInvocation, svc: SvcBridge | null): Promise<SandboxOutcome> {
    if (this.closed) return Promise.resolve({ ok: false, problem: unavailableProblem('The reactor sandbox is shut down') });
    const timeoutMs = Math.min(Math.max(Math.floor(Number(inv.timeoutMs) || 0), 1), MAX_TIMEOUT_MS);
    if (typeof inv.code !== 'string') {
      return Promise.resolve({ ok: false, problem: failureProblem('load', 'Reactor code must be a string', timeoutMs, this.maxResultBytes) });
    }
    let req: string;
    try {
      req = JSON.stringify({ args: inv.args === undefined ? {} : inv.args, configuration: inv.configuration ?? {} });
    } catch {
      return Promise.resolve({ ok: false, problem: runtimeError('Reactor arguments are not serializable as JSON') });
    }
    if (this.startFailures >= 3 && ![...this.workers].some((w) => w.ready && !w.draining)) {
      return Promise.resolve({ ok: false, problem: unavailableProblem('The reactor sandbox could not start') });
    }
    if (inv.tenant !== undefined && (typeof inv.tenant !== 'string' || inv.tenant.length > 256)) {
      return Promise.resolve({ ok: false, problem: runtimeError('Invalid sandbox tenant') });
    }
    if (this.queue.length >= this.maxQueue) {
      return Promise.resolve({ ok: false, problem: unavailableProblem('The reactor sandbox is saturated') });
    }
    return new Promise<SandboxOutcome>((resolve) => {
      const task: Task = {
        id: ++this.seq,
        inv,
        svc,
        req,
        tenant: inv.tenant || undefined,
        deadline: Date.now() + timeoutMs,
        timeoutMs,
        resolve,
        finished: false,
        timer: null,
        killTimer: null,
        worker: null,
        calls: new Map(),
        inflight: 0,
        waiting: [],
        svcCount: 0,
        fetchCount: 0,
      };
      task.timer = setTimeout(() => this.onDeadline(task), timeoutMs);
      this.queue.push(task);
      this.pump();
    });
  }

  /** Stops every worker; queued and running invocations end with 503. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.respawnTimer) clearTimeout(this.respawnTimer);
    for (const task of this.queue.splice(0)) this.finish(task, { ok: false, problem: unavailableProblem('The reactor sandbox is shut down') });
    const exits: Promise<void>[] = [];
    for (const w of this.workers) {
      for (const task of w.active.values()) this.finish(task, { ok: false, problem: unavailableProblem('The reactor sandbox is shut down') });
      exits.push(this.stopWorker(w));
    }
    await Promise.all(exits);
    await releaseAgent(this.egress);
  }

  /** Current state, for health checks and metrics. */
  stats(): { workers: number; ready: number; busy: number; queued: number; compiles: number } {
    let ready = 0;
    let busy = 0;
    for (const w of this.workers) {
      if (w.ready && !w.draining) ready++;
      busy += w.active.size;
    }
    return { workers: this.workers.size, ready, busy, queued: this.queue.length, compiles: this.compiles };
  }

  // ---------------------------------------------------------------- scheduling

  private pump(): void {
    while (this.queue.length > 0) {
      const task = this.queue[0];
      // the least busy worker; a worker that ran this tenant lately first (it may hold a warm isolate for it)
      let best: WorkerHandle | null = null;
      let bestWarm = false;
      for (const w of this.workers) {
        if (!w.ready || w.draining || w.exited || w.active.size >= this.concurrency) continue;
        const warm = task.tenant !== undefined && w.recent.has(task.tenant);
        if (!best || (warm && !bestWarm) || (warm === bestWarm && w.active.size < best.active.size)) {
          best = w;
          bestWarm = warm;
        }
      }
      if (!best) return;
      this.queue.shift();
      if (task.finished) continue;
      task.worker = best;
      best.active.set(task.id, task);
      if (task.tenant !== undefined) {
        best.recent.delete(task.tenant);
        best.recent.set(task.tenant, true);
        if (best.recent.size > Math.max(1, this.workerConfig.maxIdleIsolates ?? 0)) best.recent.delete(best.recent.keys().next().value as string);
      }
      const msg: HostToWorker = {
        t: 'run',
        id: task.id,
        code: task.inv.code,
        req: task.req,
        svc: Boolean(task.inv.svc && task.svc),
        capture: Boolean(task.inv.captureConsole),
        remainingMs: Math.max(1, task.deadline - Date.now()),
        ...(task.tenant !== undefined ? { tenant: task.tenant } : {}),
      };
      this.sendTo(best, msg);
    }
  }

  private finish(task: Task, outcome: SandboxOutcome): void {
    if (task.finished) return;
    task.finished = true;
    if (task.timer) clearTimeout(task.timer);
    for (const ac of task.calls.values()) ac.abort();
    task.calls.clear();
    const waiting = task.waiting;
    task.waiting = [];
    for (const wake of waiting) wake(); // they see `finished` and return
    task.resolve(outcome);
  }

  private onDeadline(task: Task): void {
    if (task.finished) return;
    const qi = this.queue.indexOf(task);
    if (qi >= 0) this.queue.splice(qi, 1);
    this.finish(task, { ok: false, problem: timeoutProblem(task.timeoutMs) });
    const w = task.worker;
    if (w && w.active.get(task.id) === task) {
      // The worker disposes the isolate at the same deadline; if it does not confirm in time it is killed.
      task.killTimer = setTimeout(() => {
        if (w.active.get(task.id) === task && !w.exited) this.kill(w, 'invocation did not stop at its deadline');
      }, DEFAULTS.killGraceMs);
      task.killTimer.unref();
    }
  }

  // ---------------------------------------------------------------- workers

  private spawn(): void {
    if (this.closed) return;
    let child: ChildProcess;
    try {
      child = fork(this.launch.script, [], {
        execArgv: this.launch.execArgv,
        // a clean environment: no service secrets in the sandbox process
        env: {
          ...this.launch.env,
          ...(process.env['NODE_PATH'] ? { NODE_PATH: process.env['NODE_PATH'] } : {}),
          NODE_ENV: process.env['NODE_ENV'] ?? 'production',
          COFFER_SANDBOX_CONFIG: JSON.stringify(this.workerConfig),
        },
        serialization: 'advanced',
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      });
    } catch {
      this.onStartFailure();
      return;
    }
    const w: WorkerHandle = {
      child,
      pid: child.pid ?? -1,
      ready: false,
      draining: false,
      replaced: false,
      exited: false,
      active: new Map(),
      stderrTail: '',
      startTimer: null,
      recent: new Map(),
    };
    this.workers.add(w);
    child.unref();
    (child.channel as { unref?: () => void } | undefined)?.unref?.();
    child.stderr?.on('data', (d: Buffer) => {
      w.stderrTail = (w.stderrTail + d.toString('utf8')).slice(-4096);
    });
    (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
    w.startTimer = setTimeout(() => {
      if (!w.ready) this.kill(w, 'worker did not start in time');
    }, DEFAULTS.workerStartTimeoutMs);
    w.startTimer.unref();
    child.on('message', (msg: WorkerToHost) => this.onMessage(w, msg));
    child.on('error', () => undefined);
    child.on('exit', (code, signal) => this.onExit(w, code, signal));
  }

  private onMessage(w: WorkerHandle, msg: WorkerToHost): void {
    switch (msg?.t) {
      case 'ready':
        w.ready = true;
        this.startFailures = 0;
        if (w.startTimer) clearTimeout(w.startTimer);
        this.onEvent?.({ type: 'worker-started', pid: w.pid });
        this.pump();
        return;
      case 'done': {
        const task = w.active.get(msg.id);
        if (!task) return;
        w.active.delete(msg.id);
        if (task.killTimer) clearTimeout(task.killTimer);
        if (msg.compiled) this.compiles++;
        if (!task.finished) this.finish(task, this.toOutcome(task, msg));
        if (w.draining && w.active.size === 0) void this.stopWorker(w);
        this.pump();
        return;
      }
      case 'call': {
        const task = w.active.get(msg.id);
        if (!task || task.finished) return;
        void this.handleCall(w, task, msg);
        return;
      }
      case 'cancel': {
        const task = w.active.get(msg.id);
        task?.calls.get(msg.callId)?.abort();
        return;
      }
      case 'discarded':
        this.onEvent?.({ type: 'isolate-discarded', pid: w.pid, reason: String(msg.reason).slice(0, 200) });
        return;
      case 'retire':
        if (w.draining) return;
        w.draining = true;
        w.replaced = true;
        this.onEvent?.({ type: 'worker-retiring', pid: w.pid, reason: String(msg.reason).slice(0, 200) });
        this.spawn();
        if (w.active.size === 0) void this.stopWorker(w);
        return;
    }
  }

  private toOutcome(task: Task, msg: Extract<WorkerToHost, { t: 'done' }>): SandboxOutcome {
    let outcome: SandboxOutcome;
    if (typeof msg.out === 'string') outcome = outcomeFromIsolate(msg.out, this.maxResultBytes);
    else outcome = { ok: false, problem: failureProblem(msg.fail ?? 'internal', msg.message, task.timeoutMs, this.maxResultBytes) };
    if (task.inv.captureConsole) {
      outcome.logs = Array.isArray(msg.logs) ? msg.logs.filter((l): l is string => typeof l === 'string') : [];
    }
    return outcome;
  }

  private onExit(w: WorkerHandle, code: number | null, signal: NodeJS.Signals | null): void {
    if (w.exited) return;
    w.exited = true;
    if (w.startTimer) clearTimeout(w.startTimer);
    this.workers.delete(w);
    const inFlight = w.active.size;
    this.onEvent?.({
      type: 'worker-exited',
      pid: w.pid,
      code,
      signal,
      inFlight,
      ...(w.stderrTail ? { stderrTail: w.stderrTail } : {}),
    });
    for (const task of w.active.values()) {
      if (task.killTimer) clearTimeout(task.killTimer);
      this.finish(task, { ok: false, problem: runtimeError('The reactor sandbox stopped unexpectedly') });
    }
    w.active.clear();
    if (this.closed) return;
    if (!w.ready) {
      this.onStartFailure();
      return;
    }
    if (!w.replaced) this.spawn(); // a retired worker's replacement was started when it retired
    this.pump();
  }

  private onStartFailure(): void {
    this.startFailures++;
    if (this.startFailures >= 3 && ![...this.workers].some((w) => w.ready && !w.draining)) {
      // nothing can run: fail what waits rather than let it hang until its deadline
      for (const task of this.queue.splice(0)) {
        this.finish(task, { ok: false, problem: unavailableProblem('The reactor sandbox could not start') });
      }
    }
    if (this.respawnTimer || this.closed) return;
    const delay = Math.min(10_000, 100 * 2 ** Math.min(this.startFailures, 7));
    this.respawnTimer = setTimeout(() => {
      this.respawnTimer = null;
      const live = [...this.workers].filter((x) => !x.replaced && !x.exited).length;
      for (let i = live; i < this.size; i++) this.spawn();
    }, delay);
    this.respawnTimer.unref();
  }

  private kill(w: WorkerHandle, reason: string): void {
    if (w.exited) return;
    this.onEvent?.({ type: 'worker-killed', pid: w.pid, reason });
    w.draining = true;
    try {
      w.child.kill('SIGKILL');
    } catch {
      /* gone */
    }
  }

  private stopWorker(w: WorkerHandle): Promise<void> {
    if (w.exited) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        this.kill(w, 'did not exit');
      }, 2000);
      t.unref();
      w.child.once('exit', () => {
        clearTimeout(t);
        resolve();
      });
      w.draining = true;
      if (!this.sendTo(w, { t: 'exit' })) this.kill(w, 'IPC closed');
    });
  }

  private sendTo(w: WorkerHandle, msg: HostToWorker): boolean {
    if (w.exited || !w.child.connected) return false;
    try {
      w.child.send(msg, (err) => {
        if (err) this.kill(w, 'IPC failure');
      });
      return true;
    } catch {
      this.kill(w, 'IPC failure');
      return false;
    }
  }

  // ---------------------------------------------------------------- fetch and svc on behalf of formula code

  private async acquire(task: Task): Promise<void> {
    if (task.inflight < DEFAULTS.maxConcurrentCalls) {
      task.inflight++;
      return;
    }
    await new Promise<void>((resolve) => task.waiting.push(resolve));
    task.inflight++;
  }

  private release(task: Task): void {
    task.inflight--;
    const next = task.waiting.shift();
    if (next) next();
  }

  private reply(w: WorkerHandle, task: Task, callId: number, ok: boolean, payload: string, body?: Uint8Array): void {
    if (task.finished || w.active.get(task.id) !== task) return;
    this.sendTo(w, { t: 'result', id: task.id, callId, ok, payload, ...(body ? { body } : {}) });
  }

  private async handleCall(w: WorkerHandle, task: Task, msg: Extract<WorkerToHost, { t: 'call' }>): Promise<void> {
    const limit =
      msg.kind === 'svc' ? ++task.svcCount > DEFAULTS.maxSvcCalls : ++task.fetchCount > DEFAULTS.maxFetchCalls;
    if (limit) {
      const payload =
        msg.kind === 'svc'
          ? JSON.stringify({ status: 429, body: { status: 429, title: 'Too many svc calls in one invocation' } })
          : JSON.stringify({ message: 'Too many fetch calls in one invocation', type: 'system', code: 'ERR_SANDBOX_CALLS' });
      this.reply(w, task, msg.callId, false, payload);
      return;
    }
    const ac = new AbortController();
    task.calls.set(msg.callId, ac);
    await this.acquire(task);
    try {
      if (task.finished || ac.signal.aborted) return;
      if (msg.kind === 'fetch') await this.doFetch(w, task, msg, ac);
      else await this.doSvc(w, task, msg, ac);
    } finally {
      task.calls.delete(msg.callId);
      this.release(task);
    }
  }

  private async doFetch(w: WorkerHandle, task: Task, msg: Extract<WorkerToHost, { t: 'call' }>, ac: AbortController): Promise<void> {
    const fail = (message: string, type: string, code?: string) =>
      this.reply(w, task, msg.callId, false, JSON.stringify({ message, type, ...(code ? { code } : {}) }));
    let meta: { url?: unknown; method?: unknown; headers?: unknown; redirect?: unknown; timeout?: unknown; size?: unknown };
    try {
      meta = parseUntrustedJson(msg.payload) as typeof meta;
      if (meta === null || typeof meta !== 'object') throw new Error('bad');
    } catch {
      fail('Invalid fetch request', 'system');
      return;
    }
    if (typeof meta.url !== 'string') return fail('Invalid URL', 'system');
    const headers = Array.isArray(meta.headers)
      ? meta.headers.filter(
          (p): p is [string, string] => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && typeof p[1] === 'string',
        )
      : [];
    const redirect = meta.redirect === 'manual' || meta.redirect === 'error' ? meta.redirect : 'follow';
    const timeout = typeof meta.timeout === 'number' && meta.timeout > 0 ? meta.timeout : Infinity;
    const size = typeof meta.size === 'number' && meta.size > 0 ? meta.size : Infinity;
    try {
      const res = await egressFetch(
        this.egress,
        {
          url: meta.url,
          method: typeof meta.method === 'string' ? meta.method : 'GET',
          headers,
          body: msg.body instanceof Uint8Array ? msg.body : null,
          redirect,
        },
        {
          deadline: Math.min(task.deadline, Date.now() + timeout),
          maxResponseBytes: Math.min(this.maxFetchBytes, size),
          maxRequestBytes: this.maxFetchBytes,
          signal: ac.signal,
        },
      );
      this.reply(
        w,
        task,
        msg.callId,
        true,
        JSON.stringify({ status: res.status, statusText: res.statusText, url: res.url, redirected: res.redirected, headers: res.headers }),
        res.body,
      );
    } catch (e) {
      if (e instanceof EgressFetchError) fail(e.message, e.type === 'egress-denied' ? 'system' : e.type, e.code ?? (e.type === 'egress-denied' ? 'EGRESS_DENIED' : undefined));
      else fail('request failed', 'system');
    }
  }

  private async doSvc(w: WorkerHandle, task: Task, msg: Extract<WorkerToHost, { t: 'call' }>, ac: AbortController): Promise<void> {
    const fail = (status: number, body: unknown) => {
      let payload: string;
      try {
        payload = JSON.stringify({ status, body });
      } catch {
        payload = JSON.stringify({ status: 500, body: { status: 500, title: 'Internal Server Error' } });
      }
      this.reply(w, task, msg.callId, false, payload);
    };
    if (!task.svc || !task.inv.svc) return fail(403, { status: 403, title: 'Forbidden', detail: 'The reactor has no application' });
    let call: { method?: unknown; args?: unknown };
    try {
      call = parseUntrustedJson(msg.payload) as typeof call;
      if (call === null || typeof call !== 'object') throw new Error('bad');
    } catch {
      return fail(400, { status: 400, title: 'Bad Request' });
    }
    if (typeof call.method !== 'string' || !SVC_METHOD_SET.has(call.method) || !Array.isArray(call.args) || call.args.length > 2) {
      return fail(400, { status: 400, title: 'Bad Request', detail: 'Unknown svc method' });
    }
    try {
      const value = await task.svc.call(call.method, call.args, { deadline: task.deadline, signal: ac.signal });
      let payload: string;
      try {
        payload = value === undefined ? '' : JSON.stringify(value);
      } catch {
        return fail(500, { status: 500, title: 'Internal Server Error' });
      }
      this.reply(w, task, msg.callId, true, payload ?? '');
    } catch (e) {
      const err = e as { status?: unknown; body?: unknown } | null;
      if (err && typeof err === 'object' && typeof err.status === 'number' && Number.isInteger(err.status)) {
        fail(err.status, err.body ?? { status: err.status });
      } else {
        // never reflect host error messages into formula code
        fail(500, { status: 500, title: 'Internal Server Error' });
      }
    }
  }
}
