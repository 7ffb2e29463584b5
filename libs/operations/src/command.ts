import type { Principal } from '@coffer/contracts';
import type { IdempotentWrite } from '@coffer/idempotency';

/**
 * What an operation's handler is called with, once the dispatcher checked the caller, the JSON limits and the body:
 * the handler is a plain function of it.
 */
export interface Command<B = unknown> {
  /** the authenticated caller (absent only for operations open to anyone: pings, authentication itself) */
  principal: Principal;
  traceId: string;
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
