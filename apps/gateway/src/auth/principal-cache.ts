import { Injectable, type OnModuleInit } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { SUBJECTS, type Principal } from '@coffer/contracts';
import { EventBus } from '@coffer/bus';
import { gatewayConfig } from '../config';
import { CONSOLE_SESSION_PREFIX } from '../console/console-sessions';

interface Entry {
  principal: Principal;
  /** session expiry: never served past it */
  expiresAt?: number;
  /** a console session's CSRF token hash: every request must carry the token (console-sessions.ts csrfMatches) */
  csrfHash?: string;
}

interface Invalidation {
  tenantId?: string;
  /** every key of tenantId (the operator suspended or deleted the tenant, or reissued its management key) */
  allKeys?: boolean;
  applicationId?: string;
  sessionId?: string;
  /** a person's membership changed or ended (in tenantId only, when given) */
  userId?: string;
  /** console sessions that ended: the SHA-256 of their cookies */
  consoleSessions?: string[];
}

/**
 * Principals by key hash, for a few seconds. Entries are dropped at once when session-service announces a
 * change (key regenerated, application changed or deleted, session authorized or expired, and, relayed from the
 * operator CLI, a tenant suspended or deleted or its management key reissued).
 */
@Injectable()
export class PrincipalCache implements OnModuleInit {
  /** AUTH_CACHE_TTL_MS */
  private readonly ttlMs = gatewayConfig().authCacheTtlMs;
  private readonly cache = new LRUCache<string, Entry>({ max: 50_000, ttl: this.ttlMs });
  /**
   * Keys that authenticated in the last 10 minutes, for admission only (PrincipalResolver.recentTenant): never used
   * to authorize anything, and dropped with the fresh entry when session-service announces a change.
   */
  private readonly recent = new LRUCache<string, Principal>({ max: 50_000, ttl: 10 * 60_000 });

  constructor(private readonly events: EventBus) {}

  async onModuleInit(): Promise<void> {
    await this.events.subscribe<Invalidation>(SUBJECTS.events.authInvalidated, (e) => this.invalidate(e));
  }

  get(keyHash: string): Entry | undefined {
    return this.cache.get(keyHash);
  }

  /** The tenant of a key that authenticated lately (see `recent`). */
  recentTenant(keyHash: string): string | undefined {
    return this.recent.get(keyHash)?.tenantId;
  }

  set(keyHash: string, entry: Entry): void {
    this.recent.set(keyHash, entry.principal);
    if (entry.expiresAt !== undefined) {
      const ttl = entry.expiresAt - Date.now();
      if (ttl <= 0) return;
      this.cache.set(keyHash, entry, { ttl: Math.min(ttl, this.ttlMs) });
    } else this.cache.set(keyHash, entry);
  }

  invalidate(e: Invalidation): void {
    // an application's change reaches its own key, the sessions it created and the sessions it authorized
    const affected = (p: Principal) =>
      (!!e.allKeys && !!e.tenantId && p.tenantId === e.tenantId) ||
      (!!e.sessionId && p.sessionId === e.sessionId) ||
      (!!e.applicationId && (p.applicationId === e.applicationId || p.authorizer?.applicationId === e.applicationId)) ||
      (!!e.userId && p.user?.id === e.userId && (!e.tenantId || p.tenantId === e.tenantId));
    for (const idHash of e.consoleSessions ?? []) {
      this.cache.delete(`${CONSOLE_SESSION_PREFIX}${idHash}`);
      this.recent.delete(`${CONSOLE_SESSION_PREFIX}${idHash}`);
    }
    for (const [hash, entry] of this.cache.entries()) if (affected(entry.principal)) this.cache.delete(hash);
    for (const [hash, principal] of this.recent.entries()) if (affected(principal)) this.recent.delete(hash);
  }
}
