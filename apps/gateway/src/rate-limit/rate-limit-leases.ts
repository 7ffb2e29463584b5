import { Injectable, Logger } from '@nestjs/common';
import { OPS, type RateLimitLeaseMessage, type RateLimitLeaseReply } from '@coffer/contracts';
import { RpcClient } from '@coffer/bus';
import { SharedRateLimiter, type LeaseClient, type SharedRateLimiterOptions } from './shared-rate-limiter';

/** A lease slower than this fails, and the replica limits on its own until the window ends (fail open). */
export const RATE_LIMIT_LEASE_DEADLINE_MS = 200;

/**
 * Leases of the gateway's shared rate limits from session-service (session.rate-limits.lease), and the limiters that
 * spend them: the API's (RateLimitGuard) and the console's sign-ins (exact: one permit per lease; fixed windows).
 */
@Injectable()
export class RateLimitLeases implements LeaseClient {
  private readonly logger = new Logger('RateLimit');
  readonly api: SharedRateLimiter;
  readonly signIn: SharedRateLimiter;

  constructor(private readonly rpc: RpcClient) {
    this.api = this.limiter({ name: 'api' });
    this.signIn = this.limiter({ name: 'console_sign_in', exact: true, fixed: true });
  }

  lease(request: RateLimitLeaseMessage, traceId: string): Promise<RateLimitLeaseReply> {
    return this.rpc.call(OPS.session.rateLimits.lease, request, { traceId }, RATE_LIMIT_LEASE_DEADLINE_MS);
  }

  private limiter(options: Pick<SharedRateLimiterOptions, 'name' | 'exact' | 'fixed'>): SharedRateLimiter {
    return new SharedRateLimiter(this, {
      ...options,
      onFallback: (err) =>
        this.logger.warn(
          `rate limit leases failed (${err instanceof Error ? err.message : String(err)}): ${options.name} limits counted by this replica alone until their window ends (coffer_rate_limit_fallbacks_total)`,
        ),
    });
  }
}
