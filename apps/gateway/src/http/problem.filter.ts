import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ProblemError, STATUS_TITLES, isProblem, type Problem } from '@coffer/contracts';
import type { Logger } from '@coffer/observability';

/** Every error leaves the gateway as application/problem+json (conventions §3). */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const problem = this.toProblem(exception);
    if (problem.status === 429 && exception instanceof ProblemError && exception.retryAfter)
      void reply.header('retry-after', String(exception.retryAfter));
    void reply.status(problem.status).header('content-type', 'application/problem+json').send(problem);
  }

  private toProblem(exception: unknown): Problem {
    if (exception instanceof ProblemError) return exception.problem;
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const body = exception.getResponse();
      const detail = typeof body === 'object' && body && 'message' in body ? String((body as { message: unknown }).message) : exception.message;
      return { title: STATUS_TITLES[status] ?? 'Error', status, detail };
    }
    if (isProblem(exception)) return exception;
    // Fastify's own errors (bad JSON, body too large, unsupported media type) carry a statusCode.
    const statusCode = (exception as { statusCode?: unknown })?.statusCode;
    if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
      return { title: STATUS_TITLES[statusCode] ?? 'Error', status: statusCode, detail: fastifyDetail(exception, statusCode) };
    }
    this.logger.error(
      { err: { message: exception instanceof Error ? exception.message : String(exception), stack: exception instanceof Error ? exception.stack : undefined } },
      'unhandled error at the gateway',
    );
    return { title: 'Internal Server Error', status: 500, detail: 'An unexpected error occurred' };
  }
}

function fastifyDetail(exception: unknown, status: number): string {
  if (status === 413) return 'The request body exceeds the 1 MiB limit';
  if (status === 415) return 'The Content-Type of the request is not supported';
  if (status === 400) return 'The request body is not valid JSON';
  return (exception as Error).message ?? 'The request is invalid';
}
