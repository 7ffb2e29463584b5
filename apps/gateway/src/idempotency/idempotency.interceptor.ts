import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { type Observable, tap } from 'rxjs';
import { IDEMPOTENCY_KEY_MAX_LENGTH, ProblemError } from '@coffer/contracts';
import type { GatewayRequest } from '../http/gateway-request';

/** Conventions §1: the key is honoured on POST, PUT and PATCH, and ignored on GET and DELETE. */
const METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * SVC-IDEMPOTENCY-KEY at the edge: checks the key and hands it to the route's RPCs (`callContext`); the service that
 * owns the write records it in the write's own transaction (libs/idempotency), which is what makes a retry after a
 * lost reply safe. A response the service answered from its record is marked `svc-idempotent-replay: true`.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<GatewayRequest>();
    const key = req.idempotencyKey;
    if (key === undefined || !METHODS.has(req.method)) {
      req.idempotencyKey = undefined;
      return next.handle();
    }
    if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH)
      throw new ProblemError(400, `The idempotency key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`);
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return next.handle().pipe(
      tap(() => {
        if (req.idempotentReplay) void reply.header('svc-idempotent-replay', 'true');
      }),
    );
  }
}
