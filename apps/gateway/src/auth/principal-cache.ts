import { Injectable, type OnModuleInit } from '@nestjs/common';
import { SUBJECTS, type Principal } from '@coffer/contracts';
import { EventBus, IndexedLru, SharedLookups } from '@coffer/bus';
import { gatewayConfig } from '../config';
import { CONSOLE_SESSION_PREFIX } from '../console/console-sessions';

interface Entry {
  principal: Principal;
  /** session expiry: never served past it */
  expiresAt?: number;
  /** a console session's CSRF token hash: every request must carry the token (console-sessions.ts csrfMatches) */
  csrfHash?: string;
}

/** The names an invalidation can give a cached principal by (`namesOf`). */
export const nameOf = {
  tenant: (id: string) => `tenant:${id}`,
  session: (id: string) => `session:${id}`,
  application: (id: string) => `application:${id}`,
  user: (id: string) => `user:${id}`,
};

/**
 * What an invalidation can name a cached principal by: its tenant, its session, its application or the application
 * that authorized its session, and the person signed in with it.
 */
export function namesOf(p: Principal): string[] {
  const names = [nameOf.tenant(p.tenantId), nameOf.application(p.applicationId)];
  if (p.sessionId) names.push(nameOf.session(p.sessionId));
  if (p.authorizer?.applicationId && p.authorizer.applicationId !== p.applicationId) names.push(nameOf.application(p.authorizer.applicationId));
  if (p.user?.id) names.push(nameOf.user(p.user.id));
  return names;
}

/** What session-service answers for a key hash (or a console session): the principal, or null for a refused key. */
export interface LookedUp {
  principal: Principal | null;
  /** a session's expiry (ISO 8601) */
  expiresAt?: string;
  csrfHash?: string;
}

/** events.auth.invalidated: which cached principals to drop. */
export interface Invalidation {
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
 * Whether `e` drops a cached `p`. An application's change reaches its own key, the sessions it created and the
 * sessions it authorized; a tenant id alone drops nothing (it scopes `userId`), with `allKeys` every key of the tenant.
 */
export function invalidates(e: Invalidation, p: Principal): boolean {
  return (
    (!!e.allKeys && !!e.tenantId && p.tenantId === e.tenantId) ||
    (!!e.sessionId && p.sessionId === e.sessionId) ||
    (!!e.applicationId && (p.applicationId === e.applicationId || p.authorizer?.applicationId === e.applicationId)) ||
    (!!e.userId && p.user?.id === e.userId && (!e.tenantId || p.tenantId === e.tenantId))
  );
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
  private readonly cache = new IndexedLru<Entry>({ max: 50_000, ttl: this.ttlMs }, (e) => namesOf(e.principal));
  /**
   * Keys that authenticated in the last 10 minutes, for admission only (PrincipalResolver.recentTenant): never used
   * to authorize anything, and dropped with the fresh entry when session-service announces a change.
   */
  private readonly recent = new IndexedLru<Principal>({ max: 50_000, ttl: 10 * 60_000 }, namesOf);
  /**
   * Lookups under way, by key hash: a burst of requests with one new key asks session-service once. A lookup cannot
   * tell whose principal it reads until it answers, so every change announced detaches every lookup under way: who
   * asks afterwards starts a new one, and what the older one answers serves only those who asked before the change
   * and is never cached. Without that, a lookup that read an application just before its permissions were narrowed
   * (or its key revoked) would have the old principal served for AUTH_CACHE_TTL_MS after the change answered.
   */
  private readonly lookups = new SharedLookups<LookedUp>();

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

  /**
   * The answer for `keyHash`: the lookup under way, or a new one by `look`. A principal it answers is cached unless a
   * change was announced while it was under way (`lookups`).
   */
  lookUp(keyHash: string, look: () => Promise<LookedUp>): Promise<LookedUp> {
    return this.lookups.ask(keyHash, undefined, look, (found) => {
      if (found?.principal)
        this.set(keyHash, { principal: found.principal, expiresAt: found.expiresAt ? Date.parse(found.expiresAt) : undefined, csrfHash: found.csrfHash });
    });
  }

  /** Whether a lookup of `keyHash` is under way that a request may wait for. */
  lookingUp(keyHash: string): boolean {
    return this.lookups.underway(keyHash) !== undefined;
  }

  set(keyHash: string, entry: Entry): void {
    this.recent.set(keyHash, entry.principal);
    // a session is never served past its expiry
    this.cache.set(keyHash, entry, entry.expiresAt === undefined ? undefined : Math.min(entry.expiresAt - Date.now(), this.ttlMs));
  }

  invalidate(e: Invalidation): void {
    this.lookups.forgetAll();
    const affected = (p: Principal) => invalidates(e, p);
    for (const idHash of e.consoleSessions ?? []) {
      this.cache.delete(`${CONSOLE_SESSION_PREFIX}${idHash}`);
      this.recent.delete(`${CONSOLE_SESSION_PREFIX}${idHash}`);
    }
    // only the entries filed under what the invalidation names are looked at (IndexedLru), then `affected` decides
    const names = [
      ...(e.allKeys && e.tenantId ? [nameOf.tenant(e.tenantId)] : []),
      ...(e.sessionId ? [nameOf.session(e.sessionId)] : []),
      ...(e.applicationId ? [nameOf.application(e.applicationId)] : []),
      ...(e.userId ? [nameOf.user(e.userId)] : []),
    ];
    this.cache.deleteWhere(names, (entry) => affected(entry.principal));
    this.recent.deleteWhere(names, affected);
  }
}
