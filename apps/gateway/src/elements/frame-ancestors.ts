import type { Principal, TenantSettings } from '@coffer/contracts';
import { IndexedLru, SharedLookups, TENANT_SETTINGS_TTL_MS } from '@coffer/bus';

/** A key hash as the loader sends it in a frame's address (`?k=`): SHA-256 of the key, lower-case hex. */
export const KEY_HASH_PATTERN = /^[0-9a-f]{64}$/;

export interface FrameAncestorSources {
  /** the principal of a key hash (null: no such key) — PrincipalResolver.principalOf */
  principalOf(keyHash: string, traceId: string): Promise<Principal | null>;
  /** the tenant's settings — TenantSettingsClient.get */
  settingsOf(principal: Principal, traceId: string): Promise<TenantSettings>;
}

/** A frame asked for while this many lookups are already under way is refused (503), not queued. */
export const MAX_LOOKUPS_IN_FLIGHT = 16;

export class TooManyLookups extends Error {}

/**
 * Which pages may frame a field: the CSP `frame-ancestors` of a frame page, from the allowed origins of the tenant
 * whose key the fields were initialised with. The loader names that key by its hash in the frame's address, and the
 * frame refuses any other key, so the policy the browser enforces is the tenant's own. Without a list (or for a key
 * that names no tenant, which the API will refuse anyway) any page may frame the fields, as the mirrored service allows.
 */
export class FrameAncestors {
  /**
   * Policies by key hash, with the tenant they were read from. A change of the tenant's settings drops them at once
   * (`forgetTenant`, from TenantSettingsClient's announcements); the TTL bounds a lost announcement.
   */
  private readonly cache = new IndexedLru<{ policy: string; tenantId?: string }>({ max: 10_000, ttl: TENANT_SETTINGS_TTL_MS }, (entry) =>
    entry.tenantId ? [entry.tenantId] : [],
  );
  /**
   * Lookups under way, by key hash: frames of one checkout ask once. The frame pages need no key, so anybody may ask
   * for them with made-up hashes; the cap keeps that from becoming a flood of lookups on session-service. A change of
   * a tenant's settings detaches its lookups under way: a frame asked for after the change never gets a policy read
   * before it, and none such is kept.
   */
  private readonly lookups = new SharedLookups<string>();

  constructor(
    private readonly sources: FrameAncestorSources,
    private readonly maxInFlight = MAX_LOOKUPS_IN_FLIGHT,
  ) {}

  /** The policy for frames named by `keyHash`; throws TooManyLookups when the cap is reached. */
  async of(keyHash: string | undefined, traceId: string): Promise<string> {
    if (!keyHash) return '*';
    const hit = this.cache.get(keyHash)?.policy;
    if (hit) return hit;
    // a frame whose key is being looked up already waits for that lookup, whatever the cap
    const underway = this.lookups.underway(keyHash);
    if (underway) return underway;
    // the cap counts the lookups a change detached too: settings changes must not let more lookups run
    if (this.lookups.running >= this.maxInFlight) throw new TooManyLookups();
    let tenantId: string | undefined;
    const lookUp = async (learnTenant: (tenantId: string) => void): Promise<string> => {
      const principal = await this.sources.principalOf(keyHash, traceId);
      if (principal) learnTenant((tenantId = principal.tenantId));
      const origins = principal ? ((await this.sources.settingsOf(principal, traceId)).elements_allowed_origins ?? []) : [];
      return origins.length ? origins.join(' ') : '*';
    };
    return this.lookups.ask(keyHash, undefined, lookUp, (policy) => this.cache.set(keyHash, { policy, tenantId }));
  }

  /** The tenant's settings changed: its keys' policies are looked up again. */
  forgetTenant(tenantId: string): void {
    this.lookups.forgetTenant(tenantId);
    this.cache.deleteWhere([tenantId]);
  }
}
