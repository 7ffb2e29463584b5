import { LRUCache } from 'lru-cache';
import type { Principal, TenantSettings } from '@coffer/contracts';

/** A key hash as the loader sends it in a frame's address (`?k=`): SHA-256 of the key, lower-case hex. */
export const KEY_HASH_PATTERN = /^[0-9a-f]{64}$/;

export interface FrameAncestorSources {
  /** the principal of a key hash (null: no such key) — PrincipalResolver.principalOf */
  principalOf(keyHash: string, traceId: string): Promise<Principal | null>;
  /** the tenant's settings — TenantSettingsClient.get */
  settingsOf(principal: Principal, traceId: string): Promise<TenantSettings>;
}

/**
 * Which pages may frame a field: the CSP `frame-ancestors` of a frame page, from the allowed origins of the tenant
 * whose key the fields were initialised with. The loader names that key by its hash in the frame's address, and the
 * frame refuses any other key, so the policy the browser enforces is the tenant's own. Without a list (or for a key
 * that names no tenant, which the API will refuse anyway) any page may frame the fields, as the mirrored service allows.
 */
export class FrameAncestors {
  /** a tenant's change is seen within 5 s, as every service's view of tenant settings */
  private readonly cache = new LRUCache<string, string>({ max: 10_000, ttl: 5_000 });

  constructor(private readonly sources: FrameAncestorSources) {}

  async of(keyHash: string | undefined, traceId: string): Promise<string> {
    if (!keyHash) return '*';
    const hit = this.cache.get(keyHash);
    if (hit) return hit;
    const principal = await this.sources.principalOf(keyHash, traceId);
    const origins = principal ? ((await this.sources.settingsOf(principal, traceId)).elements_allowed_origins ?? []) : [];
    const policy = origins.length ? origins.join(' ') : '*';
    this.cache.set(keyHash, policy);
    return policy;
  }
}
