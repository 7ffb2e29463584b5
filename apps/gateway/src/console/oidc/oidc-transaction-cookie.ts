import { createHmac, timingSafeEqual } from 'node:crypto';
import { OIDC_TRANSACTION_MAX_AGE_MS, type OidcTransaction } from './oidc-client';

/** The cookie that carries a sign-in's transaction from /console/oidc/start to /console/oidc/callback. */
export const OIDC_COOKIE = 'coffer_oidc';
/** The only path it is sent to: the start sets it, the callback reads and clears it. */
export const OIDC_COOKIE_PATH = '/console/oidc';
const MAX_AGE_S = OIDC_TRANSACTION_MAX_AGE_MS / 1000;
/** A cookie stays well under the 4 096 bytes browsers keep. */
const MAX_VALUE_LENGTH = 3_000;
/** What the MAC covers besides the payload: a value minted for another purpose (or version) never passes. */
const CONTEXT = 'coffer_oidc.v1.';

/** What the cookie keeps: the transaction, and what the sign-in was started for. */
export interface OidcCookieContents {
  transaction: OidcTransaction;
  /** an invitation's secret (from the invitation link), accepted on the way in */
  invitation?: string;
  /** the tenant the person asked for */
  tenantId?: string;
  /** the console page to go back to (a path under /console/) */
  returnTo?: string;
}

const B64URL = /^[A-Za-z0-9_-]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A console path to go back to: /console or under /console/, no scheme or host, no backslash, no control character. */
export function isConsolePath(path: unknown): path is string {
  return (
    typeof path === 'string' &&
    path.length <= 1_000 &&
    (path === '/console' || path.startsWith('/console/') || path.startsWith('/console?')) &&
    // eslint-disable-next-line no-control-regex
    !/[\\\u0000-\u001f\u007f]/.test(path) &&
    !path.split(/[?#]/)[0].split('/').includes('..')
  );
}

function contentsProblem(contents: OidcCookieContents): string | null {
  const t = contents?.transaction;
  if (!t || typeof t !== 'object') return 'no transaction';
  for (const name of ['state', 'nonce', 'codeVerifier'] as const) {
    if (typeof t[name] !== 'string' || !B64URL.test(t[name]) || t[name].length > 200) return `bad transaction ${name}`;
  }
  if (typeof t.createdAt !== 'number' || !Number.isSafeInteger(t.createdAt)) return 'bad transaction createdAt';
  if (contents.invitation !== undefined && (typeof contents.invitation !== 'string' || !contents.invitation || contents.invitation.length > 200))
    return 'bad invitation';
  if (contents.tenantId !== undefined && (typeof contents.tenantId !== 'string' || !UUID.test(contents.tenantId))) return 'bad tenantId';
  if (contents.returnTo !== undefined && !isConsolePath(contents.returnTo)) return 'bad returnTo';
  return null;
}

/**
 * The transaction cookie's value: `base64url(JSON).base64url(HMAC-SHA256)`, tamper-evident (not secret: it is
 * HttpOnly, and the PKCE verifier, the nonce and an invitation's secret are this browser's own). The key is
 * OIDC_COOKIE_SECRET: unset, a random one per process, so with several gateway replicas behind a load balancer it must
 * be set (the same on all), or a sign-in started on one replica fails on another.
 */
export class OidcTransactionCookie {
  private readonly key: Buffer;

  constructor(
    key: string | Buffer,
    private readonly now: () => number = Date.now,
  ) {
    this.key = typeof key === 'string' ? Buffer.from(key, 'utf8') : Buffer.from(key);
    if (this.key.length < 32) throw new TypeError('the OIDC transaction cookie key must have at least 32 bytes');
  }

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.key).update(CONTEXT).update(payload).digest();
  }

  /** The cookie's value. Throws a TypeError on contents that parse() would refuse. */
  serialize(contents: OidcCookieContents): string {
    const problem = contentsProblem(contents);
    if (problem) throw new TypeError(`OIDC transaction cookie: ${problem}`);
    const { transaction: t, invitation, tenantId, returnTo } = contents;
    const json: OidcCookieContents = {
      transaction: { state: t.state, nonce: t.nonce, codeVerifier: t.codeVerifier, createdAt: t.createdAt },
      ...(invitation !== undefined ? { invitation } : {}),
      ...(tenantId !== undefined ? { tenantId } : {}),
      ...(returnTo !== undefined ? { returnTo } : {}),
    };
    const payload = Buffer.from(JSON.stringify(json), 'utf8').toString('base64url');
    const value = `${payload}.${this.mac(payload).toString('base64url')}`;
    if (value.length > MAX_VALUE_LENGTH) throw new TypeError('OIDC transaction cookie: too long');
    return value;
  }

  /**
   * The contents of a cookie value this key made, not older than the transaction may be; null for anything else
   * (missing, malformed, tampered with, made with another key, expired).
   */
  parse(value: string | undefined | null): OidcCookieContents | null {
    if (typeof value !== 'string' || value.length > MAX_VALUE_LENGTH) return null;
    const parts = value.split('.');
    if (parts.length !== 2 || !B64URL.test(parts[0]) || !B64URL.test(parts[1])) return null;
    const [payload, mac] = parts;
    const given = Buffer.from(mac, 'base64url');
    const expected = this.mac(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let contents: OidcCookieContents;
    try {
      contents = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as OidcCookieContents;
    } catch {
      return null;
    }
    if (!contents || typeof contents !== 'object' || contentsProblem(contents)) return null;
    const age = this.now() - contents.transaction.createdAt;
    if (age > OIDC_TRANSACTION_MAX_AGE_MS || age < -60_000) return null;
    return contents;
  }

  /** The Set-Cookie header that keeps `value` (SameSite=Lax: the provider's redirect back is a cross-site top-level GET). */
  static setCookie(value: string): string {
    return `${OIDC_COOKIE}=${value}; HttpOnly; Secure; SameSite=Lax; Path=${OIDC_COOKIE_PATH}; Max-Age=${MAX_AGE_S}`;
  }

  /** The Set-Cookie header that removes it (after the callback, whatever its outcome). */
  static clearCookie(): string {
    return `${OIDC_COOKIE}=; HttpOnly; Secure; SameSite=Lax; Path=${OIDC_COOKIE_PATH}; Max-Age=0`;
  }

  /** The cookie's value in a Cookie request header, if any. */
  static fromCookieHeader(header: string | undefined): string | undefined {
    if (!header) return undefined;
    for (const part of header.split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() === OIDC_COOKIE) return part.slice(eq + 1).trim();
    }
    return undefined;
  }
}
