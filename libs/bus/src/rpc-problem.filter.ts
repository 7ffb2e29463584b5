import { Catch, type ArgumentsHost, type RpcExceptionFilter } from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import { type Observable, throwError } from 'rxjs';
import { ProblemError, isProblem, type Problem } from '@coffer/contracts';
import type { Logger } from '@coffer/observability';
import { databaseProblem } from '@coffer/db';

/**
 * Service side of the error model: a ProblemError crosses the bus as its problem document; a database timeout,
 * lock wait or outage as a 504 or 503 (databaseProblem); anything else is a bug, logged here (message and stack
 * only: never the payload) and sent as a bare 500.
 */
@Catch()
export class RpcProblemFilter implements RpcExceptionFilter<unknown> {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): Observable<Problem> {
    const ctx: unknown = host.switchToRpc().getContext();
    const subject = (ctx as { getSubject?: () => string } | undefined)?.getSubject?.();
    return throwError(() => toProblem(exception, this.logger, subject));
  }
}

/** Shared by this filter (errors inside a Nest handler) and CofferNatsServer (errors around it, in the invoker). */
export function toProblem(exception: unknown, logger?: Logger, subject?: string): Problem {
  if (exception instanceof ProblemError) return exception.problem;
  if (exception instanceof RpcException) {
    const e = exception.getError();
    if (isProblem(e)) return e;
  }
  if (isProblem(exception)) return exception;
  const database = databaseProblem(exception);
  if (database) {
    logger?.warn({ subject, status: database.status, detail: database.detail }, 'database refused or unavailable');
    return database;
  }
  logger?.error(
    {
      subject,
      err: { message: exception instanceof Error ? exception.message : String(exception), stack: exception instanceof Error ? exception.stack : undefined },
    },
    'unhandled error in RPC handler',
  );
  return { title: 'Internal Server Error', status: 500, detail: 'An unexpected error occurred' };
}
