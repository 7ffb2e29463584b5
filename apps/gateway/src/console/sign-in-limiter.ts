import { sha256Hex } from '@coffer/crypto';
import type { Limit } from '../rate-limit/rate-limits';
import type { SharedRateLimiter } from '../rate-limit/shared-rate-limiter';

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * Console sign-in attempts per client address and per key (hash): a sign-in is a key guess or a session held in the
 * database, so neither one address nor one key may make them at the rate the API allows calls. Counted by
 * session-service for every gateway replica together, one permit per attempt (SharedRateLimiter, exact), in fixed
 * windows; an attempt counts against both its address and its key.
 */
export class SignInLimiter {
  constructor(
    private readonly limit: Limit,
    private readonly shared: SharedRateLimiter,
  ) {}

  /** Counts an attempt of this address with this key: 0 when admitted, else the seconds until the window ends. */
  async admit(address: string, keyHash: string, traceId: string): Promise<number> {
    // anything else than a key's hash (the callback's `state`) is hashed: a subject of fixed length and alphabet
    const key = SHA256_HEX.test(keyHash) ? keyHash : sha256Hex(keyHash);
    const [byAddress, byKey] = await Promise.all([
      this.shared.admit(`console:a:${address}`, this.limit, traceId),
      this.shared.admit(`console:k:${key}`, this.limit, traceId),
    ]);
    return Math.max(byAddress, byKey);
  }
}
