import { AsyncLocalStorage } from 'node:async_hooks';
import { EgressPolicy, allowPrivateEgressFromEnv, releaseAgent } from '@coffer/egress';
import { CallBroker, newCallState, type BrokeredInvocation, type CallMessage, type CallState } from './call-broker';
import { failureProblem, outcomeFromIsolate, runtimeError, timeoutProblem, unavailableProblem } from './outcome';
import { DEFAULTS, type WorkerConfig, type WorkerToHost } from './protocol';
import { resolveWorkerLaunch, WorkerSupervisor, type WorkerHandle } from './supervisor';
import type { SandboxInvocation, SandboxOutcome, SandboxPoolOptions, SvcBridge } from './types';

export { resolveWorkerLaunch } from './supervisor';

const MAX_TIMEOUT_MS = 15 * 60 * 1000;

interface Task extends BrokeredInvocation {
  id: number;
  inv: SandboxInvocation;
  req: string;
  /** The isolation key, validated. */
  tenant: string | undefined;
  timeoutMs: number;
  /** queued while the workers were starting: its deadline is set once one is ready */
  waitsForStart: boolean;
  resolve: (o: SandboxOutcome) => void;
  finished: boolean;
  timer: NodeJS.Timeout | null;
  killTimer: NodeJS.Timeout | null;
  worker: WorkerHandle<Task> | null;
  calls: CallState;
  /**
   * Runs a function in the async context `run` was called in: the formula's fetch and svc calls are made on behalf
   * of that invocation (its request's deadline and trace), not of whatever context the worker process was started in.
   */
  inContext: <R>(fn: () => R) => R;
}

/** The queue key of an invocation without a tenant. */
const NO_TENANT = '';

/**
 * A supervised pool of sandbox worker processes running formula code in isolated-vm. `run` never rejects: every
 * failure is an outcome with a problem document. This module schedules invocations (queue, tenant affinity,
 * deadlines) and turns what workers answer into outcomes; `supervisor.ts` keeps the processes, `call-broker.ts`
 * answers their fetch/svc calls. See README.md.
 */
export class SandboxPool {
  readonly egress: EgressPolicy;
  private readonly concurrency: number;
  private readonly maxResultBytes: number;
  private readonly maxQueue: number;
  private readonly maxIdleIsolates: number;
  private readonly supervisor: WorkerSupervisor<Task>;
  private readonly broker: CallBroker;
  private readonly maxRunningPerTenant: number;
  private readonly maxQueuedPerTenant: number;
  /**
   * Waiting invocations, one FIFO per tenant, served round-robin (a Map iterates in insertion order; a tenant served
   * goes to the back): one tenant's burst waits behind itself, never in front of another tenant's single call.
   */
  private readonly queues = new Map<string, Task[]>();
  private queued = 0;
  private seq = 0;
  private compiles = 0;
  private closed = false;
  /** idleExitMs: 0 keeps the workers from construction on */
  private readonly idleExitMs: number;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(opts: SandboxPoolOptions = {}) {
    const size = Math.max(1, Math.floor(opts.size ?? DEFAULTS.size));
    this.concurrency = Math.max(1, Math.floor(opts.concurrency ?? DEFAULTS.concurrency));
    this.maxResultBytes = opts.maxResultBytes ?? DEFAULTS.maxResultBytes;
    this.maxQueue = opts.maxQueue ?? DEFAULTS.maxQueue;
    this.maxIdleIsolates = Math.max(0, Math.floor(opts.maxIdleIsolates ?? DEFAULTS.maxIdleIsolates));
    this.maxRunningPerTenant = Math.max(1, Math.floor(opts.maxRunningPerTenant ?? Math.ceil((size * this.concurrency) / 2)));
    this.maxQueuedPerTenant = Math.max(1, Math.floor(opts.maxQueuedPerTenant ?? DEFAULTS.maxQueuedPerTenant));
    const maxFetchBytes = opts.maxFetchBytes ?? DEFAULTS.maxFetchBytes;
    this.egress = new EgressPolicy({
      allowPrivate: opts.allowPrivateEgress ?? allowPrivateEgressFromEnv(),
      allowHosts: opts.allowHosts,
      resolver: opts.resolver,
    });
    this.broker = new CallBroker(this.egress, maxFetchBytes, opts.onEgress);
    const workerConfig: WorkerConfig = {
      memoryLimitMb: opts.memoryLimitMb ?? DEFAULTS.memoryLimitMb,
      concurrency: this.concurrency,
      maxResultBytes: this.maxResultBytes,
      maxTimers: DEFAULTS.maxTimers,
      maxLogLines: DEFAULTS.maxLogLines,
      maxLogBytes: DEFAULTS.maxLogBytes,
      maxSvcCalls: DEFAULTS.maxSvcCalls,
      maxFetchCalls: DEFAULTS.maxFetchCalls,
      maxFetchBytes,
      maxScriptsPerIsolate: DEFAULTS.maxScriptsPerIsolate,
      maxIdleIsolates: this.maxIdleIsolates,
      maxReusableHeapMb: DEFAULTS.maxReusableHeapMb,
    };
    this.supervisor = new WorkerSupervisor<Task>(size, resolveWorkerLaunch(opts.workerScript), workerConfig, {
      onCapacity: () => {
        this.startDeadlines();
        this.pump();
      },
      onTaskMessage: (w, msg) => this.onTaskMessage(w, msg),
      onExit: (w) => {
        for (const task of w.active.values()) {
          if (task.killTimer) clearTimeout(task.killTimer);
          this.finish(task, { ok: false, problem: runtimeError('The reactor sandbox stopped unexpectedly') });
        }
      },
      onCannotStart: () => {
        // nothing can run: fail what waits rather than let it hang until its deadline
        for (const task of this.drainQueues()) this.finish(task, { ok: false, problem: unavailableProblem('The reactor sandbox could not start') });
      },
      onEvent: opts.onEvent,
    });
    this.idleExitMs = Math.max(0, Math.floor(opts.idleExitMs ?? 0));
    if (this.idleExitMs === 0) this.supervisor.start();
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
    if (this.supervisor.unavailable) return Promise.resolve({ ok: false, problem: unavailableProblem('The reactor sandbox could not start') });
    if (inv.tenant !== undefined && (typeof inv.tenant !== 'string' || inv.tenant.length > 256)) {
      return Promise.resolve({ ok: false, problem: runtimeError('Invalid sandbox tenant') });
    }
    if (this.queued >= this.maxQueue || (this.queues.get(inv.tenant || NO_TENANT)?.length ?? 0) >= this.maxQueuedPerTenant) {
      return Promise.resolve({ ok: false, problem: unavailableProblem('The reactor sandbox is saturated') });
    }
    this.wakeUp();
    // the workers are starting (the first invocation after an idle while): the deadline counts once one is ready
    const waitsForStart = !this.hasReadyWorker();
    return new Promise<SandboxOutcome>((resolve) => {
      const task: Task = {
        id: ++this.seq,
        inv,
        svc: inv.svc && svc ? svc : null,
        req,
        tenant: inv.tenant || undefined,
        deadline: Date.now() + timeoutMs,
        timeoutMs,
        waitsForStart,
        resolve,
        finished: false,
        timer: null,
        killTimer: null,
        worker: null,
        calls: newCallState(),
        inContext: AsyncLocalStorage.snapshot(),
        ...(inv.egress !== undefined ? { egress: inv.egress } : {}),
      };
      if (!waitsForStart) task.timer = setTimeout(() => this.onDeadline(task), timeoutMs);
      this.enqueue(task);
      this.pump();
    });
  }

  /** Starts the workers if they were stopped while idle, and keeps them from stopping meanwhile. */
  private wakeUp(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (!this.supervisor.awake) this.supervisor.start();
  }

  private hasReadyWorker(): boolean {
    for (const w of this.supervisor.workers) if (w.ready && !w.draining && !w.exited) return true;
    return false;
  }

  /** A worker is ready: the invocations that waited for the workers to start get their deadlines now. */
  private startDeadlines(): void {
    if (!this.hasReadyWorker()) return;
    for (const q of this.queues.values()) {
      for (const task of q) {
        if (!task.waitsForStart || task.finished) continue;
        task.waitsForStart = false;
        task.deadline = Date.now() + task.timeoutMs;
        task.timer = setTimeout(() => this.onDeadline(task), task.timeoutMs);
      }
    }
  }

  /** Nothing waits or runs: with idleExitMs, the workers stop once that long passed without an invocation. */
  private idleCheck(): void {
    if (this.idleExitMs === 0 || this.closed || this.idleTimer || !this.supervisor.awake) return;
    if (this.queued > 0) return;
    for (const w of this.supervisor.workers) if (w.active.size > 0) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.closed || this.queued > 0) return;
      for (const w of this.supervisor.workers) if (w.active.size > 0) return;
      void this.supervisor.sleep();
    }, this.idleExitMs);
    this.idleTimer.unref();
  }

  /** true once close() began: a 503 from then on is this process stopping, not the invocation's own outcome */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Stops every worker; queued and running invocations end with 503. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const shutDown: SandboxOutcome = { ok: false, problem: unavailableProblem('The reactor sandbox is shut down') };
    for (const task of this.drainQueues()) this.finish(task, shutDown);
    for (const w of this.supervisor.workers) for (const task of w.active.values()) this.finish(task, shutDown);
    await this.supervisor.close();
    await releaseAgent(this.egress);
  }

  /** Current state, for health checks and metrics. */
  stats(): { workers: number; ready: number; busy: number; queued: number; compiles: number } {
    let ready = 0;
    let busy = 0;
    for (const w of this.supervisor.workers) {
      if (w.ready && !w.draining) ready++;
      busy += w.active.size;
    }
    return { workers: this.supervisor.workers.size, ready, busy, queued: this.queued, compiles: this.compiles };
  }

  // ---------------------------------------------------------------- scheduling

  /** The least busy available worker; one that ran this tenant lately first (it may hold a warm isolate for it). */
  private pickWorker(task: Task): WorkerHandle<Task> | null {
    let best: WorkerHandle<Task> | null = null;
    let bestWarm = false;
    for (const w of this.supervisor.available(this.concurrency)) {
      const warm = task.tenant !== undefined && w.recent.has(task.tenant);
      if (!best || (warm && !bestWarm) || (warm === bestWarm && w.active.size < best.active.size)) {
        best = w;
        bestWarm = warm;
      }
    }
    return best;
  }

  private enqueue(task: Task): void {
    const key = task.tenant ?? NO_TENANT;
    const q = this.queues.get(key);
    if (q) q.push(task);
    else this.queues.set(key, [task]);
    this.queued++;
  }

  private dequeue(task: Task): void {
    const key = task.tenant ?? NO_TENANT;
    const q = this.queues.get(key);
    const i = q ? q.indexOf(task) : -1;
    if (!q || i < 0) return;
    q.splice(i, 1);
    this.queued--;
    if (q.length === 0) this.queues.delete(key);
  }

  private drainQueues(): Task[] {
    const all = [...this.queues.values()].flat();
    this.queues.clear();
    this.queued = 0;
    return all;
  }

  /** Invocations of `tenant` holding an isolate now (a timed-out one still does until its worker confirms). */
  private runningOf(tenant: string): number {
    let n = 0;
    for (const w of this.supervisor.workers) for (const t of w.active.values()) if ((t.tenant ?? NO_TENANT) === tenant) n++;
    return n;
  }

  private hasFreeSlot(): boolean {
    for (const _ of this.supervisor.available(this.concurrency)) return true;
    return false;
  }

  /** The next task to start: the first tenant in round-robin order that is under its running share. */
  private nextTask(): Task | null {
    for (const [key, q] of this.queues) {
      if (this.runningOf(key) >= this.maxRunningPerTenant) continue;
      const task = q.shift() as Task;
      this.queued--;
      this.queues.delete(key);
      if (q.length > 0) this.queues.set(key, q); // to the back of the round
      return task;
    }
    return null;
  }

  private pump(): void {
    while (this.queued > 0) {
      if (!this.hasFreeSlot()) return;
      const task = this.nextTask();
      if (!task) return;
      if (task.finished) continue;
      const best = this.pickWorker(task) as WorkerHandle<Task>; // a free slot exists (checked above)
      task.worker = best;
      best.active.set(task.id, task);
      if (task.tenant !== undefined) {
        best.recent.delete(task.tenant);
        best.recent.set(task.tenant, true);
        if (best.recent.size > Math.max(1, this.maxIdleIsolates)) best.recent.delete(best.recent.keys().next().value as string);
      }
      this.supervisor.send(best, {
        t: 'run',
        id: task.id,
        code: task.inv.code,
        req: task.req,
        svc: task.svc !== null,
        capture: Boolean(task.inv.captureConsole),
        remainingMs: Math.max(1, task.deadline - Date.now()),
        ...(task.tenant !== undefined ? { tenant: task.tenant } : {}),
      });
    }
  }

  private finish(task: Task, outcome: SandboxOutcome): void {
    if (task.finished) return;
    task.finished = true;
    if (task.timer) clearTimeout(task.timer);
    this.broker.endAll(task);
    task.resolve(outcome);
    this.idleCheck();
  }

  private onDeadline(task: Task): void {
    if (task.finished) return;
    this.dequeue(task);
    this.finish(task, { ok: false, problem: timeoutProblem(task.timeoutMs) });
    const w = task.worker;
    if (w && w.active.get(task.id) === task) {
      // The worker disposes the isolate at the same deadline; if it does not confirm in time it is killed.
      task.killTimer = setTimeout(() => {
        if (w.active.get(task.id) === task && !w.exited) this.supervisor.kill(w, 'invocation did not stop at its deadline');
      }, DEFAULTS.killGraceMs);
      task.killTimer.unref();
    }
  }

  private onTaskMessage(w: WorkerHandle<Task>, msg: Extract<WorkerToHost, { t: 'done' | 'call' | 'cancel' }>): void {
    const task = w.active.get(msg.id);
    if (!task) return;
    switch (msg.t) {
      case 'done':
        w.active.delete(msg.id);
        if (task.killTimer) clearTimeout(task.killTimer);
        if (msg.compiled) this.compiles++;
        if (!task.finished) this.finish(task, this.toOutcome(task, msg));
        this.supervisor.idle(w);
        this.pump();
        this.idleCheck();
        return;
      case 'call':
        if (!task.finished) task.inContext(() => void this.broker.handle(task, msg, (ok, payload, body) => this.reply(w, task, msg, ok, payload, body)));
        return;
      case 'cancel':
        this.broker.cancel(task, msg.callId);
        return;
    }
  }

  private reply(w: WorkerHandle<Task>, task: Task, msg: CallMessage, ok: boolean, payload: string, body?: Uint8Array): void {
    if (task.finished || w.active.get(task.id) !== task) return;
    this.supervisor.send(w, { t: 'result', id: task.id, callId: msg.callId, ok, payload, ...(body ? { body } : {}) });
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
}
