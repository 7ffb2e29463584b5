import { AsyncLocalStorage } from 'node:async_hooks';
import { deadlineOf, type RpcEnvelope } from '@coffer/contracts';

/**
 * The deadline (performance.now() scale) of the RPC this code runs on behalf of, set by the transport
 * (CofferNatsServer) around each handler. Work a handler starts in the background keeps it too: background work
 * that must outlive the request (a job loop) is started outside any handler.
 */
const requestDeadline = new AsyncLocalStorage<number | undefined>();

/** Runs `fn` with `deadline` as the current request's deadline (undefined: none). */
export function withRequestDeadline<T>(deadline: number | undefined, fn: () => T): T {
  return requestDeadline.run(deadline, fn);
}

/** The current request's deadline (performance.now() scale), or undefined outside a handler or without one. */
export function currentRequestDeadline(): number | undefined {
  return requestDeadline.getStore();
}

/**
 * The time a nested call may wait: never more than what the current request has left. `Infinity`-free: undefined
 * `remaining` means no request deadline, and `wanted` is used as is. 0 or less means the caller has already given up.
 */
export function cappedDeadlineMs(wanted: number, deadline: number | undefined = currentRequestDeadline(), now: number = performance.now()): number {
  if (deadline === undefined) return wanted;
  return Math.min(wanted, Math.floor(deadline - now));
}

/**
 * The local deadline of a request and whether it passed before its handler could start. `timeoutMs` is relative to
 * when the caller sent it (like gRPC's grpc-timeout), so the clock starts on arrival: time spent in the NATS server or
 * in the socket while this process was busy is invisible here, and counts only against the caller.
 */
export function deadlineAtDispatch(
  env: Pick<RpcEnvelope, 'timeoutMs'> | undefined,
  receivedAt: number,
  now: number = performance.now(),
): { deadline?: number; expired: boolean } {
  const deadline = deadlineOf(env, receivedAt);
  return { deadline, expired: deadline !== undefined && deadline <= now };
}
