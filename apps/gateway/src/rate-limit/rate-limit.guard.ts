import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { ProblemError } from '@coffer/contracts';
import type { GatewayRequest } from '../http/gateway-request';
import { gatewayConfig } from '../config';

interface Window {
  start: number;
  count: number;
  previous: number;
}

/**
 * Per-application rate limit with a sliding window (the previous window's count weighted by its remaining
 * overlap), in memory per gateway replica. Over the limit → 429 with Retry-After.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly limits = gatewayConfig().rateLimits;
  private readonly windows = new LRUCache<string, Window>({ max: 100_000 });

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<GatewayRequest>();
    const p = req.principal;
    if (!p) return true;
    const limit = this.limits[p.applicationType];
    const subject = p.sessionId ? `s:${p.sessionId}` : `a:${p.applicationId}`;
    const now = Date.now();
    let w = this.windows.get(subject);
    if (!w) {
      w = { start: now, count: 0, previous: 0 };
      this.windows.set(subject, w);
    }
    const elapsed = now - w.start;
    if (elapsed >= limit.windowMs) {
      w.previous = elapsed >= 2 * limit.windowMs ? 0 : w.count;
      w.start += Math.floor(elapsed / limit.windowMs) * limit.windowMs;
      w.count = 0;
    }
    const overlap = 1 - (now - w.start) / limit.windowMs;
    const estimate = w.previous * overlap + w.count;
    if (estimate >= limit.requests) {
      const err = new ProblemError(429, `Rate limit of ${limit.requests} requests per ${limit.windowMs / 1000} s exceeded`);
      err.retryAfter = Math.max(1, Math.ceil((w.start + limit.windowMs - now) / 1000));
      throw err;
    }
    w.count++;
    return true;
  }
}
