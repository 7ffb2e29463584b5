/**
 * Sandbox worker process entry (forked by SandboxPool; bundled as `sandbox-worker.js`).
 *
 * Each worker runs up to `concurrency` invocations at a time, each in a fresh context of a memory-limited isolate
 * that belongs to the invocation's tenant (isolate-cache.ts: an isolate never serves two tenants, and is parked for
 * its tenant's next invocation only when nothing of the last one can remain; compiled scripts are cached per isolate
 * by code hash). The worker treats everything coming out of an isolate as untrusted: only strings and byte arrays
 * are accepted, limits are re-checked here and in the pool.
 */
import ivm from 'isolated-vm';
import { HASHES, statelessHostOp, type Sync } from './host-ops';
import { DEFAULTS, type FailKind, type HostToWorker, type WorkerConfig, type WorkerToHost } from './protocol';
import { disposeHolder, IsolateSupply, type Holder } from './worker-isolates';
import { workerConfigFromEnv } from './worker-config';

const config: WorkerConfig = workerConfigFromEnv();

interface Invocation {
  id: number;
  holder: Holder | null;
  deadline: number;
  capture: boolean;
  logs: string[];
  logBytes: number;
  done: boolean;
  wall: NodeJS.Timeout | null;
  timers: Map<number, HostTimer>;
  calls: Set<number>;
  callSeq: number;
  svcCalls: number;
  fetchCalls: number;
  ctx: ivm.Context | null;
  entry: ivm.Reference<(...args: unknown[]) => unknown> | null;
  fnRef: ivm.Reference<unknown> | null;
  /** The isolate was disposed by us (deadline) - errors from it are expected. */
  killed: boolean;
  /** The formula had to be compiled (compile-cache miss). */
  compiled: boolean;
  /** Calls into the isolate (timer callbacks, settled fetch/svc calls) not yet returned. */
  applying: number;
  /** The formula's answer is in: nothing new starts; the calls still in the isolate are awaited (quiesce). */
  answered: boolean;
  onQuiet: (() => void) | null;
}

const invocations = new Map<number, Invocation>();
let retiring = false;

const isolates = new IsolateSupply(config, {
  onCatastrophicError: () => {
    // V8 lost control of an isolate: report and leave; the pool replaces this process.
    retire('catastrophic isolate error');
    setTimeout(() => process.exit(70), 50).unref();
  },
  onDiscardedForIdleCpu: () => send({ t: 'discarded', reason: 'a parked isolate used CPU (work left behind by a formula)' }),
  retiring: () => retiring,
});

function send(msg: WorkerToHost): void {
  if (process.connected) process.send?.(msg);
}

function retire(reason: string): void {
  if (retiring) return;
  retiring = true;
  send({ t: 'retire', reason });
}

function remaining(inv: Invocation): number {
  return Math.max(1, inv.deadline - Date.now());
}

function finish(inv: Invocation, result: { out?: string; fail?: FailKind; message?: string }, dispose = false): void {
  if (inv.done) return;
  inv.done = true;
  // The answer may come while a timer callback or a promise continuation of the formula is still queued or running
  // in the isolate (e.g. a busy loop in a timer that fired just before the result): disposing the isolate is the
  // only way to stop it - it must not run on into the next invocation.
  if (inv.applying > 0) dispose = true;
  if (inv.wall) clearTimeout(inv.wall);
  for (const t of inv.timers.values()) clearTimer(t);
  inv.timers.clear();
  inv.calls.clear();
  invocations.delete(inv.id);
  const holder = inv.holder;
  inv.holder = null;
  if (dispose) {
    inv.killed = true;
    if (holder) disposeHolder(holder);
  } else {
    for (const r of [inv.entry, inv.fnRef]) {
      try {
        r?.release();
      } catch {
        /* isolate gone */
      }
    }
    try {
      inv.ctx?.release();
    } catch {
      /* isolate gone */
    }
  }
  inv.entry = null;
  inv.fnRef = null;
  inv.ctx = null;
  // Reused only by the same tenant, and only if the invocation answered normally and left a small heap; a failed
  // one (deadline, memory, uncaught exception in a timer, bad result, load error) may have left anything behind.
  if (holder && !dispose) isolates.release(holder, result.fail === undefined);
  isolates.scheduleSpare();
  send({ t: 'done', id: inv.id, ...result, ...(inv.capture ? { logs: inv.logs } : {}), ...(inv.compiled ? { compiled: true } : {}) });
}

interface HostTimer {
  handle: NodeJS.Timeout | NodeJS.Immediate | null;
  ms: number;
  repeat: boolean;
  immediate: boolean;
}

function clearTimer(t: HostTimer): void {
  if (!t.handle) return;
  if (t.immediate) clearImmediate(t.handle as NodeJS.Immediate);
  else clearTimeout(t.handle as NodeJS.Timeout);
  t.handle = null;
}

/** An error surfaced from isolated-vm while running formula code. */
function onIsolateError(inv: Invocation, err: unknown): void {
  if (inv.done) return;
  const holder = inv.holder;
  const message = err instanceof Error ? err.message : String(err);
  if (holder?.isolate.isDisposed || /disposed/i.test(message)) {
    // memory limit (isolated-vm disposes the isolate) or a catastrophic error: fail, then replace this process
    const memory = /memory limit/i.test(message) || holder?.isolate.isDisposed === true;
    if (holder) disposeHolder(holder);
    // V8 is not resilient to OOM: this process asks to be replaced (before answering, so nothing new lands here)
    retire('isolate disposed: ' + (memory ? 'memory limit' : 'error'));
    finish(inv, { fail: memory ? 'memory' : 'internal', message: memory ? 'Reactor exceeded its memory limit' : undefined });
    return;
  }
  if (/timed out/i.test(message)) {
    finish(inv, { fail: 'timeout' }, true);
    return;
  }
  finish(inv, { fail: 'internal' }, true);
}

function hostSyncFor(inv: Invocation) {
  return (op: unknown, a: unknown, b: unknown, c: unknown, d: unknown): Sync => {
    if (inv.done || inv.answered) return [false, 'The invocation has finished'];
    try {
      const stateless = statelessHostOp(op, a, b, c);
      if (stateless !== null) return stateless;
      switch (op) {
        case 'timer':
          return addTimer(inv, a, b, c);
        case 'untimer': {
          const t = inv.timers.get(Number(a));
          if (t) {
            clearTimer(t);
            inv.timers.delete(Number(a));
          }
          return [true, null];
        }
        case 'call':
          return startCall(inv, a, b, c);
        case 'cancel': {
          const callId = Number(a);
          if (inv.calls.delete(callId)) send({ t: 'cancel', id: inv.id, callId });
          return [true, null];
        }
        default:
          void d;
          return [false, 'Unknown operation'];
      }
    } catch (e) {
      return [false, e instanceof TypeError && String(op).startsWith('url') ? 'Invalid URL' : 'Operation failed'];
    }
  };
}

function addTimer(inv: Invocation, idArg: unknown, msArg: unknown, repeatArg: unknown): Sync {
  const id = Number(idArg);
  if (!Number.isInteger(id) || inv.timers.has(id)) return [false, 'Invalid timer'];
  if (inv.timers.size >= (config.maxTimers || 100)) {
    return [false, `Too many pending timers (the sandbox allows ${config.maxTimers || 100})`, 'ERR_SANDBOX_TIMERS'];
  }
  const ms = Math.min(Math.max(Number(msArg) || 0, 0), 2_147_483_647);
  const timer: HostTimer = { handle: null, ms, repeat: repeatArg === true, immediate: ms === 0 };
  inv.timers.set(id, timer);
  armTimer(inv, id);
  return [true, null];
}

function armTimer(inv: Invocation, id: number): void {
  const t = inv.timers.get(id);
  if (!t || inv.done) return;
  const fire = () => {
    if (inv.done || inv.answered || !inv.timers.has(id) || !inv.entry) return;
    t.handle = null;
    if (!t.repeat) inv.timers.delete(id);
    inv.applying++;
    inv.entry.apply(undefined, ['timer', id], { timeout: remaining(inv), result: { copy: true } }).then(
      (r) => {
        returned(inv);
        if (inv.done || inv.answered) return;
        if (r === 'X') finish(inv, { fail: 'uncaught' });
        else if (t.repeat && inv.timers.has(id)) armTimer(inv, id);
      },
      (err) => {
        returned(inv);
        onIsolateError(inv, err);
      },
    );
  };
  t.handle = t.immediate ? setImmediate(fire) : setTimeout(fire, Math.max(1, t.ms));
}

/** A call into the isolate returned. */
function returned(inv: Invocation): void {
  inv.applying--;
  if (inv.applying === 0) inv.onQuiet?.();
}

/**
 * The formula has answered: stop everything it started (timers, outbound calls) and wait, briefly, until the isolate
 * has returned from every call still queued or running in it - a timer callback that fired just before the answer
 * may be running a busy loop. True when it is quiet (the isolate may be reused); false: it must be disposed.
 */
function quiesce(inv: Invocation): Promise<boolean> {
  inv.answered = true;
  for (const t of inv.timers.values()) clearTimer(t);
  inv.timers.clear();
  for (const callId of inv.calls) send({ t: 'cancel', id: inv.id, callId });
  inv.calls.clear();
  if (inv.applying === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(
      () => {
        inv.onQuiet = null;
        resolve(false);
      },
      Math.min(DEFAULTS.quiesceMs, remaining(inv)),
    );
    inv.onQuiet = () => {
      clearTimeout(timer);
      inv.onQuiet = null;
      resolve(true);
    };
  });
}

function startCall(inv: Invocation, kindArg: unknown, payload: unknown, body: unknown): Sync {
  if (kindArg !== 'fetch' && kindArg !== 'svc') return [false, 'Unknown call'];
  if (typeof payload !== 'string' || payload.length > 8 * 1024 * 1024) return [false, 'Invalid call'];
  if (body !== null && body !== undefined && !(body instanceof Uint8Array)) return [false, 'Invalid request body'];
  if (body instanceof Uint8Array && body.byteLength > (config.maxFetchBytes || 5 * 1024 * 1024)) {
    return [false, `Request body exceeds ${config.maxFetchBytes || 5 * 1024 * 1024} bytes`, 'ERR_SANDBOX_BODY'];
  }
  if (kindArg === 'svc') {
    if (++inv.svcCalls > (config.maxSvcCalls || 1000)) {
      return [false, `Too many svc calls in one invocation (the sandbox allows ${config.maxSvcCalls || 1000})`, 'ERR_SANDBOX_CALLS'];
    }
  } else if (++inv.fetchCalls > (config.maxFetchCalls || 100)) {
    return [false, `Too many fetch calls in one invocation (the sandbox allows ${config.maxFetchCalls || 100})`, 'ERR_SANDBOX_CALLS'];
  }
  const callId = ++inv.callSeq;
  inv.calls.add(callId);
  send({
    t: 'call',
    id: inv.id,
    callId,
    kind: kindArg,
    payload,
    ...(body instanceof Uint8Array && body.byteLength > 0 ? { body } : {}),
  });
  return [true, callId];
}

function onCallResult(msg: Extract<HostToWorker, { t: 'result' }>): void {
  const inv = invocations.get(msg.id);
  if (!inv || inv.done || inv.answered || !inv.entry || !inv.calls.delete(msg.callId)) return;
  const body = msg.body instanceof Uint8Array ? new Uint8Array(msg.body) : null;
  inv.applying++;
  inv.entry
    .apply(undefined, ['settle', msg.callId, msg.ok, msg.payload, body], {
      timeout: remaining(inv),
      arguments: { copy: true },
      result: { copy: true },
    })
    .then(
      () => returned(inv),
      (err) => {
        returned(inv);
        onIsolateError(inv, err);
      },
    );
}

async function run(msg: Extract<HostToWorker, { t: 'run' }>): Promise<void> {
  const inv: Invocation = {
    id: msg.id,
    holder: null,
    deadline: Date.now() + msg.remainingMs,
    capture: msg.capture,
    logs: [],
    logBytes: 0,
    done: false,
    wall: null,
    timers: new Map(),
    calls: new Set(),
    callSeq: 0,
    svcCalls: 0,
    fetchCalls: 0,
    ctx: null,
    entry: null,
    fnRef: null,
    killed: false,
    compiled: false,
    applying: 0,
    answered: false,
    onQuiet: null,
  };
  invocations.set(inv.id, inv);
  // The wall clock: whatever the formula is doing (sync loop in a continuation, never-resolving promise, ...),
  // the isolate is disposed - which terminates any running code at once - and the invocation ends with 504.
  inv.wall = setTimeout(() => finish(inv, { fail: 'timeout' }, true), msg.remainingMs);

  let script: ivm.Script;
  let holder: Holder;
  try {
    holder = await isolates.isolateFor(typeof msg.tenant === 'string' && msg.tenant !== '' ? msg.tenant : null);
  } catch {
    finish(inv, { fail: 'internal' }, true);
    retire('cannot create isolates');
    return;
  }
  if (inv.done) {
    // the deadline passed while the isolate was being made
    disposeHolder(holder);
    return;
  }
  inv.holder = holder;
  const iso = holder.isolate;
  try {
    const compiled = await isolates.compile(holder, msg.code);
    script = compiled.script;
    inv.compiled = compiled.compiled;
  } catch (e) {
    if (inv.done) return;
    if (iso.isDisposed) return onIsolateError(inv, e);
    const text = e instanceof Error ? e.message : String(e);
    finish(inv, { fail: 'load', message: text.split('\n')[0].slice(0, 1000) });
    return;
  }
  if (inv.done) return;
  try {
    const ctx = await iso.createContext();
    inv.ctx = ctx;
    if (inv.done) return void ctx.release();
    const runtime = holder.runtime;
    inv.entry = (await runtime.run(ctx, { reference: true, timeout: 2000 })) as ivm.Reference<(...args: unknown[]) => unknown>;
    if (inv.done) return;
    inv.fnRef = (await script.run(ctx, { reference: true, timeout: remaining(inv) })) as ivm.Reference<unknown>;
    if (inv.done) return;
    const opts = JSON.stringify({
      capture: msg.capture,
      svc: msg.svc,
      maxLogLines: config.maxLogLines || 200,
      maxLogBytes: config.maxLogBytes || 65536,
      maxResultChars: config.maxResultBytes || 1048576,
      hashes: HASHES,
    });
    const log = new ivm.Callback(
      (level: unknown, line: unknown) => {
        if (inv.done || !inv.capture || typeof line !== 'string') return;
        if (inv.logs.length >= (config.maxLogLines || 200) + 1) return;
        const text = `[${typeof level === 'string' ? level.slice(0, 8) : 'log'}] ${line.slice(0, 8300)}`;
        inv.logBytes += text.length;
        if (inv.logBytes > (config.maxLogBytes || 65536) + 9000) return;
        inv.logs.push(text);
      },
      { ignored: true },
    );
    const out = await inv.entry.apply(undefined, ['invoke', inv.fnRef.derefInto(), msg.req, new ivm.Callback(hostSyncFor(inv)), log, opts], {
      timeout: remaining(inv),
      result: { promise: true, copy: true },
    });
    if (inv.done) return;
    if (typeof out !== 'string' || (out[0] !== 'R' && out[0] !== 'E')) {
      finish(inv, { fail: 'internal' });
      return;
    }
    if (out.length - 1 > (config.maxResultBytes || 1048576) + 1024) {
      finish(inv, { fail: 'too-large' });
      return;
    }
    const quiet = await quiesce(inv);
    if (inv.done) return;
    // not quiet: the answer stands, and disposing the isolate ends what is still running in it
    finish(inv, { out }, !quiet);
  } catch (e) {
    onIsolateError(inv, e);
  }
}

process.on('message', (msg: HostToWorker) => {
  switch (msg?.t) {
    case 'run':
      run(msg).catch(() => {
        const inv = invocations.get(msg.id);
        if (inv) finish(inv, { fail: 'internal' }, true);
      });
      break;
    case 'result':
      onCallResult(msg);
      break;
    case 'exit':
      retiring = true;
      isolates.clear();
      for (const inv of invocations.values()) if (inv.holder) disposeHolder(inv.holder);
      process.exit(0);
  }
});
// The pool went away: so do we.
process.on('disconnect', () => process.exit(0));
process.on('uncaughtException', () => process.exit(71));
process.on('unhandledRejection', () => undefined);

send({ t: 'ready', pid: process.pid });
isolates.scheduleSpare();
