import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ProblemError } from '@coffer/contracts';
import { overTime, type JobResult, type TransformJob } from './transform-steps';

export interface TransformPoolOptions {
  /** worker threads, started when first needed */
  size: number;
  /** one tenant's jobs running at once (the rest of the threads stay free for other tenants) */
  maxRunningPerTenant: number;
  /** one tenant's jobs waiting for a thread; more are refused with 503 at once */
  maxQueuedPerTenant: number;
  /** how long past its deadline a job may run before its thread is terminated (a step the job cannot interrupt) */
  graceMs?: number;
  /** the worker's entry (tests); by default transform-worker.js next to the bundle, or its TypeScript source */
  script?: string;
  /** a thread without a job this long ends (a new one starts when next needed); default 60 000, 0: threads stay */
  idleExitMs?: number;
}

interface Job {
  id: number;
  startedAt: number;
  tenant: string;
  job: TransformJob;
  resolve: (r: JobResult) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  timer: NodeJS.Timeout | null;
  /** ends the idle thread (idleExitMs) */
  idle: NodeJS.Timeout | null;
}

/**
 * Worker threads running proxy transforms' CPU work (transform-steps.ts) off the event loop. Jobs are served
 * round-robin per tenant (a Map iterates in insertion order; a tenant served goes to the back), one tenant holds at
 * most `maxRunningPerTenant` threads, and a job still running `graceMs` after its deadline has its thread terminated
 * (a single step — one regular expression over a large body — cannot check the clock itself often enough): its call
 * gets the budget problem, and a new thread takes the old one's place when next needed. A thread left without a
 * job for `idleExitMs` ends, so an idle service holds none.
 */
export class TransformPool {
  private readonly slots: Slot[] = [];
  private readonly queues = new Map<string, Job[]>();
  private readonly running = new Map<string, number>();
  private readonly graceMs: number;
  private readonly script: string;
  private readonly idleExitMs: number;
  private seq = 0;
  private closed = false;

  constructor(private readonly opts: TransformPoolOptions) {
    this.graceMs = opts.graceMs ?? 250;
    this.script = opts.script ?? workerScript();
    this.idleExitMs = opts.idleExitMs ?? 60_000;
  }

  run(tenant: string, job: TransformJob): Promise<JobResult> {
    if (this.closed) return Promise.reject(new ProblemError(503, 'The proxy transforms are shut down'));
    const queue = this.queues.get(tenant) ?? [];
    if (queue.length >= this.opts.maxQueuedPerTenant) return Promise.reject(new ProblemError(503, "The proxy transforms are busy with this tenant's calls"));
    return new Promise((resolve) => {
      queue.push({ id: ++this.seq, startedAt: 0, tenant, job, resolve });
      this.queues.set(tenant, queue);
      this.schedule();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const queue of this.queues.values()) for (const j of queue) j.resolve({ ok: false, kind: 'internal', message: 'shut down' });
    this.queues.clear();
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }

  private schedule(): void {
    for (;;) {
      const next = this.nextJob();
      if (!next) return;
      const slot = this.slots.find((s) => s.job === null) ?? (this.slots.length < this.opts.size ? this.spawn() : undefined);
      if (!slot) return;
      this.take(next);
      this.dispatch(slot, next);
    }
  }

  /** The first tenant in line with a job waiting and a thread to spare under its share. */
  private nextJob(): Job | undefined {
    if (!this.slots.some((s) => s.job === null) && this.slots.length >= this.opts.size) return undefined;
    for (const [tenant, queue] of this.queues) {
      if ((this.running.get(tenant) ?? 0) >= this.opts.maxRunningPerTenant) continue;
      return queue[0];
    }
    return undefined;
  }

  private take(job: Job): void {
    const queue = this.queues.get(job.tenant) as Job[];
    queue.shift();
    this.queues.delete(job.tenant);
    if (queue.length) this.queues.set(job.tenant, queue);
    this.running.set(job.tenant, (this.running.get(job.tenant) ?? 0) + 1);
  }

  private dispatch(slot: Slot, job: Job): void {
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = null;
    slot.job = job;
    // the budget counts from the moment a thread takes the job: waiting behind other tenants is not the call's cost
    job.startedAt = Date.now();
    slot.timer = setTimeout(() => this.kill(slot), job.job.budget.remainingMs + this.graceMs);
    slot.worker.postMessage({ id: job.id, job: job.job });
  }

  private settle(slot: Slot, result: JobResult): void {
    const job = slot.job;
    if (!job) return;
    if (slot.timer) clearTimeout(slot.timer);
    slot.job = null;
    slot.timer = null;
    this.idleLater(slot);
    const n = (this.running.get(job.tenant) ?? 1) - 1;
    if (n > 0) this.running.set(job.tenant, n);
    else this.running.delete(job.tenant);
    job.resolve({ ...result, ms: job.startedAt ? Date.now() - job.startedAt : 0 });
  }

  private kill(slot: Slot): void {
    const budgetMs = slot.job?.job.budget.budgetMs ?? 0;
    this.remove(slot);
    void slot.worker.terminate();
    const err = overTime(budgetMs);
    this.settle(slot, { ok: false, kind: 'budget', message: err.message });
    this.schedule();
  }

  /** A thread without a job ends after idleExitMs (unless a job comes first). */
  private idleLater(slot: Slot): void {
    if (this.idleExitMs <= 0 || slot.idle || !this.slots.includes(slot)) return;
    slot.idle = setTimeout(() => {
      slot.idle = null;
      if (slot.job !== null || !this.slots.includes(slot)) return;
      this.remove(slot);
      void slot.worker.terminate();
    }, this.idleExitMs);
    slot.idle.unref();
  }

  private remove(slot: Slot): void {
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = null;
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
  }

  private spawn(): Slot {
    const worker = this.script.endsWith('.ts') ? new Worker(TS_LOADER, { eval: true, workerData: { script: this.script } }) : new Worker(this.script);
    const slot: Slot = { worker, job: null, timer: null, idle: null };
    worker.on('message', (msg: { id: number; result: JobResult }) => {
      if (slot.job?.id !== msg.id) return;
      this.settle(slot, msg.result);
      this.schedule();
    });
    const lost = () => {
      if (!this.slots.includes(slot)) return;
      this.remove(slot);
      this.settle(slot, { ok: false, kind: 'internal', message: 'the transform worker stopped' });
      if (!this.closed) this.schedule();
    };
    worker.on('error', lost);
    worker.on('exit', lost);
    // an idle thread does not keep the process alive
    worker.unref();
    this.slots.push(slot);
    return slot;
  }
}

/** Loads the worker's TypeScript source (unit tests, ts-node) in a thread. */
const TS_LOADER = `
require('ts-node').register({ transpileOnly: true, skipProject: true, compilerOptions: { module: 'node16', moduleResolution: 'node16', target: 'es2022', esModuleInterop: true } });
require(require('node:worker_threads').workerData.script);
`;

function workerScript(): string {
  const candidates = [join(__dirname, 'transform-worker.js'), join(__dirname, 'transform-worker.ts')];
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error(`Transform worker entry not found (looked for ${candidates.join(', ')})`);
  return found;
}
