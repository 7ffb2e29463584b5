/**
 * No work may be scheduled by the engine itself, outside the calls the worker makes and bounds (README, "Isolation
 * unit", layer 1): FinalizationRegistry cleanup callbacks run as engine tasks after the invocation, with no deadline;
 * WeakRef makes garbage collection - other invocations' allocations - observable; Atomics.waitAsync and
 * WebAssembly's asynchronous compilation post tasks too; SharedArrayBuffer/Atomics.wait could block the worker.
 * The last three are removed; WeakRef and FinalizationRegistry are replaced by inert versions the specification
 * allows (a target is never collected while the invocation runs; cleanup callbacks are never called).
 */

const ENGINE_SCHEDULING_GLOBALS = ['WebAssembly', 'SharedArrayBuffer', 'Atomics', 'FinalizationRegistry', 'WeakRef'];

function canBeHeldWeakly(v: unknown): boolean {
  return (typeof v === 'object' && v !== null) || typeof v === 'function' || (typeof v === 'symbol' && Symbol.keyFor(v) === undefined);
}

export class InertWeakRef<T extends object> {
  readonly #target: T;
  constructor(target: T) {
    if (!canBeHeldWeakly(target)) throw new TypeError('WeakRef: invalid target');
    this.#target = target;
  }
  deref(): T {
    return this.#target;
  }
}

export class InertFinalizationRegistry {
  readonly #tokens = new WeakMap<object, true>();
  constructor(cleanup: unknown) {
    if (typeof cleanup !== 'function') throw new TypeError('FinalizationRegistry: cleanup must be callable');
  }
  register(target: unknown, heldValue: unknown, unregisterToken?: unknown): undefined {
    if (!canBeHeldWeakly(target)) throw new TypeError('FinalizationRegistry.prototype.register: invalid target');
    if (target === heldValue) throw new TypeError('FinalizationRegistry.prototype.register: target and holdings must not be same');
    if (unregisterToken !== undefined) {
      if (!canBeHeldWeakly(unregisterToken)) throw new TypeError('FinalizationRegistry.prototype.register: invalid unregister token');
      this.#tokens.set(unregisterToken as object, true);
    }
    return undefined;
  }
  unregister(unregisterToken: unknown): boolean {
    if (!canBeHeldWeakly(unregisterToken)) throw new TypeError('Invalid unregisterToken');
    const had = this.#tokens.has(unregisterToken as object);
    this.#tokens.delete(unregisterToken as object);
    return had;
  }
}
Object.defineProperty(InertWeakRef, 'name', { value: 'WeakRef' });
Object.defineProperty(InertFinalizationRegistry, 'name', { value: 'FinalizationRegistry' });
Object.defineProperty(InertWeakRef.prototype, Symbol.toStringTag, { value: 'WeakRef', configurable: true });
Object.defineProperty(InertFinalizationRegistry.prototype, Symbol.toStringTag, { value: 'FinalizationRegistry', configurable: true });

/** Runs first in every context, before any library code could capture the engine's versions. */
export function removeEngineScheduledWork(): void {
  const g = globalThis as Record<string, unknown>;
  for (const name of ENGINE_SCHEDULING_GLOBALS) {
    try {
      delete g[name];
    } catch {
      /* not configurable: left as is */
    }
  }
}
