import { isObservable, lastValueFrom, type Observable, tap, finalize, throwError } from 'rxjs';
import { Counter } from 'prom-client';
import { STATUS_TITLES, type Problem, type RpcEnvelope } from '@coffer/contracts';
import { metricsRegistry, type Logger } from '@coffer/observability';
import type { InFlightRequests } from './in-flight';
import { deadlineAtDispatch, withRequestDeadline } from './request-deadline';
import { toProblem } from './rpc-problem.filter';
import type { HandlerInvoker } from './operations/invoker';

export const rpcDroppedPastDeadline = new Counter({
  name: 'coffer_rpc_dropped_past_deadline_total',
  help: 'RPC requests not handled because their caller had given up (deadline passed before the handler started)',
  labelNames: ['subject'] as const,
  registers: [metricsRegistry],
});

/** The reply to a request dropped at its deadline: nobody waits for it, but the transport needs one. */
const PAST_DEADLINE: Problem = {
  title: STATUS_TITLES[504] ?? 'Gateway Timeout',
  status: 504,
  detail: "The caller's deadline passed before the request was handled",
};

/** A handler as Nest's microservice server keeps it (`Server.messageHandlers`): data and context in, a value, or an Observable, out. */
type MessageHandler = ((data: unknown, ctx: unknown) => Promise<unknown>) & { isEventHandler?: boolean };

interface ServerHandlers {
  messageHandlers?: Map<string, MessageHandler>;
}

/**
 * Wraps every handler of a Nest microservice server (after it registered them) to count the handlers running, for a
 * graceful shutdown, and log one line per RPC with the caller's trace id, subject, tenant, application and duration;
 * never the payload (it carries token data and keys).
 *
 * This was two Nest interceptors; Nest runs any interceptor inside AsyncResource bindings and rxjs operators that,
 * on Node 20, cost token-service 10–16 % of its CPU per request (issue 14's profiles). Here a handler that answers
 * is a plain awaited call; only a failure (Nest's exception filter hands back an erroring Observable) goes through rxjs.
 *
 * A request whose deadline (the envelope's `timeoutMs`, counted from its arrival) passed before its handler could
 * start is not handled: its caller has given up (counted in coffer_rpc_dropped_past_deadline_total, one log line).
 *
 * Returns false, changing nothing, when the server does not have the expected shape (another Nest version).
 */
export function superviseHandlers(server: ServerHandlers, inFlight: InFlightRequests, logger: Logger, invoker?: HandlerInvoker): boolean {
  const handlers = server.messageHandlers;
  if (!(handlers instanceof Map)) return false;
  for (const [subject, handler] of handlers) {
    // TEMPORARY SHIM (issue 23, until the Coffer NATS transport replaces this file): the invoker runs around the handler
    const invoked = invoker && !handler.isEventHandler ? viaInvoker(subject, handler, invoker, logger) : handler;
    const supervised = async (data: unknown, ctx: unknown): Promise<unknown> => {
      const started = performance.now();
      const env = data as RpcEnvelope | undefined;
      const fields = () => ({
        traceId: env?.traceId,
        subject,
        tenantId: env?.principal?.tenantId,
        applicationId: env?.principal?.applicationId,
        ms: +(performance.now() - started).toFixed(1),
      });
      const { deadline, expired } = deadlineAtDispatch(env, started);
      if (expired) {
        rpcDroppedPastDeadline.labels(subject).inc();
        logger.info(
          { traceId: env?.traceId, subject, tenantId: env?.principal?.tenantId, timeoutMs: env?.timeoutMs },
          'rpc dropped: deadline passed before it was handled',
        );
        return throwError(() => PAST_DEADLINE);
      }
      inFlight.start();
      let result: unknown;
      try {
        // nested calls made on behalf of this request (RpcClient.call) never wait past its deadline
        result = await withRequestDeadline(deadline, () => invoked(data, ctx));
      } catch (err) {
        inFlight.end();
        throw err;
      }
      if (!isObservable(result)) {
        inFlight.end();
        if (logger.isLevelEnabled('debug')) logger.debug(fields(), 'rpc');
        return result;
      }
      return (result as Observable<unknown>).pipe(
        tap({
          next: () => logger.isLevelEnabled('debug') && logger.debug(fields(), 'rpc'),
          error: (err: { status?: number; problem?: { status?: number } }) =>
            logger.info({ ...fields(), status: err?.status ?? err?.problem?.status ?? 500 }, 'rpc failed'),
        }),
        finalize(() => inFlight.end()),
      );
    };
    handlers.set(subject, Object.assign(supervised, handler));
  }
  return true;
}

/**
 * TEMPORARY SHIM (issue 23): the handler called through the invoker. `call(data)` resolves with the handler's reply or
 * rejects with the problem Nest's exception filter made of its failure; whatever the invoker throws itself (a 401 of
 * the operation dispatcher) is turned into the same problem reply, as an erroring Observable like Nest's.
 */
function viaInvoker(subject: string, handler: MessageHandler, invoker: HandlerInvoker, logger: Logger): MessageHandler {
  return async (data: unknown, ctx: unknown) => {
    const call = async (payload: unknown) => {
      const out = await handler(payload, ctx);
      return isObservable(out) ? lastValueFrom(out as Observable<unknown>) : out;
    };
    try {
      return await invoker(subject, data as RpcEnvelope, call);
    } catch (err) {
      return throwError(() => toProblem(err, logger));
    }
  };
}
