import { type CanActivate, type ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ProblemError, type Principal } from '@coffer/contracts';
import { mayEver } from './access';

/** The route metadata the guard reads (exported for the gateway's check that its routes and the operation rows agree). */
export const PERMISSION_KEY = 'coffer:permission';
export const AUTHENTICATED_ONLY_KEY = 'coffer:authenticated-only';

/** The permission a route needs (any one of several). A route without one is refused: deny by default. */
export const RequirePermission = (...permissions: string[]) => SetMetadata(PERMISSION_KEY, permissions);

/** A route any authenticated caller may reach; the handler decides the rest (e.g. POST /sessions). */
export const AuthenticatedOnly = () => SetMetadata(AUTHENTICATED_ONLY_KEY, true);

export interface RequestWithPrincipal {
  principal?: Principal;
}

@Injectable()
export class PermissionGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<RequestWithPrincipal>();
    const principal = req.principal;
    if (!principal) throw new ProblemError(401, 'A valid API key is required');
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(AUTHENTICATED_ONLY_KEY, targets)) return true;
    const permissions = this.reflector.getAllAndOverride<string[]>(PERMISSION_KEY, targets);
    if (!permissions?.length || !permissions.some((p) => mayEver(principal, p)))
      throw new ProblemError(403, 'The API key does not grant access to this operation');
    return true;
  }
}
