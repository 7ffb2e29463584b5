import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { ProblemError } from '@coffer/contracts';
import type { GatewayRequest } from '../http/gateway-request';
import { gatewayConfig } from '../config';
import type { Limit } from './rate-limits';
import { RateLimitLeases } from './rate-limit-leases';

/**
 * Per-application rate limit (a session counts on its own) with a sliding window (the previous window's count
 * weighted by its remaining overlap), shared by every gateway replica through leases from session-service
 * (SharedRateLimiter). Over the limit → 429 with Retry-After.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly limits = gatewayConfig().rateLimits;

  constructor(private readonly leases: RateLimitLeases) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const req = context.switchToHttp().getRequest<GatewayRequest>();
    const p = req.principal;
    if (!p) return true;
    const limit = this.limits[p.applicationType];
    const subject = p.sessionId ? `s:${p.sessionId}` : `a:${p.applicationId}`;
    const wait = this.leases.api.admit(subject, limit, req.traceId);
    return typeof wait === 'number' ? admitted(wait, limit) : wait.then((w) => admitted(w, limit));
  }
}

function admitted(wait: number, limit: Limit): boolean {
  if (wait === 0) return true;
  const err = new ProblemError(429, `Rate limit of ${limit.requests} requests per ${limit.windowMs / 1000} s exceeded`);
  err.retryAfter = wait;
  throw err;
}
