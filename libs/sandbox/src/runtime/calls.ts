/**
 * Outbound calls (fetch, svc) are made by the host: `host('call')` hands the request over and returns its id; the
 * worker later calls `entry('settle', id, ok, json, bytes)` - under the invocation's deadline - with the answer.
 */
import { host } from './host';

/** `[ok, json, body bytes]` as the host settled the call. */
export type Settled = [boolean, string, Uint8Array | null | undefined];

const pending = new Map<number, (settled: Settled) => void>();

export function startCall(kind: 'fetch' | 'svc', payload: string, body?: Uint8Array): { id: number; promise: Promise<Settled> } {
  const id = host('call', kind, payload, body === undefined ? null : body) as number;
  const promise = new Promise<Settled>((resolve) => pending.set(id, resolve));
  return { id, promise };
}

/** The formula gave up on a call (abort): its answer, should it still come, is dropped. */
export function forgetCall(id: number): void {
  pending.delete(id);
  try {
    host('cancel', id);
  } catch {
    /* the invocation is over */
  }
}

export function settle(id: unknown, ok: unknown, json: unknown, bytes: unknown): 'ok' | 'gone' {
  const resolve = typeof id === 'number' ? pending.get(id) : undefined;
  if (resolve === undefined) return 'gone';
  pending.delete(id as number);
  resolve([ok === true, String(json), bytes instanceof Uint8Array ? bytes : null]);
  return 'ok';
}
