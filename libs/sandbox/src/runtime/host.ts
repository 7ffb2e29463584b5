/**
 * The runtime's only links to the worker: `hostSync` and `hostLog`, plain functions (isolated-vm Callbacks) taking
 * and returning copied primitives and byte arrays, set for each invocation by `invoke`. Nothing else of the host is
 * reachable from the isolate.
 */

/** `[true, value]` or `[false, message, code?]`. */
export type HostReply = [true, unknown] | [false, string, string?];
export type HostSync = (op: string, a?: unknown, b?: unknown, c?: unknown, d?: unknown) => HostReply;
export type HostLog = (level: string, line: string) => void;

export interface RuntimeOptions {
  capture: boolean;
  svc: boolean;
  maxLogLines: number;
  maxLogBytes: number;
  maxResultChars: number;
  hashes: string[];
}

interface HostLinks {
  sync: HostSync | null;
  log: HostLog | null;
  opts: RuntimeOptions;
}

export const links: HostLinks = {
  sync: null,
  log: null,
  opts: { capture: false, svc: false, maxLogLines: 200, maxLogBytes: 65536, maxResultChars: 1048576, hashes: [] },
};

/** An Error with Node's `code` property. */
export function codedError<E extends Error>(error: E, code: string): E & { code: string } {
  return Object.assign(error, { code });
}

/** Calls the worker; throws its refusal as an Error (with `code` when it gave one). */
export function host(op: string, a?: unknown, b?: unknown, c?: unknown, d?: unknown): unknown {
  if (links.sync === null) throw new Error('The sandbox host is not available here');
  const r = links.sync(op, a, b, c, d);
  if (!Array.isArray(r)) throw new Error('Sandbox host call failed');
  if (r[0] !== true) {
    const e = new Error(typeof r[1] === 'string' ? r[1] : 'Sandbox host call failed');
    if (typeof r[2] === 'string') codedError(e, r[2]);
    throw e;
  }
  return r[1];
}

/** Like `host`, but a refusal is `undefined` (callers turn it into their own error). */
export function tryHost(op: string, a?: unknown, b?: unknown, c?: unknown): { ok: true; value: unknown } | { ok: false } {
  const r = links.sync === null ? null : links.sync(op, a, b, c);
  if (!Array.isArray(r) || r[0] !== true) return { ok: false };
  return { ok: true, value: r[1] };
}

/**
 * Everything sizeable is built on first use: each invocation runs in a fresh context that runs this runtime first,
 * so a context must cost little until the formula touches something.
 */
export function once<T>(factory: () => T): () => T {
  let value: T;
  let built = false;
  return () => {
    if (!built) {
      value = factory();
      built = true;
    }
    return value;
  };
}

/**
 * Sets the name formula code sees (`Headers.name`): the bundler renames classes that refer to themselves
 * (`_Headers`), and naming the few visible ones is cheaper per context than keeping every name.
 */
export function named<T extends abstract new (...args: never[]) => unknown>(C: T, name: string): T {
  return Object.defineProperty(C, 'name', { value: name, configurable: true });
}
