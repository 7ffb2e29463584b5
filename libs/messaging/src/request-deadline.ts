import { AsyncLocalStorage } from 'node:async_hooks';
// the deserializers are Nest's public API (@publicApi), exported from this entry point rather than the package root
import { NatsRequestJSONDeserializer } from '@nestjs/microservices/deserializers';
import { deadlineOf, type RpcEnvelope } from '@coffer/contracts';

/**
 * The deadline (performance.now() scale) of the RPC this code runs on behalf of, set by the dispatch wrapper
 * (superviseHandlers) around each handler. Work a handler starts in the background keeps it too: background work
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

const RECEIVED_AT = Symbol('coffer.rpc.receivedAt');
type Stamped = { [RECEIVED_AT]?: number };

/**
 * When the envelope was taken off the bus (performance.now()), stamped by ArrivalStampingDeserializer; Nest decodes
 * a message synchronously on arrival, but runs its handler later, behind whatever the event loop was busy with.
 */
export function receivedAtOf(env: unknown): number | undefined {
  return typeof env === 'object' && env !== null ? (env as Stamped)[RECEIVED_AT] : undefined;
}

/**
 * The local deadline of a request and whether it passed before its handler could start. `timeoutMs` is relative to
 * when the caller sent it (like gRPC's grpc-timeout), so the clock starts on arrival: time spent in the NATS server or
 * in the socket while this process was busy is invisible here, and counts only against the caller.
 */
export function deadlineAtDispatch(env: Pick<RpcEnvelope, 'timeoutMs'> | undefined, now: number = performance.now()): { deadline?: number; expired: boolean } {
  const deadline = deadlineOf(env, receivedAtOf(env) ?? now);
  return { deadline, expired: deadline !== undefined && deadline <= now };
}

/**
 * Nest's NATS JSON deserializer (its public `deserializer` option) that also notes on the envelope when the message
 * arrived, so a handler started after its caller's deadline can be dropped. The note is a symbol property: it is
 * never serialized, logged or seen by a handler reading the envelope's fields.
 */
export class ArrivalStampingDeserializer extends NatsRequestJSONDeserializer {
  override deserialize(value: Uint8Array, options?: Record<string, unknown>) {
    const receivedAt = performance.now();
    const packet = super.deserialize(value, options);
    const data = (packet as { data?: unknown }).data;
    if (typeof data === 'object' && data !== null && !Object.prototype.hasOwnProperty.call(data, RECEIVED_AT))
      Object.defineProperty(data, RECEIVED_AT, { value: receivedAt, enumerable: false });
    return packet;
  }
}
