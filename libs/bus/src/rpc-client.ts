import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { connect, type NatsConnection } from 'nats';
import {
  ProblemError,
  RPC_DEADLINE_MS,
  isProblem,
  unwrapIdempotentReplay,
  type BodyOf,
  type OperationRow,
  type Principal,
  type ReplyOf,
  type RpcEnvelope,
} from '@coffer/contracts';
import { injectTraceContext, inSpan, noteActivity, rpcDuration, serviceName, tracingEnabled } from '@coffer/observability';
import { natsConnectionOptions } from './nats-config';
import { logConnectionStatus } from './connection-status';
import { ReplyInbox } from './reply-inbox';
import { cappedDeadlineMs } from './request-deadline';
import { decodeReply, encodeRequest } from './wire-format';

export interface CallContext {
  principal?: Principal;
  traceId: string;
  /** forwarded to the service that owns the write (libs/idempotency) */
  idempotencyKey?: string;
  /** told when the service answered a repeat of a completed request with its recorded reply */
  onReplay?: () => void;
}

/**
 * Request-reply over NATS with a deadline on every call. What comes back is either the reply or a ProblemError
 * with the right status: the service's own problem (404 stays 404), 503 when nobody serves the subject or the
 * bus is down, 504 when the deadline passes.
 *
 * It speaks Coffer's wire format (wire-format.ts, served by CofferNatsServer) over one reply subscription for all
 * calls (ReplyInbox), instead of a subscribe/unsubscribe per call.
 */
@Injectable()
export class RpcClient implements OnModuleDestroy {
  private connection?: Promise<{ nc: NatsConnection; inbox: ReplyInbox }>;

  /** Called by every request: what it reads to connect (SERVICE_NAME, an environment lookup) is read once. */
  private connect(): Promise<{ nc: NatsConnection; inbox: ReplyInbox }> {
    this.connection ??= this.open(serviceName());
    return this.connection;
  }

  /** Replies come back on _INBOX.<service>.…, so NATS permissions can let each service read only its own replies. */
  private async open(service: string): Promise<{ nc: NatsConnection; inbox: ReplyInbox }> {
    const nc = await connect({ ...natsConnectionOptions(`${service}-rpc`), inboxPrefix: `_INBOX.${service}` });
    logConnectionStatus(nc, `${service}-rpc`);
    return { nc, inbox: new ReplyInbox(nc, `_INBOX.${service}`) };
  }

  /**
   * `deadlineMs` is what this call may take; made on behalf of a request a service is handling (inside its handler),
   * never more than that request has left, so no service keeps working for a caller that has given up. A request
   * with nothing left fails at once with 504, sending nothing. Given an operation of the table (libs/contracts OPS),
   * the body and reply are typed by its row.
   */
  call<O extends OperationRow<unknown, unknown>>(op: O, body: BodyOf<O>, ctx: CallContext, wantedMs?: number): Promise<ReplyOf<O>>;
  /** A caller that states the reply type itself (rows whose reply type the table leaves open), or a bare subject. */
  call<T>(target: string | OperationRow, body: unknown, ctx: CallContext, wantedMs?: number): Promise<T>;
  async call<T>(target: string | OperationRow, body: unknown, ctx: CallContext, wantedMs: number = RPC_DEADLINE_MS.default): Promise<T> {
    const subject = typeof target === 'string' ? target : target.subject;
    // work: the process gives memory back once it has been quiet a while (the gateway's only signal of its requests)
    noteActivity();
    const deadlineMs = cappedDeadlineMs(wantedMs);
    if (deadlineMs <= 0) {
      rpcDuration.labels(subject, '504').observe(0);
      throw new ProblemError(504, `The ${serviceOf(subject)} did not answer in time`);
    }
    const envelope: RpcEnvelope = { principal: ctx.principal, traceId: ctx.traceId, body, timeoutMs: deadlineMs, bytes: true };
    if (ctx.idempotencyKey !== undefined) envelope.idempotencyKey = ctx.idempotencyKey;
    if (!tracingEnabled()) return this.send<T>(subject, envelope, deadlineMs, ctx);
    return inSpan(`${subject} request`, { kind: 'client', attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject } }, () => {
      injectTraceContext(envelope);
      return this.send<T>(subject, envelope, deadlineMs, ctx);
    });
  }

  private async send<T>(subject: string, envelope: RpcEnvelope, deadlineMs: number, ctx: CallContext): Promise<T> {
    const started = process.hrtime.bigint();
    let outcome = 'ok';
    try {
      const { inbox } = await this.connect();
      const msg = await inbox.request(subject, encodeRequest(envelope), deadlineMs);
      const reply = decodeReply<T>(msg.data);
      if ('problem' in reply) throw ProblemError.fromProblem(reply.problem);
      const replay = unwrapIdempotentReplay(reply.ok);
      if (!replay) return reply.ok;
      ctx.onReplay?.();
      return replay.body as T;
    } catch (err) {
      const problem = toCallError(err, subject);
      outcome = String(problem.status);
      throw problem;
    } finally {
      rpcDuration.labels(subject, outcome).observe(Number(process.hrtime.bigint() - started) / 1e9);
    }
  }

  async onModuleDestroy(): Promise<void> {
    if (!this.connection) return;
    const connection = await this.connection.catch(() => undefined);
    connection?.inbox.flush();
    await connection?.nc.drain().catch(() => undefined);
    connection?.inbox.close();
  }
}

function serviceOf(subject: string): string {
  return `${subject.split('.')[0]}-service`;
}

export function toCallError(err: unknown, subject: string): ProblemError {
  if (err instanceof ProblemError) return err;
  if (isProblem(err)) return ProblemError.fromProblem(err);
  const code = (err as { code?: unknown })?.code;
  if (code === 'TIMEOUT' || code === 'REPLY_LOST') return new ProblemError(504, `The ${serviceOf(subject)} did not answer in time`);
  const message = err instanceof Error ? err.message : typeof err === 'object' && err ? String((err as { message?: unknown }).message ?? '') : String(err);
  if (code === '503' || /no responders|503|CONNECTION_CLOSED|CONNECTION_REFUSED|disconnect|ECONNREFUSED|closed/i.test(message))
    return new ProblemError(503, `The ${serviceOf(subject)} is unavailable`);
  return new ProblemError(502, `The ${serviceOf(subject)} failed to process the request`);
}
