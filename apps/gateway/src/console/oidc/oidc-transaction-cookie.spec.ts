import { createHmac } from 'node:crypto';
import { OIDC_COOKIE, OidcTransactionCookie, isConsolePath, type OidcCookieContents } from './oidc-transaction-cookie';

const KEY = 'an-oidc-cookie-secret-of-32-characters-at-least';
const T0 = Date.parse('2026-11-28T12:00:00Z');

const CONTENTS: OidcCookieContents = {
  transaction: { state: 'st4te_-AZ', nonce: 'n0nce-value', codeVerifier: 'v'.repeat(43), createdAt: T0 },
  invitation: 'inv-secret-value',
  tenantId: '0b0e6a36-5d1a-4a34-9c2f-1f0e8f0a2b3c',
  returnTo: '/console/tokens?page=2',
};

function flip(s: string, at: number): string {
  return s.slice(0, at) + (s[at] === 'A' ? 'B' : 'A') + s.slice(at + 1);
}

/** A value with a valid MAC over any payload: what somebody who had the key could make (parse must still check it). */
function macked(payload: unknown, key = KEY): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${createHmac('sha256', key).update('coffer_oidc.v1.').update(body).digest('base64url')}`;
}

describe('OidcTransactionCookie', () => {
  let now = T0;
  const cookie = new OidcTransactionCookie(KEY, () => now);
  beforeEach(() => {
    now = T0;
  });

  it('keeps the transaction, the invitation, the tenant and the page to go back to', () => {
    const value = cookie.serialize(CONTENTS);
    expect(value).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(cookie.parse(value)).toEqual(CONTENTS);
    const bare = cookie.serialize({ transaction: CONTENTS.transaction });
    expect(cookie.parse(bare)).toEqual({ transaction: CONTENTS.transaction });
  });

  it('refuses a value tampered with anywhere, or made with another key', () => {
    const value = cookie.serialize(CONTENTS);
    const dot = value.indexOf('.');
    for (const at of [0, 5, dot - 1, dot + 1, value.length - 2]) expect(cookie.parse(flip(value, at))).toBeNull();
    // another transaction's payload under this MAC, and the reverse
    const other = cookie.serialize({ ...CONTENTS, transaction: { ...CONTENTS.transaction, state: 'another' } });
    expect(cookie.parse(`${other.split('.')[0]}.${value.split('.')[1]}`)).toBeNull();
    expect(new OidcTransactionCookie(`${KEY}-other`, () => now).parse(value)).toBeNull();
    expect(cookie.parse(macked(JSON.parse(Buffer.from(value.split('.')[0], 'base64url').toString()), `${KEY}-other`))).toBeNull();
    // a truncated MAC
    expect(cookie.parse(value.slice(0, -4))).toBeNull();
  });

  it('refuses a transaction older than 10 minutes (or from the future)', () => {
    const value = cookie.serialize(CONTENTS);
    now = T0 + 600_000;
    expect(cookie.parse(value)).toEqual(CONTENTS);
    now = T0 + 600_001;
    expect(cookie.parse(value)).toBeNull();
    now = T0 - 3_600_000;
    expect(cookie.parse(value)).toBeNull();
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['no MAC', 'eyJ0cmFuc2FjdGlvbiI6e319'],
    ['three parts', 'a.b.c'],
    ['not base64url', 'a+b.c/d'],
    ['too long', `${'a'.repeat(4000)}.b`],
  ])('refuses a malformed value (%s)', (_what, value) => {
    expect(cookie.parse(value)).toBeNull();
  });

  it.each([
    ['not JSON', 'not json'],
    ['an array', []],
    ['no transaction', { tenantId: CONTENTS.tenantId }],
    ['a number for the state', { transaction: { ...CONTENTS.transaction, state: 1 } }],
    ['an empty nonce', { transaction: { ...CONTENTS.transaction, nonce: '' } }],
    ['a date string', { transaction: { ...CONTENTS.transaction, createdAt: '2026-11-28' } }],
    ['a return to elsewhere', { ...CONTENTS, returnTo: 'https://evil.example/' }],
    ['a bad tenant id', { ...CONTENTS, tenantId: "1' or 1=1" }],
  ])('refuses contents that are not a transaction even with a valid MAC (%s)', (_what, payload) => {
    expect(cookie.parse(macked(payload))).toBeNull();
  });

  it('will not serialize what parse would refuse', () => {
    expect(() => cookie.serialize({ ...CONTENTS, returnTo: '//evil.example/console' })).toThrow(TypeError);
    expect(() => cookie.serialize({ ...CONTENTS, tenantId: 'acme' })).toThrow(TypeError);
    expect(() => cookie.serialize({ ...CONTENTS, invitation: 'x'.repeat(201) })).toThrow(TypeError);
    expect(() => cookie.serialize({ ...CONTENTS, transaction: { ...CONTENTS.transaction, state: 'a b' } })).toThrow(TypeError);
  });

  it('needs a key of 32 bytes at least', () => {
    expect(() => new OidcTransactionCookie('short')).toThrow(TypeError);
    expect(() => new OidcTransactionCookie(Buffer.alloc(32, 7))).not.toThrow();
  });

  it('is HttpOnly, Secure, SameSite=Lax (the provider’s redirect back is a cross-site GET), for /console/oidc only, 10 minutes', () => {
    expect(OidcTransactionCookie.setCookie('v.m')).toBe('coffer_oidc=v.m; HttpOnly; Secure; SameSite=Lax; Path=/console/oidc; Max-Age=600');
    expect(OidcTransactionCookie.clearCookie()).toBe('coffer_oidc=; HttpOnly; Secure; SameSite=Lax; Path=/console/oidc; Max-Age=0');
  });

  it('finds its value in a Cookie header', () => {
    expect(OidcTransactionCookie.fromCookieHeader(`a=1; ${OIDC_COOKIE}=v.m; b=2`)).toBe('v.m');
    expect(OidcTransactionCookie.fromCookieHeader('coffer_oidc_other=x; a=1')).toBeUndefined();
    expect(OidcTransactionCookie.fromCookieHeader(undefined)).toBeUndefined();
  });
});

describe('isConsolePath', () => {
  it.each([
    ['/console', true],
    ['/console/', true],
    ['/console/tokens?page=2#top', true],
    ['/console?x=1', true],
    ['/consoles', false],
    ['//evil.example/console', false],
    ['https://evil.example/console/', false],
    ['/console/../api', false],
    ['/console/\\evil', false],
    ['/console/\nSet-Cookie: x', false],
    ['console/', false],
  ])('%s: %s', (path, ok) => {
    expect(isConsolePath(path)).toBe(ok);
  });
});
