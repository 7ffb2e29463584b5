import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { OPS, ProblemError, RPC_DEADLINE_MS, type Principal, type ResolvedProxy } from '@coffer/contracts';
import { sha256Hex } from '@coffer/crypto';
import { RpcClient } from '@coffer/bus';
import { HeaderNames } from '../http/coffer-headers';
import { proxyHeaderPrefixes, proxyKeyOf } from '../proxy/proxy-request';
import { PrincipalCache, type LookedUp } from './principal-cache';
import { CONSOLE_SESSION_PREFIX, ConsoleSessions, csrfMatches, sessionIdHashOf } from '../console/console-sessions';
import { arrivedOnConsole } from '../console/console-origin';
import type { EarlyAuthenticator } from '../http/back-pressure';
import type { GatewayRequest } from '../http/gateway-request';

const PROXY_ROUTES = new Set(['/proxy', '/proxy/*']);
/** the cache key prefix of anonymous proxy principals (never a key hash: those are bare hex) */
const ANONYMOUS_PROXY = 'proxy:';

/**
 * SVC-API-KEY (or an alias) to its principal, through session-service with a short-lived cache; 401 otherwise. One
 * path for both callers: the admission hook, as soon as the headers are in (back-pressure), and ApiKeyGuard.
 */
@Injectable()
export class PrincipalResolver implements EarlyAuthenticator {
  private readonly headers = new HeaderNames();
  private readonly proxyPrefixes = proxyHeaderPrefixes(this.headers);

  constructor(
    private readonly rpc: RpcClient,
    private readonly cache: PrincipalCache,
    private readonly consoleSessions: ConsoleSessions,
  ) {}

  /**
   * Throws 401 for a missing or over-long key; the key's hash otherwise. Without the header, a console session
   * (cookie plus CSRF header, on the console's origin) stands for the key it was signed in with.
   */
  private keyHash(request: FastifyRequest): string {
    const key = HeaderNames.first(request.headers, this.headers.apiKey);
    if (!key) {
      const req = request as GatewayRequest;
      // the console's cookie counts on the console's own origin only (console-origin.ts): on the API origin, where
      // proxied answers are served, it authenticates nothing
      const session = arrivedOnConsole(request) ? sessionIdHashOf(request) : undefined;
      if (session) return `${CONSOLE_SESSION_PREFIX}${session}`;
      // /proxy without a key: a pre-configured proxy that does not require auth may be called with its own key
      const proxyKey = PROXY_ROUTES.has(request.routeOptions?.url ?? '') ? proxyKeyOf(req, this.proxyPrefixes).key : undefined;
      if (proxyKey && proxyKey.length <= 512) return `${ANONYMOUS_PROXY}${sha256Hex(proxyKey)}`;
      throw new ProblemError(401, 'The SVC-API-KEY header is required');
    }
    if (key.length > 512) throw new ProblemError(401, 'The API key is invalid');
    return sha256Hex(key);
  }

  /** The principal of a key hash (console sign-in), through the same lookup and cache as a request's key. */
  async principalOf(keyHash: string, traceId: string): Promise<Principal | null> {
    return (await this.cache.lookUp(keyHash, () => this.authenticate(keyHash, traceId)))?.principal ?? null;
  }

  cached(request: FastifyRequest): Principal | undefined {
    const req = request as GatewayRequest;
    if (req.principal) return req.principal;
    const hit = this.cache.get(this.keyHash(request));
    if (!hit || (hit.expiresAt !== undefined && hit.expiresAt <= Date.now())) return undefined;
    if (hit.csrfHash !== undefined) this.checkCsrf(request, hit.csrfHash);
    req.principal = hit.principal;
    return hit.principal;
  }

  recentTenant(request: FastifyRequest): string | undefined {
    return this.cache.recentTenant(this.keyHash(request));
  }

  lookingUp(request: FastifyRequest): boolean {
    return this.cache.lookingUp(this.keyHash(request));
  }

  async lookup(request: FastifyRequest): Promise<Principal> {
    const req = request as GatewayRequest;
    const keyHash = this.keyHash(request);
    // shared with the requests that bring the same key meanwhile; the answer is cached by the lookup itself
    const result = await this.cache.lookUp(keyHash, () => this.look(keyHash, req.traceId));
    if (!result?.principal) {
      if (keyHash.startsWith(CONSOLE_SESSION_PREFIX)) throw new ProblemError(401, 'The console session has ended: sign in again');
      throw new ProblemError(401, 'The API key is invalid or expired');
    }
    if (result.csrfHash !== undefined) this.checkCsrf(request, result.csrfHash);
    req.principal = result.principal;
    return result.principal;
  }

  /** Who a key hash (or a console session, or an anonymous proxy's key) stands for, asked of its owner. */
  private look(keyHash: string, traceId: string): Promise<LookedUp> {
    if (keyHash.startsWith(CONSOLE_SESSION_PREFIX)) return this.consoleSessions.authenticate(keyHash.slice(CONSOLE_SESSION_PREFIX.length), traceId);
    if (keyHash.startsWith(ANONYMOUS_PROXY)) return this.anonymousProxy(keyHash.slice(ANONYMOUS_PROXY.length), traceId);
    return this.authenticate(keyHash, traceId);
  }

  private authenticate(keyHash: string, traceId: string): Promise<LookedUp> {
    return this.rpc.call<LookedUp>(OPS.session.authenticate, { keyHash }, { traceId }, RPC_DEADLINE_MS.authenticate);
  }

  /**
   * The principal of an anonymous call to a pre-configured proxy: only for a proxy with require_auth false. Any other
   * key (unknown, or a proxy that requires auth) is a missing API key, so the answer tells nothing of proxies.
   */
  private async anonymousProxy(keyHash: string, traceId: string): Promise<{ principal: Principal | null }> {
    const proxy: ResolvedProxy | null = await this.rpc.call(OPS.reactor.proxies.resolve, { keyHash }, { traceId }, RPC_DEADLINE_MS.authenticate);
    if (!proxy || proxy.requireAuth) throw new ProblemError(401, 'The SVC-API-KEY header is required');
    // the proxy acts for its tenant: a suspended tenant's is refused (403, from session-service), a deleted one's is
    // as unknown as any other key
    const { active } = await this.rpc.call(OPS.session.tenantStanding, { tenantId: proxy.tenantId }, { traceId }, RPC_DEADLINE_MS.authenticate);
    if (!active) throw new ProblemError(401, 'The SVC-API-KEY header is required');
    return {
      principal: { tenantId: proxy.tenantId, applicationId: proxy.id, applicationType: 'private', permissions: ['proxy:invoke'], anonymousProxyId: proxy.id },
    };
  }

  private checkCsrf(request: FastifyRequest, csrfHash: string): void {
    if (!csrfMatches(request, csrfHash)) throw new ProblemError(401, 'The console session needs its X-Coffer-CSRF header');
  }

  /** The request's console session (the SHA-256 of its cookie), when it authenticates with one. */
  consoleSessionOf(request: FastifyRequest): string | undefined {
    if (HeaderNames.first(request.headers, this.headers.apiKey) || !arrivedOnConsole(request)) return undefined;
    return sessionIdHashOf(request);
  }

  /** The request's principal: already resolved (by the admission hook), cached, or looked up now. */
  async resolve(request: FastifyRequest): Promise<Principal> {
    return this.cached(request) ?? (await this.lookup(request));
  }
}
