// A real OpenID provider for tests (oidc-provider, certified): one or more clients, a list of test accounts, PKCE
// required, and a login that needs no form. The console's single sign-on is tested against it (unit specs of the
// gateway start it as a child process; the e2e tests drive it with Chromium).
//
// As a module:   const op = await startTestProvider({ clients, accounts }); … op.issuer … await op.stop();
// As a process:  COFFER_TEST_OIDC='{"clients":[…],"accounts":[…]}' node libs/testing/src/oidc/test-provider.mjs
//                prints one line of JSON, {"issuer":"http://127.0.0.1:<port>","control":"http://127.0.0.1:<port>/__test"},
//                and runs until it is killed (SIGTERM) or its stdin closes.
//
// Which account signs in (the first that applies):
//   1. `?login=<sub or email>` on the interaction page (a browser test may open it; the page lists the accounts as links)
//   2. the authorization request's `login_hint` (`<sub or email>`)
//   3. the account queued by `POST <control>/next-login {"login":"<sub or email>"}` (one sign-in)
//   4. the only account, when there is one
// otherwise the interaction page shows the accounts as links (a browser clicks one). The login `!deny` answers the
// client with error=access_denied (the person declined).
// Every sign-in logs in (a browser's session at the provider does not carry over to the next sign-in); consent is
// granted automatically (every scope and claim asked for).
//
// Tampering (the ID token the token endpoint returns is re-signed after one change), for the client's refusals:
//   `tamper` option or `POST <control>/tamper {"tamper":"audience"}` ({"tamper":null} to stop):
//   signature    signed by a key not in the JWKS, under the kid of the real key (the signature does not verify)
//   unknown-key  signed by a key not in the JWKS, under a kid of its own
//   audience     aud is another client
//   issuer       iss is another issuer
//   expired      exp (and iat) an hour in the past
//   issued-at    iat an hour in the future
//   nonce        nonce is not the one the client sent
//
// Headless sign-in (no browser): `POST <control>/sign-in {"url":"<authorization URL>"}` follows the redirects with a
// cookie jar, as a browser would, and answers {"callback":"<the redirect to the client, code & state & iss>"}, or
// {"error":…}. `GET <control>/authorizations` lists the authorization requests' parameters seen (newest last).
// `POST <control>/accounts {sub, email, …}` adds an account (or replaces the one with that sub) while it runs.
import { fstatSync } from 'node:fs';
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { once } from 'node:events';
import { Provider, errors } from 'oidc-provider';
import * as jose from 'jose';

export const DENY = '!deny';
export const TAMPERS = ['signature', 'unknown-key', 'audience', 'issuer', 'expired', 'issued-at', 'nonce'];

const HTML_ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

async function signingKey(kid) {
  const { privateKey } = await jose.generateKeyPair('RS256', { extractable: true });
  return { ...(await jose.exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
}

/**
 * The provider's storage: a Map per provider, every entry with its expiry (oidc-provider's own memory adapter is one
 * store for the process, and announces itself on every start).
 */
function memoryAdapter() {
  const store = new Map();
  const live = (key) => {
    const entry = store.get(key);
    if (entry && entry.expiresAt !== undefined && entry.expiresAt <= Date.now()) store.delete(key);
    return store.get(key)?.payload;
  };
  return class MemoryAdapter {
    constructor(model) {
      this.model = model;
    }
    key(id) {
      return `${this.model}:${id}`;
    }
    async upsert(id, payload, expiresIn) {
      store.set(this.key(id), { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : undefined });
    }
    async find(id) {
      return live(this.key(id));
    }
    async findByUid(uid) {
      for (const key of store.keys()) if (key.startsWith(`${this.model}:`) && live(key)?.uid === uid) return live(key);
      return undefined;
    }
    async findByUserCode(userCode) {
      for (const key of store.keys()) if (key.startsWith(`${this.model}:`) && live(key)?.userCode === userCode) return live(key);
      return undefined;
    }
    async consume(id) {
      const payload = live(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId) {
      for (const [key, entry] of store) if (entry.payload.grantId === grantId) store.delete(key);
    }
  };
}

/** A cookie jar good enough for one provider on one origin (names and values; attributes ignored but Max-Age=0). */
function cookieJar() {
  const cookies = new Map();
  return {
    take(response) {
      for (const line of response.headers.getSetCookie()) {
        const [pair, ...attributes] = line.split(';');
        const eq = pair.indexOf('=');
        const name = pair.slice(0, eq).trim();
        const value = pair.slice(eq + 1).trim();
        if (!value || attributes.some((a) => /^\s*max-age=0\s*$/i.test(a))) cookies.delete(name);
        else cookies.set(name, value);
      }
    },
    header: () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
  };
}

/**
 * Follows an authorization URL's redirects as a browser would (cookies kept) until one leaves the provider's origin:
 * that one is the redirect back to the client, returned without being followed.
 */
export async function signInHeadless(authorizationUrl, { maxRedirects = 20 } = {}) {
  let url = new URL(authorizationUrl);
  const origin = url.origin;
  const jar = cookieJar();
  for (let hop = 0; hop < maxRedirects; hop++) {
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header(), accept: 'text/html' } });
    jar.take(response);
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) {
      const body = await response.text();
      throw new Error(`the provider answered ${response.status} at ${url.pathname} instead of a redirect: ${body.slice(0, 500)}`);
    }
    await response.arrayBuffer().catch(() => undefined);
    const next = new URL(location, url);
    if (next.origin !== origin) return next.href;
    url = next;
  }
  throw new Error(`more than ${maxRedirects} redirects`);
}

/**
 * @param {{
 *   clients: { client_id: string, client_secret?: string, redirect_uris: string[], token_endpoint_auth_method?: string }[],
 *   accounts: { sub: string, email?: string, email_verified?: boolean | string, given_name?: string, family_name?: string,
 *     name?: string, picture?: string, amr?: string[], acr?: string }[],
 *   tamper?: string | null,
 *   idTokenClaims?: 'all' | 'conform',
 *   clientAuthMethods?: string[],
 *   port?: number,
 * }} options `idTokenClaims`: 'all' (default) puts the profile and email claims in the ID token as Keycloak and Google
 *   do; 'conform' only in the UserInfo answer (OpenID Connect Core 5.4 with an access token; oidc-provider's default).
 *   `clientAuthMethods`: the token endpoint's client authentication methods (default client_secret_basic,
 *   client_secret_post, none)
 * @returns {Promise<{ issuer: string, control: string, stop: () => Promise<void>, setTamper: (t: string | null) => void,
 *   nextLogin: (login: string) => void, authorizations: Record<string, string>[] }>}
 */
export async function startTestProvider({
  clients,
  accounts,
  tamper = null,
  idTokenClaims = 'all',
  clientAuthMethods = ['client_secret_basic', 'client_secret_post', 'none'],
  port = 0,
}) {
  if (!Array.isArray(clients) || !clients.length) throw new TypeError('startTestProvider: clients must be a non-empty array');
  if (!Array.isArray(accounts)) throw new TypeError('startTestProvider: accounts must be an array');
  const state = { tamper: checkTamper(tamper), nextLogin: undefined };
  const authorizations = [];

  const server = createServer();
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const control = `${issuer}/__test`;

  const realKey = await signingKey('test-provider-1');
  const rogueSameKid = await signingKey(realKey.kid);
  const rogueOwnKid = await signingKey('rogue-1');
  const acrValues = [...new Set(accounts.map((a) => a.acr).filter(Boolean))];
  const findAccountOf = (login) => accounts.find((a) => a.sub === login || (a.email && a.email === login));

  const provider = new Provider(issuer, {
    clients: clients.map((c) => ({
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: c.token_endpoint_auth_method ?? (c.client_secret ? 'client_secret_basic' : 'none'),
      ...c,
    })),
    adapter: memoryAdapter(),
    jwks: { keys: [realKey] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    pkce: { required: () => true },
    clientAuthMethods,
    features: { devInteractions: { enabled: false } },
    conformIdTokenClaims: idTokenClaims === 'conform',
    acrValues,
    claims: {
      // acr and amr with every ID token (the console reads them to tell a second factor)
      openid: ['sub', 'acr', 'amr'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name', 'picture'],
      auth_time: null,
      sid: null,
      iss: null,
    },
    async findAccount(_ctx, sub) {
      const account = accounts.find((a) => a.sub === sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        async claims() {
          // eslint-disable-next-line @typescript-eslint/no-unused-vars
          const { amr, acr, ...claims } = account;
          return claims;
        },
      };
    },
    async renderError(ctx, out) {
      ctx.type = 'text/plain';
      ctx.body = `${out.error}: ${out.error_description ?? ''}`;
    },
  });
  // a refused request is what many tests want (no noise), but a failure of the provider itself is shown
  provider.on('server_error', (_ctx, err) => process.stderr.write(`test-provider: server_error ${err.stack ?? err}\n`));

  // the interactions, the control routes, the record of authorization requests and the tampering of ID tokens
  provider.use(async (ctx, next) => {
    if (ctx.path.startsWith('/__test/')) return controlRoute(ctx);
    const interaction = /^\/interaction\/([\w-]+)$/.exec(ctx.path);
    if (interaction && ctx.method === 'GET') return interact(ctx);
    if (ctx.path === '/auth' && ctx.method === 'GET') {
      authorizations.push({ ...ctx.query });
      await forgetSession(ctx);
    }
    await next();
    if (ctx.path === '/token' && ctx.method === 'POST' && ctx.status === 200 && state.tamper && ctx.body?.id_token) {
      ctx.body = { ...ctx.body, id_token: await tampered(ctx.body.id_token, state.tamper) };
    }
  });

  /** A browser's session at the provider ends when it starts another sign-in: every sign-in logs in. */
  async function forgetSession(ctx) {
    const id = ctx.cookies.get(provider.cookieName('session'), { signed: true });
    const session = id ? await provider.Session.find(id) : undefined;
    if (session) await session.destroy();
  }

  async function interact(ctx) {
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    const { prompt, params } = details;
    let result;
    if (prompt.name === 'login') {
      const queued = state.nextLogin;
      state.nextLogin = undefined;
      const login =
        (typeof ctx.query.login === 'string' && ctx.query.login) ||
        (typeof params.login_hint === 'string' && params.login_hint) ||
        queued ||
        (accounts.length === 1 ? accounts[0].sub : undefined);
      if (login === DENY) {
        result = { error: 'access_denied', error_description: 'the person declined to sign in' };
      } else {
        const account = login ? findAccountOf(login) : undefined;
        if (!account) return chooser(ctx, login);
        result = {
          login: { accountId: account.sub, remember: false, ...(account.amr ? { amr: account.amr } : {}), ...(account.acr ? { acr: account.acr } : {}) },
        };
      }
    } else if (prompt.name === 'consent') {
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : new provider.Grant({ accountId: details.session.accountId, clientId: params.client_id });
      const { missingOIDCScope, missingOIDCClaims, missingResourceScopes } = prompt.details;
      if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(' '));
      if (missingOIDCClaims) grant.addOIDCClaims(missingOIDCClaims);
      for (const [indicator, scopes] of Object.entries(missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
      result = { consent: { grantId: await grant.save() } };
    } else {
      throw new errors.InvalidRequest(`the test provider has no interaction for the prompt ${prompt.name}`);
    }
    const returnTo = await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: false });
    ctx.status = 303;
    ctx.redirect(returnTo);
  }

  /** The accounts as links (`?login=<sub>`), for a browser when no account was named. */
  function chooser(ctx, login) {
    ctx.type = 'text/html';
    ctx.set('cache-control', 'no-store');
    const links = accounts.map((a) => `<li><a href="?login=${encodeURIComponent(a.sub)}">${escapeHtml(a.email ?? a.sub)}</a></li>`).join('');
    ctx.body =
      `<!doctype html><html><head><title>Test provider: sign in</title></head><body><h1>Sign in as</h1>` +
      (login ? `<p>No account "${escapeHtml(login)}".</p>` : '') +
      `<ul>${links}<li><a href="?login=${encodeURIComponent(DENY)}">Decline</a></li></ul></body></html>`;
  }

  async function controlRoute(ctx) {
    ctx.set('cache-control', 'no-store');
    const route = `${ctx.method} ${ctx.path.slice('/__test'.length)}`;
    const body = ctx.method === 'POST' ? await readJson(ctx.req) : undefined;
    switch (route) {
      case 'POST /tamper':
        state.tamper = checkTamper(body?.tamper ?? null);
        ctx.body = { tamper: state.tamper };
        return;
      case 'POST /next-login':
        state.nextLogin = typeof body?.login === 'string' ? body.login : undefined;
        ctx.body = { nextLogin: state.nextLogin ?? null };
        return;
      case 'POST /sign-in':
        try {
          ctx.body = { callback: await signInHeadless(body?.url) };
        } catch (err) {
          ctx.status = 502;
          ctx.body = { error: err.message };
        }
        return;
      case 'GET /authorizations':
        ctx.body = authorizations;
        return;
      case 'POST /accounts': {
        // a person added while the provider runs (e2e files invite people of their own); one with the same sub is replaced
        if (typeof body?.sub !== 'string' || !body.sub) {
          ctx.status = 400;
          ctx.body = { error: 'an account needs a sub' };
          return;
        }
        const at = accounts.findIndex((a) => a.sub === body.sub);
        if (at >= 0) accounts.splice(at, 1);
        accounts.push(body);
        ctx.body = { accounts: accounts.length };
        return;
      }
      default:
        ctx.status = 404;
        ctx.body = { error: `no control route ${route}` };
    }
  }

  async function tampered(idToken, how) {
    const claims = jose.decodeJwt(idToken);
    const now = Math.floor(Date.now() / 1000);
    let key = realKey;
    switch (how) {
      case 'signature':
        key = rogueSameKid;
        break;
      case 'unknown-key':
        key = rogueOwnKid;
        break;
      case 'audience':
        claims.aud = 'another-client';
        break;
      case 'issuer':
        claims.iss = 'https://another-issuer.example';
        break;
      case 'expired':
        claims.iat = now - 7200;
        claims.exp = now - 3600;
        break;
      case 'issued-at':
        claims.iat = now + 3600;
        claims.exp = now + 7200;
        break;
      case 'nonce':
        claims.nonce = 'not-the-nonce-the-client-sent';
        break;
    }
    return new jose.SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' }).sign(await jose.importJWK(key, 'RS256'));
  }

  server.on('request', provider.callback());

  return {
    issuer,
    control,
    authorizations,
    setTamper: (t) => {
      state.tamper = checkTamper(t);
    },
    nextLogin: (login) => {
      state.nextLogin = login;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function checkTamper(tamper) {
  if (tamper !== null && !TAMPERS.includes(tamper)) throw new TypeError(`tamper must be one of ${TAMPERS.join(', ')} or null, got ${tamper}`);
  return tamper;
}

async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : {};
}

// `node test-provider.mjs`: the configuration from COFFER_TEST_OIDC (JSON), the issuer printed as JSON on stdout
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const options = JSON.parse(process.env.COFFER_TEST_OIDC ?? '{}');
  const op = await startTestProvider(options);
  const stop = () => op.stop().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // a parent that gave it a pipe for stdin: that pipe closing (a test runner that died) stops the provider too
  const stdin = fstatSync(0);
  if (stdin.isFIFO() || stdin.isSocket()) {
    process.stdin.on('end', stop);
    process.stdin.resume();
  }
  process.stdout.write(`${JSON.stringify({ issuer: op.issuer, control: op.control })}\n`);
}
