/** `AbortController` / `AbortSignal` (enough for fetch: `abort` listeners, `reason`, `timeout`). */
import { domException } from './dom-exception';
import { named } from './host';
import { setTimeout } from './timers';

type Listener = (this: AbortSignal, ev: { type: 'abort'; target: AbortSignal }) => void;

export class AbortSignal {
  aborted = false;
  reason: unknown = undefined;
  onabort: Listener | null = null;
  private listeners: Listener[] = [];
  addEventListener(type: string, fn: unknown): void {
    if (type === 'abort' && typeof fn === 'function') this.listeners.push(fn as Listener);
  }
  removeEventListener(_type: string, fn: unknown): void {
    this.listeners = this.listeners.filter((x) => x !== fn);
  }
  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }
  _abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason === undefined ? domException('This operation was aborted', 'AbortError') : reason;
    const ev = { type: 'abort' as const, target: this };
    for (const fn of [this.onabort, ...this.listeners]) {
      if (typeof fn !== 'function') continue;
      try {
        fn.call(this, ev);
      } catch {
        /* a listener's error does not stop the others */
      }
    }
  }
  static abort(reason?: unknown): AbortSignal {
    const s = new AbortSignal();
    s._abort(reason);
    return s;
  }
  static timeout(ms: unknown): AbortSignal {
    const s = new AbortSignal();
    setTimeout(() => s._abort(domException('The operation was aborted due to timeout', 'TimeoutError')), ms);
    return s;
  }
  get [Symbol.toStringTag](): string {
    return 'AbortSignal';
  }
}

export class AbortController {
  readonly signal = new AbortSignal();
  abort(reason?: unknown): void {
    this.signal._abort(reason);
  }
}

named(AbortSignal, 'AbortSignal');
named(AbortController, 'AbortController');
