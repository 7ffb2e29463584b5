import { EventEmitter } from 'node:events';
import { BaseRpcContext, Server, type CustomTransportStrategy, type MessageHandler } from '@nestjs/microservices';
import { connect, Events, type ConnectionOptions, type Msg, type NatsConnection, type Subscription } from 'nats';
import { isObservable, lastValueFrom } from 'rxjs';
import { Counter } from 'prom-client';
import { STATUS_TITLES, type Problem, type RpcEnvelope } from '@coffer/contracts';
import { inSpan, metricsRegistry, noteActivity, tracingEnabled, type Logger } from '@coffer/observability';
import { InFlightRequests } from './in-flight';
import { LostReplies, lostReplySubject } from './lost-replies';
import { natsConnectionOptions } from './nats-config';
import { logConnectionStatus } from './connection-status';
import { deadlineAtDispatch, withRequestDeadline } from './request-deadline';
import { toProblem } from './rpc-problem.filter';
import { PublishBatch } from './publish-batch';
import { decodeRequest, encodeProblemReply, encodeReply } from './wire-format';

/**
 * Runs the operation for one request: `call(data)` runs the Nest handler registered for `subject` with `data` as its
 * payload and resolves with its reply, or rejects with its error (a Problem once Nest's exception filter saw it).
 * The server runs the deadline drop, in-flight counting, logging and the request's deadline context around it, and
 * turns anything it throws into a problem reply.
 */
export type HandlerInvoker = (subject: string, envelope: RpcEnvelope, call: (data: unknown) => Promise<unknown>) => Promise<unknown>;

/** Today's contract: a handler receives the envelope as it came off the bus. */
export const passEnvelope: HandlerInvoker = (_subject, envelope, call) => call(envelope);

export const rpcDroppedPastDeadline = new Counter({
  name: 'coffer_rpc_dropped_past_deadline_total',
  help: 'RPC requests not handled because their caller had given up (deadline passed before the handler started)',
  labelNames: ['subject'] as const,
  registers: [metricsRegistry],
});

/** The reply to a request dropped at its deadline: nobody waits for it, but a late caller reads a clear answer. */
const PAST_DEADLINE: Problem = {
  title: STATUS_TITLES[504] ?? 'Gateway Timeout',
  status: 504,
  detail: "The caller's deadline passed before the request was handled",
};

export const rpcLostReplyNotices = new Counter({
  name: 'coffer_rpc_lost_reply_notices_total',
  help: 'Notices that a reply may have been lost with a NATS connection the service lost (its caller fails the request at once)',
  registers: [metricsRegistry],
});

const NOT_AN_ENVELOPE: Problem = { title: STATUS_TITLES[400] ?? 'Bad Request', status: 400, detail: 'The request is not an RPC envelope (a JSON object)' };

/** A server's span fails on its own faults (5xx, a crash), not on a caller's 4xx. */
function serverFault(err: unknown): boolean {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status !== 'number' || status >= 500;
}

const handledListeners = new Set<() => void>();

/**
 * Calls `listener` after each request the process's server handled (answered or not): work that requests leave
 * behind is scheduled by it instead of polled for (token-service's audit sealer: only requests write audit records).
 * The listener must be cheap and must not throw. Returns what removes it.
 */
export function onRequestHandled(listener: () => void): () => void {
  handledListeners.add(listener);
  return () => handledListeners.delete(listener);
}

/** What a handler's `@Ctx()` and the exception filter see: the subject the request came in on. */
export class CofferRpcContext extends BaseRpcContext<[string]> {
  getSubject(): string {
    return this.args[0];
  }
}

export interface CofferNatsServerOptions {
  /** The service's name: its NATS connection name and queue group, so replicas share the requests. */
  name: string;
  logger: Logger;
  /** Defaults to natsConnectionOptions(name): the service's credentials and TLS. */
  connection?: ConnectionOptions;
  /** How long close() waits for running handlers after it stopped taking requests. */
  shutdownWaitMs?: number;
}

type NatsEvents = { disconnect: (server: string) => void; reconnect: (server: string) => void };

/**
 * Coffer's NATS transport for @nestjs/microservices, through Nest's public extension point (a `Server` used as
 * `strategy`) and nats.js's public API. One subscription per registered subject, in the service's queue group; a
 * request is Coffer's wire format (wire-format.ts): the RpcEnvelope on the operation's subject, answered with
 * `{ok}` or `{problem}`.
 *
 * Around each request: a request whose deadline (its `timeoutMs`, counted from its arrival) passed before it could
 * start is not handled (coffer_rpc_dropped_past_deadline_total, one log line); a running one is counted, for a
 * graceful shutdown, runs with its deadline as the current request deadline (nested RpcClient calls never outlive
 * it), and is logged in one line with the caller's trace id, subject, tenant, application and duration — never the
 * payload, which carries token data and keys.
 */
export class CofferNatsServer extends Server<NatsEvents> implements CustomTransportStrategy {
  private nc?: NatsConnection;
  private readonly subscriptions: Subscription[] = [];
  private readonly inFlight = new InFlightRequests();
  private readonly events = new EventEmitter();
  private readonly contexts = new Map<string, CofferRpcContext>();
  /** replies of one event-loop iteration leave in one socket write */
  private readonly replies = new PublishBatch();
  /** replies a lost connection cannot carry any more, told to their callers by a notice instead */
  private readonly lostReplies = new LostReplies();
  private invoker: HandlerInvoker = passEnvelope;
  private closing?: Promise<void>;

  constructor(private readonly config: CofferNatsServerOptions) {
    super();
  }

  /** Installs the operation dispatcher; before listen(), or between requests. */
  setInvoker(invoker: HandlerInvoker): void {
    this.invoker = invoker;
  }

  /** Handlers running now. */
  get activeRequests(): number {
    return this.inFlight.active;
  }

  async listen(callback: (...optionalParams: unknown[]) => unknown): Promise<void> {
    try {
      const nc = await connect(this.config.connection ?? natsConnectionOptions(this.config.name));
      this.nc = nc;
      logConnectionStatus(nc, this.config.name, this.config.logger);
      this.followStatus(nc);
      this.replies.followConnection(nc);
      for (const [subject, handler] of this.getHandlers()) {
        const queue = typeof handler.extras?.['queue'] === 'string' ? (handler.extras['queue'] as string) : this.config.name;
        this.subscriptions.push(nc.subscribe(subject, { queue, callback: (err, msg) => (err ? undefined : this.receive(subject, handler, msg)) }));
      }
      // the server has the subscriptions before the service calls itself listening
      await nc.flush();
      this._status$.next('connected');
      callback();
    } catch (err) {
      callback(err);
    }
  }

  /**
   * Stops taking requests and waits for the running ones: the subscriptions drain (messages the client already holds
   * are still handled; an unsubscribe would drop them and their callers would wait for the deadline), then the
   * handlers finish. close() does this first; a shutdown can call it earlier to turn readiness red in between.
   */
  async drainRequests(maxWaitMs = this.config.shutdownWaitMs ?? 20_000): Promise<void> {
    await Promise.all(this.subscriptions.map((sub) => sub.drain().catch(() => undefined)));
    await this.inFlight.idle(maxWaitMs);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      const nc = this.nc;
      if (!nc) return;
      await this.drainRequests();
      this.replies.flush();
      // drain flushes the replies already written before it closes
      await nc.drain().catch(() => nc.close());
      this._status$.next('disconnected');
      this.events.removeAllListeners();
    })();
    return this.closing;
  }

  on<K extends keyof NatsEvents>(event: K, callback: NatsEvents[K]): void {
    this.events.on(event, callback);
  }

  unwrap<T>(): T {
    if (!this.nc) throw new Error('CofferNatsServer: not listening yet');
    return this.nc as T;
  }

  /**
   * Called by nats.js as it parses each message off the socket; the request starts in a microtask, after the other
   * messages of the same read were taken in, so one that waited behind a busy handler is seen as late.
   */
  private receive(subject: string, handler: MessageHandler, msg: Msg): void {
    const receivedAt = performance.now();
    const receivedOn = this.lostReplies.connection;
    // counted from arrival, so a drained subscription leaves no request between the bus and the count
    this.inFlight.start();
    queueMicrotask(() => void this.handle(subject, handler, msg, receivedAt, receivedOn));
  }

  private async handle(subject: string, handler: MessageHandler, msg: Msg, receivedAt: number, receivedOn: number): Promise<void> {
    const started = performance.now();
    const env = decodeRequest(msg.data);
    const log = this.config.logger;
    const fields = () => ({
      traceId: env?.traceId,
      subject,
      tenantId: env?.principal?.tenantId,
      applicationId: env?.principal?.applicationId,
      ms: +(performance.now() - started).toFixed(1),
    });
    try {
      if (!env) {
        log.info(fields(), 'rpc refused: not an envelope');
        return this.reply(msg, receivedOn, encodeProblemReply(NOT_AN_ENVELOPE));
      }
      const { deadline, expired } = deadlineAtDispatch(env, receivedAt, started);
      if (expired) {
        rpcDroppedPastDeadline.labels(subject).inc();
        log.info(
          { traceId: env.traceId, subject, tenantId: env.principal?.tenantId, timeoutMs: env.timeoutMs },
          'rpc dropped: deadline passed before it was handled',
        );
        return this.reply(msg, receivedOn, encodeProblemReply(PAST_DEADLINE));
      }
      let value: unknown;
      try {
        value = await this.traced(subject, env, () =>
          withRequestDeadline(deadline, () => this.invoker(subject, env, (data) => this.call(subject, handler, data))),
        );
      } catch (err) {
        const problem = toProblem(err, log, subject);
        log.info({ ...fields(), status: problem.status }, 'rpc failed');
        return this.reply(msg, receivedOn, encodeProblemReply(problem));
      }
      let reply: Uint8Array;
      try {
        reply = encodeReply(value, env.bytes === true);
      } catch (err) {
        // a value JSON cannot carry (a BigInt, a cycle) is a bug of the handler, answered like any other
        const problem = toProblem(err, log, subject);
        log.info({ ...fields(), status: problem.status }, 'rpc failed');
        return this.reply(msg, receivedOn, encodeProblemReply(problem));
      }
      if (log.isLevelEnabled('debug')) log.debug(fields(), 'rpc');
      this.reply(msg, receivedOn, reply);
    } finally {
      this.inFlight.end();
      noteActivity();
      if (handledListeners.size) for (const listener of handledListeners) listener();
    }
  }

  /** The request's span, a child of the caller's (its envelope's `traceparent`), when tracing is on. */
  private traced<T>(subject: string, env: RpcEnvelope, run: () => Promise<T>): Promise<T> {
    if (!tracingEnabled()) return run();
    const attributes = { 'messaging.system': 'nats', 'messaging.destination.name': subject, 'coffer.tenant_id': env.principal?.tenantId ?? '' };
    return inSpan(`${subject} process`, { kind: 'server', parent: env, attributes, isFailure: serverFault }, run);
  }

  /** Nest's handler (guards, pipes, the global exception filter around the method): a value, or an Observable. */
  private async call(subject: string, handler: MessageHandler, data: unknown): Promise<unknown> {
    let ctx = this.contexts.get(subject);
    if (!ctx) this.contexts.set(subject, (ctx = new CofferRpcContext([subject])));
    const result: unknown = await handler(data, ctx);
    return isObservable(result) ? lastValueFrom(result, { defaultValue: undefined }) : result;
  }

  private reply(msg: Msg, receivedOn: number, data: Uint8Array): void {
    const to = msg.reply;
    // a request without a reply subject is an event: nobody to answer
    if (!to) return;
    // held while the connection is down (PublishBatch.followConnection); one that cannot leave (the connection closed)
    // is not retried: the caller gets its deadline or its own 503. A request received on a connection since lost
    // cannot be answered on this one: its caller is told the reply is lost (lost-replies.ts).
    this.replies.add(() => (this.lostReplies.answerable(to, receivedOn) ? msg.respond(data) : this.tellLost(to)));
  }

  private tellLost(replySubject: string): void {
    rpcLostReplyNotices.inc();
    this.nc?.publish(lostReplySubject(replySubject));
  }

  private followStatus(nc: NatsConnection): void {
    void (async () => {
      for await (const s of nc.status()) {
        if (s.type === Events.Disconnect) {
          // held by PublishBatch until the connection is back, after the replies queued before
          const suspects = this.lostReplies.connectionLost();
          for (const suspect of suspects) this.replies.add(() => this.tellLost(suspect));
          this.config.logger.info(
            { connection: this.config.name, answeredJustBefore: suspects.length, running: this.inFlight.active },
            'nats connection lost: its callers will be told of the replies it may have lost',
          );
          this._status$.next('disconnected');
          this.events.emit('disconnect', String(s.data));
        } else if (s.type === Events.Reconnect) {
          this._status$.next('connected');
          this.events.emit('reconnect', String(s.data));
        }
      }
    })().catch(() => undefined);
  }
}
