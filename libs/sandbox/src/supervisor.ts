/**
 * Supervision of the sandbox worker processes: spawn them (clean environment, `--no-node-snapshot`), know which are
 * ready, replace one that crashes, is OOM-killed, does not start, or asks to retire (an isolate ran out of memory),
 * kill one that does not stop an invocation in time, and drain them on shutdown. It knows nothing of invocations
 * beyond counting them: the pool schedules, the call broker answers fetch/svc calls.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEFAULTS, type HostToWorker, type WorkerConfig, type WorkerToHost } from './protocol';
import type { SandboxPoolEvent } from './types';
import { workerEnvironment } from './worker-config';

/** One worker process as the supervisor sees it; `active` holds what the pool runs there (keyed by task id). */
export interface WorkerHandle<T = unknown> {
  child: ChildProcess;
  pid: number;
  ready: boolean;
  /** It takes no new invocation (retiring, killed, or stopping). */
  draining: boolean;
  /** A replacement has been started already (it retired). */
  replaced: boolean;
  exited: boolean;
  active: Map<number, T>;
  stderrTail: string;
  startTimer: NodeJS.Timeout | null;
  /** Tenants it ran lately (least recent first): it may hold a warm isolate for them. */
  recent: Map<string, true>;
}

export interface WorkerLaunch {
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

export interface SupervisorHooks<T> {
  /** A worker became ready, or one went away: the pool may schedule again. */
  onCapacity(): void;
  /** A message about an invocation (`done`, `call`, `cancel`). */
  onTaskMessage(w: WorkerHandle<T>, msg: Extract<WorkerToHost, { t: 'done' | 'call' | 'cancel' }>): void;
  /** A worker is gone: whatever it was running is lost (`active` still lists it). */
  onExit(w: WorkerHandle<T>): void;
  /** Three starts failed in a row and no worker is ready: nothing can run for now. */
  onCannotStart(): void;
  onEvent?: (event: SandboxPoolEvent) => void;
}

const START_FAILURES_BEFORE_GIVING_UP = 3;

export class WorkerSupervisor<T> {
  readonly workers = new Set<WorkerHandle<T>>();
  private startFailures = 0;
  private respawnTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** stopped while idle (SandboxPool's idleExitMs): nothing is respawned until start() */
  private asleep = true;

  constructor(
    private readonly size: number,
    private readonly launch: WorkerLaunch,
    private readonly config: WorkerConfig,
    private readonly hooks: SupervisorHooks<T>,
  ) {}

  start(): void {
    this.asleep = false;
    const live = [...this.workers].filter((w) => !w.replaced && !w.exited && !w.draining).length;
    for (let i = live; i < this.size; i++) this.spawn();
  }

  /** Whether workers run, or are being started (start() was called and sleep() was not since). */
  get awake(): boolean {
    return !this.asleep;
  }

  /** Stops every worker (nothing runs in them: the pool is idle) and starts none until start(). */
  async sleep(): Promise<void> {
    this.asleep = true;
    if (this.respawnTimer) clearTimeout(this.respawnTimer);
    this.respawnTimer = null;
    this.startFailures = 0;
    // not replaced when they exit: start() spawns new ones, whether these are gone by then or not
    for (const w of this.workers) w.replaced = true;
    await Promise.all([...this.workers].map((w) => this.stop(w)));
  }

  /** No worker could be started lately, and none is ready. */
  get unavailable(): boolean {
    return this.startFailures >= START_FAILURES_BEFORE_GIVING_UP && ![...this.workers].some((w) => w.ready && !w.draining);
  }

  /** Workers that can take an invocation now. */
  *available(concurrency: number): Iterable<WorkerHandle<T>> {
    for (const w of this.workers) if (w.ready && !w.draining && !w.exited && w.active.size < concurrency) yield w;
  }

  send(w: WorkerHandle<T>, msg: HostToWorker): boolean {
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

  kill(w: WorkerHandle<T>, reason: string): void {
    if (w.exited) return;
    this.hooks.onEvent?.({ type: 'worker-killed', pid: w.pid, reason });
    w.draining = true;
    try {
      w.child.kill('SIGKILL');
    } catch {
      /* gone */
    }
  }

  /** Asks a worker to exit (it disposes its isolates), killing it if it does not within 2 s. */
  stop(w: WorkerHandle<T>): Promise<void> {
    if (w.exited) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const t = setTimeout(() => this.kill(w, 'did not exit'), 2000);
      t.unref();
      w.child.once('exit', () => {
        clearTimeout(t);
        resolve();
      });
      w.draining = true;
      if (!this.send(w, { t: 'exit' })) this.kill(w, 'IPC closed');
    });
  }

  /** A worker whose last invocation ended: stopped if it was draining. */
  idle(w: WorkerHandle<T>): void {
    if (w.draining && w.active.size === 0) void this.stop(w);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.respawnTimer) clearTimeout(this.respawnTimer);
    await Promise.all([...this.workers].map((w) => this.stop(w)));
  }

  private spawn(): void {
    if (this.closed || this.asleep) return;
    let child: ChildProcess;
    try {
      child = fork(this.launch.script, [], {
        execArgv: this.launch.execArgv,
        // a clean environment: no service secrets in the sandbox process
        env: workerEnvironment(this.config, this.launch.env),
        serialization: 'advanced',
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      });
    } catch {
      this.onStartFailure();
      return;
    }
    const w: WorkerHandle<T> = {
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

  private onMessage(w: WorkerHandle<T>, msg: WorkerToHost): void {
    switch (msg?.t) {
      case 'ready':
        w.ready = true;
        this.startFailures = 0;
        if (w.startTimer) clearTimeout(w.startTimer);
        this.hooks.onEvent?.({ type: 'worker-started', pid: w.pid });
        this.hooks.onCapacity();
        return;
      case 'done':
      case 'call':
      case 'cancel':
        this.hooks.onTaskMessage(w, msg);
        return;
      case 'discarded':
        this.hooks.onEvent?.({ type: 'isolate-discarded', pid: w.pid, reason: String(msg.reason).slice(0, 200) });
        return;
      case 'retire':
        // V8 is not trusted after an isolate ran out of memory: a replacement starts now, this one finishes its work
        if (w.draining) return;
        w.draining = true;
        w.replaced = true;
        this.hooks.onEvent?.({ type: 'worker-retiring', pid: w.pid, reason: String(msg.reason).slice(0, 200) });
        this.spawn();
        this.idle(w);
        return;
    }
  }

  private onExit(w: WorkerHandle<T>, code: number | null, signal: NodeJS.Signals | null): void {
    if (w.exited) return;
    w.exited = true;
    if (w.startTimer) clearTimeout(w.startTimer);
    this.workers.delete(w);
    this.hooks.onEvent?.({
      type: 'worker-exited',
      pid: w.pid,
      code,
      signal,
      inFlight: w.active.size,
      ...(w.stderrTail ? { stderrTail: w.stderrTail } : {}),
    });
    this.hooks.onExit(w);
    w.active.clear();
    if (this.closed || this.asleep) return;
    if (!w.ready) {
      this.onStartFailure();
      return;
    }
    if (!w.replaced) this.spawn(); // a retired worker's replacement was started when it retired
    this.hooks.onCapacity();
  }

  private onStartFailure(): void {
    this.startFailures++;
    if (this.unavailable) this.hooks.onCannotStart();
    if (this.respawnTimer || this.closed || this.asleep) return;
    const delay = Math.min(10_000, 100 * 2 ** Math.min(this.startFailures, 7));
    this.respawnTimer = setTimeout(() => {
      this.respawnTimer = null;
      const live = [...this.workers].filter((x) => !x.replaced && !x.exited).length;
      for (let i = live; i < this.size; i++) this.spawn();
    }, delay);
    this.respawnTimer.unref();
  }
}
