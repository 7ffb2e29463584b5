import type { CanActivate, ExecutionContext } from '@nestjs/common';
import { IDEMPOTENCY_KEY_MAX_LENGTH, ProblemError } from '@coffer/contracts';
import type { GatewayRequest } from '../http/gateway-request';
import { IETF_IDEMPOTENCY_KEY } from '../http/coffer-headers';

/** Conventions §1: the key is honoured on POST, PUT and PATCH, and ignored on GET and DELETE. */
const METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * SVC-IDEMPOTENCY-KEY (or an alias, or the IETF `Idempotency-Key`; docs/idempotency.md) at the edge: checks the key
 * (after authentication and the route's permission) and leaves it on the request for the route's RPCs (`callContext`); the service that owns the write records it in the write's own
 * transaction (libs/idempotency), which is what makes a retry after a lost reply safe. A response the service answered
 * from its record is marked `svc-idempotent-replay: true` (fastify-setup's onSend hook).
 */
export class IdempotencyKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<GatewayRequest>();
    const key = req.idempotencyKey;
    const conflicting = req.idempotencyKeyConflict;
    if (key === undefined && !conflicting) return true;
    if (!METHODS.has(req.method)) {
      req.idempotencyKey = undefined;
      return true;
    }
    if (conflicting) {
      const names = conflicting.map(headerName);
      throw new ProblemError(400, `${names.join(' and ')} carry different idempotency keys: send one key (in one header, or the same in each)`, {
        headers: names.map((n) => `${n}: differs from the other idempotency key`),
      });
    }
    if (key === undefined) return true;
    if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH)
      throw new ProblemError(400, `The idempotency key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`);
    return true;
  }
}

/** `svc-idempotency-key` → `SVC-IDEMPOTENCY-KEY`; `idempotency-key` → `Idempotency-Key` (as the documents spell them) */
function headerName(name: string): string {
  return name === IETF_IDEMPOTENCY_KEY ? 'Idempotency-Key' : name.toUpperCase();
}
