import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { ClientNats } from '@nestjs/microservices';
import { TimeoutError, firstValueFrom, timeout } from 'rxjs';
import { ProblemError, RPC_DEADLINE_MS, isProblem, type Principal, type RpcEnvelope } from '@coffer/contracts';
import { rpcDuration } from '@coffer/observability';
import { natsConnectionOptions } from './nats-config';

export interface CallContext {
  principal?: Principal;
  traceId: string;
}

/**
 * Request-reply over NATS with a deadline on every call. What comes back is either the reply or a ProblemError
 * with the right status: the service's own problem (404 stays 404), 503 when nobody serves the subject or the
 * bus is down, 504 when the deadline passes.
 */
@Injectable()
export class RpcClient implements OnModuleDestroy {
  private readonly client: ClientNats;

  constructor() {
    const service = process.env['SERVICE_NAME'] ?? 'coffer';
    // Replies come back on _INBOX.<service>.…, so NATS permissions can let each service read only its own replies.
    this.client = new ClientNats({ ...natsConnectionOptions(`${service}-rpc`), inboxPrefix: `_INBOX.${service}` } as never);
  }

  async call<T>(subject: string, body: unknown, ctx: CallContext, deadlineMs: number = RPC_DEADLINE_MS.default): Promise<T> {
    const envelope: RpcEnvelope = { principal: ctx.principal, traceId: ctx.traceId, body };
    const started = process.hrtime.bigint();
    let outcome = 'ok';
    try {
      return await firstValueFrom(this.client.send<T>(subject, envelope).pipe(timeout(deadlineMs)));
    } catch (err) {
      const problem = toCallError(err, subject);
      outcome = String(problem.status);
      throw problem;
    } finally {
      rpcDuration.labels(subject, outcome).observe(Number(process.hrtime.bigint() - started) / 1e9);
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.client.close();
  }
}

function serviceOf(subject: string): string {
  return `${subject.split('.')[0]}-service`;
}

export function toCallError(err: unknown, subject: string): ProblemError {
  if (err instanceof ProblemError) return err;
  if (isProblem(err)) return ProblemError.fromProblem(err);
  if (err instanceof TimeoutError)
    return new ProblemError(504, `The ${serviceOf(subject)} did not answer in time`);
  const message = err instanceof Error ? err.message : typeof err === 'object' && err ? String((err as { message?: unknown }).message ?? '') : String(err);
  if (/no subscribers|no responders|503|CONNECTION_CLOSED|CONNECTION_REFUSED|disconnect|ECONNREFUSED|closed/i.test(message))
    return new ProblemError(503, `The ${serviceOf(subject)} is unavailable`);
  return new ProblemError(502, `The ${serviceOf(subject)} failed to process the request`);
}
