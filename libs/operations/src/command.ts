import type { IdempotentWrite } from '@coffer/idempotency';

/**
 * What an operation's handler is called with, once the dispatcher checked the caller, the JSON limits and the body:
 * the handler is a plain function of it. Who calls is not a member: the dispatcher runs the handler as its caller
 * (acting-context.ts), and the use cases read `caller()` and `currentTraceId()` where they start.
 */
export interface Command<B = unknown> {
  /** the body: the validated contract instance when the row validates, else the body as received */
  body: B;
  /** a `transaction` write whose handler records the key in its own transaction (and only then) */
  idempotency?: IdempotentWrite;
  /** when the caller stops waiting (performance.now() scale), if it said */
  deadline?: number;
  /**
   * The caller's SVC-IDEMPOTENCY-KEY as it arrived: for a handler that applies it through another service's ledger
   * (proxy-service, which stores nothing). Rows with an idempotency mode get `idempotency` instead.
   */
  idempotencyKey?: string;
}
