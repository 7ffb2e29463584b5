import type { CanActivate, ExecutionContext } from '@nestjs/common';
import { IDEMPOTENCY_KEY_MAX_LENGTH, ProblemError } from '@coffer/contracts';
import type { GatewayRequest } from '../http/gateway-request';

/** Conventions §1: the key is honoured on POST, PUT and PATCH, and ignored on GET and DELETE. */
const METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * SVC-IDEMPOTENCY-KEY at the edge: checks the key (after authentication and the route's permission) and leaves it on
 * the request for the route's RPCs (`callContext`); the service that owns the write records it in the write's own
 * transaction (libs/idempotency), which is what makes a retry after a lost reply safe. A response the service answered
 * from its record is marked `svc-idempotent-replay: true` (fastify-setup's onSend hook).
 */
export class IdempotencyKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<GatewayRequest>();
    const key = req.idempotencyKey;
    if (key === undefined) return true;
    if (!METHODS.has(req.method)) {
      req.idempotencyKey = undefined;
      return true;
    }
    if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH)
      throw new ProblemError(400, `The idempotency key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`);
    return true;
  }
}
