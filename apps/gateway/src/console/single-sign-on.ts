import type { FastifyRequest } from 'fastify';
import type { VerifiedIdentity } from '@coffer/contracts';
import { OidcClient, OidcRefusal, type OidcSettings } from './oidc/oidc-client';
import { OidcTransactionCookie } from './oidc/oidc-transaction-cookie';

/** A sign-in the provider's answer did not pass (state, nonce, signature, audience, issuer, expiry, a refusal there). */
export class SingleSignOnRefusal extends Error {
  constructor(
    readonly reason: string,
    message: string,
    /** the tenant the person asked for, when the transaction named one (the refusal is counted under it) */
    readonly tenantId?: string,
  ) {
    super(message);
  }
}

/** What the console's routes need of single sign-on (console-routes.ts). */
export interface SingleSignOn {
  /** the sign-in button's label */
  readonly providerName: string;
  /** the Set-Cookie header that removes the sign-in's transaction cookie */
  readonly clearCookie: string;
  /** The provider's authorization URL, and the Set-Cookie header of the transaction the callback needs. */
  begin(started: { invitation?: string; tenantId?: string }): Promise<{ url: string; cookie: string }>;
  /** The person the provider vouches for, with what the sign-in was started for; SingleSignOnRefusal otherwise. */
  complete(request: FastifyRequest): Promise<{ identity: VerifiedIdentity; invitation?: string; tenantId?: string }>;
}

export interface OidcSignOnConfig {
  settings: OidcSettings;
  providerName: string;
  /** the transaction cookie's HMAC key (OIDC_COOKIE_SECRET, or one random per process) */
  cookieSecret: string;
}

/**
 * Single sign-on through the installation's OpenID Connect provider: the transaction (state, nonce, PKCE verifier,
 * and the invitation or tenant the sign-in is for) rides in a sealed, short-lived cookie of this browser between the
 * start and the callback, so any gateway replica (sharing OIDC_COOKIE_SECRET) completes a sign-in another started.
 */
export class OidcSignOn implements SingleSignOn {
  readonly providerName: string;
  readonly clearCookie = OidcTransactionCookie.clearCookie();
  private readonly cookies: OidcTransactionCookie;
  private client?: Promise<OidcClient>;

  constructor(private readonly config: OidcSignOnConfig) {
    this.providerName = config.providerName;
    this.cookies = new OidcTransactionCookie(config.cookieSecret);
  }

  /** Discovery at the first sign-in (a provider down at start-up does not keep the gateway from starting). */
  private connected(): Promise<OidcClient> {
    this.client ??= OidcClient.connect(this.config.settings);
    return this.client;
  }

  async begin(started: { invitation?: string; tenantId?: string }): Promise<{ url: string; cookie: string }> {
    const { url, transaction } = await (await this.connected()).begin();
    const value = this.cookies.serialize({ transaction, ...started });
    return { url, cookie: OidcTransactionCookie.setCookie(value) };
  }

  async complete(request: FastifyRequest): Promise<{ identity: VerifiedIdentity; invitation?: string; tenantId?: string }> {
    const kept = this.cookies.parse(OidcTransactionCookie.fromCookieHeader(request.headers.cookie));
    if (!kept) throw new SingleSignOnRefusal('transaction', 'The sign-in expired or was started in another browser: sign in again');
    const query = new URLSearchParams(request.url.slice(request.url.indexOf('?') + 1 || request.url.length));
    try {
      const identity = await (await this.connected()).complete(query, kept.transaction);
      return { identity, ...(kept.invitation ? { invitation: kept.invitation } : {}), ...(kept.tenantId ? { tenantId: kept.tenantId } : {}) };
    } catch (err) {
      if (err instanceof OidcRefusal) throw new SingleSignOnRefusal(err.reason, err.message, kept.tenantId);
      throw err;
    }
  }
}
