import type { CanActivate, ExecutionContext } from '@nestjs/common';
import { ProblemError } from '@coffer/contracts';
import type { GatewayRequest } from '../http/gateway-request';

/**
 * POST /sessions/authorize takes a private application's key. session-service decides this too (it is the owner);
 * it is answered here as well so that the 403 comes before the body is validated, as it did when only the service
 * judged the body.
 */
export class PrivateApplicationGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const principal = context.switchToHttp().getRequest<GatewayRequest>().principal;
    if (principal && (principal.sessionId || principal.applicationType !== 'private'))
      throw new ProblemError(403, 'Sessions are authorized with a private application key');
    return true;
  }
}
