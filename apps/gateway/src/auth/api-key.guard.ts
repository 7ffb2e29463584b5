import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { PrincipalResolver } from './principal-resolver';
import type { GatewayRequest } from '../http/gateway-request';

/**
 * Authenticates SVC-API-KEY (or an alias) through session-service, with a short-lived cache. 401 otherwise. The
 * admission hook (back-pressure) has usually resolved the key already, before the body was read: reused here.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly resolver: PrincipalResolver) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<GatewayRequest>();
    req.principal = await this.resolver.resolve(req);
    return true;
  }
}
