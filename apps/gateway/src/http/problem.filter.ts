import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ProblemError, STATUS_TITLES, isProblem, type Problem } from '@coffer/contracts';
import type { Logger } from '@coffer/observability';
import { frameworkProblem } from './framework-errors';

/** Every error leaves the gateway as application/problem+json (docs/api-reference.md). */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const problem = this.toProblem(exception);
    if (problem.status === 429 && exception instanceof ProblemError && exception.retryAfter) void reply.header('retry-after', String(exception.retryAfter));
    void reply.status(problem.status).header('content-type', 'application/problem+json').send(problem);
  }

  private toProblem(exception: unknown): Problem {
    if (exception instanceof ProblemError) return exception.problem;
    // Nest's own (the router's 404 "Cannot GET /path", a guard's 403): the message quotes the request, never sent.
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 403) return { title: STATUS_TITLES[403], status, detail: 'The API key does not grant access to this operation' };
      if (status >= 400 && status < 500) return frameworkProblem(status);
      return { title: STATUS_TITLES[status] ?? 'Error', status };
    }
    if (isProblem(exception)) return exception;
    // Fastify's own errors (bad JSON, body too large, unsupported media type) carry a statusCode and a code.
    const { statusCode, code } = (exception ?? {}) as { statusCode?: unknown; code?: unknown };
    if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) return frameworkProblem(statusCode, code);
    this.logger.error(
      { err: { message: exception instanceof Error ? exception.message : String(exception), stack: exception instanceof Error ? exception.stack : undefined } },
      'unhandled error at the gateway',
    );
    return { title: 'Internal Server Error', status: 500, detail: 'An unexpected error occurred' };
  }
}
