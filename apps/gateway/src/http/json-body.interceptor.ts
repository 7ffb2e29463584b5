import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { type Observable, map } from 'rxjs';

/**
 * Every body is JSON: a handler that returns a primitive (POST /tokenize of a string gives the token id,
 * POST /detokenize of "{{ id }}" gives the data) would otherwise go out as text/plain. Only on the routes whose reply
 * may be a primitive: Nest wraps every interceptor in async-context bindings that cost the gateway ~8 % of its CPU per
 * request (issue 14), so the other routes have none.
 */
export class JsonBodyInterceptor implements NestInterceptor {
  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((body) => {
        if (body === undefined || (typeof body === 'object' && body !== null)) return body;
        void ctx.switchToHttp().getResponse<FastifyReply>().header('content-type', 'application/json; charset=utf-8');
        return JSON.stringify(body);
      }),
    );
  }
}
