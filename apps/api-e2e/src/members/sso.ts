import { apiRaw, consoleUrl } from '@coffer/testing';

/**
 * Single sign-on against the suite's identity provider (libs/testing/src/oidc/test-provider.mjs, started by
 * global-setup.mjs): the console's start route, the provider's login as `login` (followed headless, as a browser would),
 * and the callback, each over HTTP with the cookies a browser would carry.
 */
export interface ConsoleSignedIn {
  cookie: string;
  csrf: string;
}

export interface TestAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  amr?: string[];
}

const control = () => process.env['COFFER_E2E_OIDC_CONTROL'] as string;

async function post<T = Record<string, string>>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${control()}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`test provider ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A person at the provider (a unique subject per call unless given). */
export async function addAccount(account: Partial<TestAccount> & { email: string }): Promise<TestAccount> {
  const full: TestAccount = { sub: `sub-${Math.random().toString(36).slice(2)}`, email_verified: true, ...account };
  await post('/accounts', full);
  return full;
}

/** The ID tokens the provider issues from now on are tampered with (`null`: no more). */
export const tamper = (kind: string | null) => post('/tamper', { tamper: kind });

const pairs = (setCookies: string[]) => setCookies.map((c) => c.split(';')[0]).filter((p) => !p.endsWith('='));

export type SsoOutcome = { session: ConsoleSignedIn; location: string } | { error: string; location: string; setCookies: string[] };

/**
 * Signs `login` in through single sign-on. `alter` may change the provider's redirect back (a forged state, say)
 * before the browser follows it.
 */
export async function ssoSignIn(
  login: string,
  opts: { tenantId?: string; invitation?: string; alter?: (callback: URL) => void; deny?: boolean } = {},
): Promise<SsoOutcome> {
  const q = new URLSearchParams();
  if (opts.invitation) q.set('invitation', opts.invitation);
  if (opts.tenantId) q.set('tenant_id', opts.tenantId);
  const start = await apiRaw('GET', `/console/oidc/start${q.size ? `?${q}` : ''}`, { origin: 'console', redirect: 'manual' });
  if (start.status !== 302) throw new Error(`start answered ${start.status}: ${start.text}`);
  const transaction = pairs(start.headers.getSetCookie()).join('; ');
  const authorization = new URL(start.headers.get('location') as string);
  authorization.searchParams.set('login_hint', opts.deny ? '!deny' : login);
  const { callback } = await post('/sign-in', { url: authorization.href });
  const back = new URL(callback);
  opts.alter?.(back);
  expect(back.origin).toBe(consoleUrl());
  const done = await apiRaw('GET', `${back.pathname}${back.search}`, { origin: 'console', redirect: 'manual', headers: { cookie: transaction } });
  expect(done.status).toBe(303);
  const location = done.headers.get('location') as string;
  const setCookies = done.headers.getSetCookie();
  const session = setCookies.find((c) => c.startsWith('coffer_console='));
  if (!session || /Max-Age=0/.test(session)) {
    const error = new URL(location, consoleUrl()).searchParams.get('sign_in_error') ?? '';
    return { error, location, setCookies };
  }
  const csrf =
    setCookies
      .find((c) => c.startsWith('coffer_console_csrf='))
      ?.split(';')[0]
      .split('=')[1] ?? '';
  return {
    session: {
      cookie: pairs(setCookies)
        .filter((p) => p.startsWith('coffer_console'))
        .join('; '),
      csrf,
    },
    location,
  };
}

export async function signedIn(login: string, opts: Parameters<typeof ssoSignIn>[1] = {}): Promise<ConsoleSignedIn> {
  const outcome = await ssoSignIn(login, opts);
  if ('error' in outcome) throw new Error(`sign-in of ${login} refused: ${outcome.error}`);
  return outcome.session;
}

/** One call as the signed-in person, on the console's origin (cookie and CSRF header). */
export function asPerson(s: ConsoleSignedIn, method: string, path: string, body?: unknown) {
  return apiRaw(method, path, { origin: 'console', headers: { cookie: s.cookie, 'x-coffer-csrf': s.csrf }, ...(body === undefined ? {} : { body }) });
}
