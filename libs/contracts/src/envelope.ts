import type { Principal } from './auth/principal';

/** What every RPC carries: who asks, the trace, and the payload. Services re-check tenant scope themselves. */
export interface RpcEnvelope<T = unknown> {
  principal?: Principal;
  traceId: string;
  body: T;
}

/** Deadlines per call class (ms). Every RPC has one; passing it gives the client 504, a missing service 503. */
export const RPC_DEADLINE_MS = {
  default: 5_000,
  authenticate: 2_000,
  /** synchronous reactor runs are bounded at 10 s by the sandbox; leave room for detokenize + tokenize */
  react: 15_000,
} as const;
