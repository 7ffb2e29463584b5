/**
 * Timers are the worker's (`host('timer', ...)`): it arms them, bounds their number per invocation, cancels them
 * when the formula answers, and calls `entry('timer', id)` - under the invocation's deadline - when one fires.
 */
import { logError } from './console';
import { codedError, host, once } from './host';
import { inspect } from './inspect';

type Kind = 'timeout' | 'interval' | 'immediate';
interface PendingTimer {
  fn: (...args: unknown[]) => unknown;
  args: unknown[];
  repeat: boolean;
}

const MAX_DELAY = 2147483647;
const pending = new Map<number, PendingTimer>();
let seq = 0;

export class Timeout {
  constructor(
    readonly _id: number,
    readonly _kind: Kind,
  ) {}
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
  hasRef(): boolean {
    return true;
  }
  refresh(): this {
    return this;
  }
  [Symbol.toPrimitive](): number {
    return this._id;
  }
}

function addTimer(kind: Kind, fn: unknown, ms: unknown, args: unknown[]): Timeout {
  if (typeof fn !== 'function') {
    throw codedError(new TypeError('The "callback" argument must be of type function. Received ' + inspect(fn)), 'ERR_INVALID_ARG_TYPE');
  }
  let delay = Number(ms);
  if (!(delay >= 1 && delay <= MAX_DELAY)) delay = 1;
  const id = ++seq;
  host('timer', id, kind === 'immediate' ? 0 : delay, kind === 'interval');
  pending.set(id, { fn: fn as PendingTimer['fn'], args, repeat: kind === 'interval' });
  return new Timeout(id, kind);
}

export function clearAnyTimer(t: unknown): void {
  if (t === null || t === undefined) return;
  const id = typeof t === 'object' ? (t as { _id?: unknown })._id : Number(t);
  if (typeof id !== 'number' || !pending.has(id)) return;
  pending.delete(id);
  host('untimer', id);
}

export function setTimeout(fn: unknown, ms?: unknown, ...args: unknown[]): Timeout {
  return addTimer('timeout', fn, ms, args);
}
export function setInterval(fn: unknown, ms?: unknown, ...args: unknown[]): Timeout {
  return addTimer('interval', fn, ms, args);
}
export function setImmediate(fn: unknown, ...args: unknown[]): Timeout {
  return addTimer('immediate', fn, 0, args);
}
export function queueMicrotask(fn: unknown): void {
  if (typeof fn !== 'function') throw new TypeError('The "callback" argument must be of type function.');
  void Promise.resolve().then(() => fn());
}

/** `entry('timer', id)`: 'ok', 'gone' (cleared meanwhile), or 'X' (the callback threw: the invocation fails). */
export function fireTimer(id: unknown): 'ok' | 'gone' | 'X' {
  const t = typeof id === 'number' ? pending.get(id) : undefined;
  if (t === undefined) return 'gone';
  if (!t.repeat) pending.delete(id as number);
  try {
    t.fn(...t.args);
  } catch (e) {
    logError('Uncaught exception in a timer callback', e);
    return 'X';
  }
  return 'ok';
}

export const getTimersModule = once(() => ({
  setTimeout,
  clearTimeout: clearAnyTimer,
  setInterval,
  clearInterval: clearAnyTimer,
  setImmediate,
  clearImmediate: clearAnyTimer,
}));

export const getTimersPromisesModule = once(() => ({
  setTimeout: (ms?: unknown, value?: unknown) => new Promise((resolve) => setTimeout(resolve, ms, value)),
  setImmediate: (value?: unknown) => new Promise((resolve) => setImmediate(resolve, value)),
}));
