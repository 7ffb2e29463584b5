import type { Principal } from './auth/principal';

/** What every RPC carries: who asks, the trace, and the payload. Services re-check tenant scope themselves. */
export interface RpcEnvelope<T = unknown> {
  principal?: Principal;
  traceId: string;
  body: T;
  /** SVC-IDEMPOTENCY-KEY of a POST, PUT or PATCH: the service that owns the write records it with the write. */
  idempotencyKey?: string;
  /**
   * How long (ms) the caller waits for the reply, counted from when it sent the request. Relative, like gRPC's
   * `grpc-timeout`, so clock skew between hosts cannot shorten or stretch it: the receiver turns it into a local
   * deadline on arrival (`deadlineOf`) and drops or cancels work its caller has given up on.
   */
  timeoutMs?: number;
  /**
   * The caller reads replies whose top-level `body` is bytes as a binary frame (libs/bus wire-format.ts). A
   * caller without it (an older release during a rolling upgrade) gets that body as base64 text, as before.
   */
  bytes?: true;
  /** W3C trace context of the caller's span (only when tracing is on): the service's span continues its trace. */
  traceparent?: string;
  tracestate?: string;
}

/** The local monotonic deadline (performance.now() scale) of an envelope received at `receivedAt`, or undefined. */
export function deadlineOf(env: Pick<RpcEnvelope, 'timeoutMs'> | undefined, receivedAt: number = performance.now()): number | undefined {
  const t = env?.timeoutMs;
  return typeof t === 'number' && Number.isFinite(t) && t > 0 ? receivedAt + t : undefined;
}

/**
 * A client's SVC-TRACE-ID (docs/api-reference.md): 1–128 of `A-Z a-z 0-9 . _ : -`. The gateway takes no other (it
 * makes up a UUID instead), and the messages that carry a trace id accept exactly these, so a trace id the gateway
 * took can never make a message another service refuses.
 */
export const TRACE_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** The longest idempotency key accepted (docs/api-reference.md leaves it open; Stripe and the mirrored service use 255). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

const REPLAY = '$coffer.idempotentReplay';

/**
 * A service's answer to a repeat of a completed idempotent request: the reply as the caller may see it now. The
 * gateway unwraps it (RpcClient) and marks the HTTP response as a replay.
 */
export interface IdempotentReplay<T = unknown> {
  [REPLAY]: { body: T };
}

export function idempotentReplay<T>(body: T): IdempotentReplay<T> {
  return { [REPLAY]: { body } };
}

/** The replayed body, or undefined when `reply` is an ordinary reply. */
export function unwrapIdempotentReplay(reply: unknown): { body: unknown } | undefined {
  if (typeof reply !== 'object' || reply === null || !(REPLAY in reply)) return undefined;
  return (reply as IdempotentReplay)[REPLAY];
}

/** Deadlines per call class (ms). Every RPC has one; passing it gives the client 504, a missing service 503. */
export const RPC_DEADLINE_MS = {
  default: 5_000,
  authenticate: 2_000,
  /** synchronous reactor runs are bounded at 10 s by the sandbox; leave room for detokenize + tokenize */
  react: 15_000,
  /** a proxy request: the destination's 25 s (PROXY_DESTINATION_TIMEOUT_MS), detokenization before it, transforms after */
  proxy: 30_000,
} as const;
