import * as oidc from 'openid-client';
import type { VerifiedIdentity } from '@coffer/contracts';

/** The installation's OpenID provider, as the console signs people in through it (config.ts: OIDC_*). */
export interface OidcSettings {
  /** the Issuer Identifier; its discovery document is `<issuer>/.well-known/openid-configuration` */
  issuer: string;
  clientId: string;
  /** unset: a public client (PKCE only, token_endpoint_auth_method none) */
  clientSecret?: string;
  /** where the provider sends the browser back (`<console>/console/oidc/callback`), registered at the provider */
  redirectUri: string;
  /** `openid` and more (`email`, `profile`) */
  scopes: readonly string[];
  /** acr_values to request (space separated), e.g. a provider's name for phishing-resistant MFA */
  acrValues?: string;
  /** plain HTTP to the provider: only for a loopback issuer (127.0.0.1, localhost, ::1: tests, local development) */
  allowInsecureHttp?: boolean;
  /** each request to the provider (discovery, token, UserInfo), default 10 000 ms */
  timeoutMs?: number;
}

/** What must survive the browser's trip to the provider and back (oidc-transaction-cookie.ts keeps it). */
export interface OidcTransaction {
  state: string;
  nonce: string;
  /** the PKCE code_verifier; only its S256 challenge went to the provider */
  codeVerifier: string;
  /** epoch ms */
  createdAt: number;
}

/** A sign-in must come back within this (the provider's own login may take a while: a password manager, a key). */
export const OIDC_TRANSACTION_MAX_AGE_MS = 10 * 60_000;
/** Clock skew allowed with the provider, for the ID token's `iat` (as openid-client's default clockTolerance). */
const CLOCK_TOLERANCE_S = 30;

export type OidcRefusalReason =
  /** the transaction is older than OIDC_TRANSACTION_MAX_AGE_MS, or malformed */
  | 'stale'
  /** the callback's `state` is not this browser's transaction's */
  | 'state'
  /** the ID token's `nonce` is not the transaction's */
  | 'nonce'
  /** the ID token's signature does not verify with a key of the provider's JWKS */
  | 'signature'
  /** the ID token is for another client (`aud`, `azp`) */
  | 'audience'
  /** the ID token's `iss`, or the callback's `iss` parameter, is not the configured issuer */
  | 'issuer'
  /** the ID token has expired */
  | 'expired'
  /** the ID token's `iat` is in the future or older than a sign-in may take */
  | 'issued_at'
  /** the provider answered the callback with an error (`error=access_denied` …); `providerError` has its code */
  | 'provider_error'
  /** the code could not be exchanged (the token endpoint refused it, or could not be reached), or UserInfo failed */
  | 'exchange'
  /** the ID token lacks what a sign-in needs (`sub`), or is otherwise malformed */
  | 'invalid_token'
  /** the provider's discovery document cannot be read (the provider is down or misconfigured) */
  | 'unavailable';

/** Error codes of RFC 6749 4.1.2.1 and OpenID Connect Core 3.1.2.6: the only provider text a person is shown. */
const PROVIDER_ERRORS = new Set([
  'access_denied',
  'invalid_request',
  'unauthorized_client',
  'unsupported_response_type',
  'invalid_scope',
  'server_error',
  'temporarily_unavailable',
  'interaction_required',
  'login_required',
  'account_selection_required',
  'consent_required',
  'invalid_request_uri',
  'invalid_request_object',
  'request_not_supported',
  'request_uri_not_supported',
  'registration_not_supported',
]);

const MESSAGES: Record<OidcRefusalReason, string> = {
  stale: 'The sign-in took too long: start again',
  state: 'The sign-in did not start in this browser: start again',
  nonce: 'The identity provider’s answer does not belong to this sign-in: start again',
  signature: 'The identity provider’s answer is not signed by it',
  audience: 'The identity provider’s answer is meant for another application',
  issuer: 'The answer did not come from the configured identity provider',
  expired: 'The identity provider’s answer has expired: start again',
  issued_at: 'The identity provider’s answer is dated wrongly (check the clocks): start again',
  provider_error: 'The identity provider refused the sign-in',
  exchange: 'The sign-in could not be completed with the identity provider: start again',
  invalid_token: 'The identity provider’s answer is not usable',
  unavailable: 'The identity provider cannot be reached: try again later',
};

/**
 * A refused sign-in. `message` may be shown to the person (it carries no provider text but a standard error code);
 * `detail` is for the log (the library's message, the provider's error_description).
 */
export class OidcRefusal extends Error {
  override readonly name = 'OidcRefusal';
  constructor(
    readonly reason: OidcRefusalReason,
    readonly detail?: string,
    /** for `provider_error`: the provider's `error` code when it is a standard one, else `other` */
    readonly providerError?: string,
  ) {
    super(providerError ? `${MESSAGES[reason]} (${providerError})` : MESSAGES[reason]);
  }
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The settings' problem, or null. HTTPS unless allowInsecureHttp and a loopback issuer. */
export function oidcSettingsProblem(settings: OidcSettings): string | null {
  let issuer: URL;
  try {
    issuer = new URL(settings.issuer);
  } catch {
    return `the issuer must be a URL, got "${settings.issuer}"`;
  }
  if (issuer.search || issuer.hash) return `the issuer must have no query or fragment, got "${settings.issuer}"`;
  if (issuer.protocol === 'http:') {
    if (!LOOPBACK.has(issuer.hostname)) return `the issuer must use https:// (plain http only on 127.0.0.1, localhost or ::1), got "${settings.issuer}"`;
    if (!settings.allowInsecureHttp) return `the issuer uses plain http: allowInsecureHttp is off, got "${settings.issuer}"`;
  } else if (issuer.protocol !== 'https:') {
    return `the issuer must use https://, got "${settings.issuer}"`;
  }
  if (!settings.clientId) return 'the client id is required';
  if (!settings.scopes.includes('openid')) return `the scopes must include openid, got "${settings.scopes.join(' ')}"`;
  try {
    const redirect = new URL(settings.redirectUri);
    if (!['http:', 'https:'].includes(redirect.protocol) || redirect.hash) throw new Error();
  } catch {
    return `the redirect URI must be an http(s) URL without fragment, got "${settings.redirectUri}"`;
  }
  return null;
}

function causes(err: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e: unknown = err; e && typeof e === 'object' && chain.length < 5; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain;
}

/** The refusal an openid-client error means (its codes are oauth4webapi's; the claim at fault is in the causes). */
export function refusalOf(err: unknown): OidcRefusal {
  if (err instanceof OidcRefusal) return err;
  const chain = causes(err);
  const messages = chain.map((e) => (e instanceof Error ? e.message : '')).join(' / ');
  const claim = chain.map((e) => (e as { claim?: unknown }).claim).find((c): c is string => typeof c === 'string');
  if (err instanceof oidc.AuthorizationResponseError) {
    const code = PROVIDER_ERRORS.has(err.error) ? err.error : 'other';
    return new OidcRefusal('provider_error', `${err.error}${err.error_description ? `: ${err.error_description}` : ''}`, code);
  }
  if (err instanceof oidc.ResponseBodyError)
    return new OidcRefusal('exchange', `token endpoint: ${err.error}${err.error_description ? `: ${err.error_description}` : ''}`);
  const code = (err as { code?: unknown } | undefined)?.code;
  switch (code) {
    case 'OAUTH_JWT_CLAIM_COMPARISON_FAILED':
      if (claim === 'aud' || claim === 'azp') return new OidcRefusal('audience', messages);
      if (claim === 'iss') return new OidcRefusal('issuer', messages);
      if (claim === 'nonce') return new OidcRefusal('nonce', messages);
      return new OidcRefusal('invalid_token', messages);
    case 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED':
      if (claim === 'exp' || claim === 'auth_time') return new OidcRefusal('expired', messages);
      return new OidcRefusal('issued_at', messages);
    case 'OAUTH_KEY_SELECTION_FAILED':
      return new OidcRefusal('signature', messages);
    case 'OAUTH_INVALID_RESPONSE':
      if (/"state"/.test(messages)) return new OidcRefusal('state', messages);
      if (/"iss"/.test(messages)) return new OidcRefusal('issuer', messages);
      if (/signature/i.test(messages)) return new OidcRefusal('signature', messages);
      if (/id_token|JWT|ID Token/.test(messages)) return new OidcRefusal('invalid_token', messages);
      return new OidcRefusal('exchange', messages);
    case 'OAUTH_PARSE_ERROR':
    case 'OAUTH_UNSUPPORTED_OPERATION':
      return new OidcRefusal('invalid_token', messages);
    default:
      return new OidcRefusal('exchange', messages || String(err));
  }
}

function text(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= max ? value : undefined;
}

function httpsUrl(value: unknown): string | undefined {
  const s = text(value, 2000);
  return s && /^https:\/\//i.test(s) ? s : undefined;
}

/**
 * The identity of verified claims (the ID token's, completed by UserInfo's profile claims). `email_verified` is true
 * only for boolean true or the string "true" some providers send (or, without it, Entra ID's `xms_edov` so); anything
 * else, and no email, is not verified.
 */
export function identityOf(claims: Record<string, unknown>, profile: Record<string, unknown> = {}): VerifiedIdentity {
  const subject = text(claims['sub'], 255);
  const issuer = text(claims['iss'], 500);
  if (!subject || !issuer) throw new OidcRefusal('invalid_token', 'the ID token has no usable sub or iss');
  const pick = (name: string) => (claims[name] !== undefined ? claims[name] : profile[name]);
  const rawEmail = text(pick('email'), 254);
  const email = rawEmail && /^[^\s@]+@[^\s@]+$/.test(rawEmail) ? rawEmail : undefined;
  // email_verified goes with the email it came with; Microsoft Entra ID sends no email_verified but, as an optional
  // claim, xms_edov (the email's domain is verified by its owner), which stands for it
  const from = claims['email'] !== undefined ? claims : profile;
  const isTrue = (v: unknown) => v === true || v === 'true';
  const verified = isTrue(from['email_verified']) || (from['email_verified'] === undefined && isTrue(from['xms_edov']));
  const amrClaim = claims['amr'];
  const amr = (Array.isArray(amrClaim) ? amrClaim : typeof amrClaim === 'string' ? [amrClaim] : [])
    .filter((m): m is string => typeof m === 'string' && m.length > 0 && m.length <= 100)
    .slice(0, 20);
  const givenName = text(pick('given_name'), 200);
  const familyName = text(pick('family_name'), 200);
  const picture = httpsUrl(pick('picture'));
  const acr = text(claims['acr'], 500);
  return {
    issuer,
    subject,
    ...(email ? { email } : {}),
    emailVerified: !!email && verified,
    ...(givenName ? { givenName } : {}),
    ...(familyName ? { familyName } : {}),
    ...(picture ? { picture } : {}),
    ...(amr.length ? { amr } : {}),
    ...(acr ? { acr } : {}),
  };
}

function transactionProblem(transaction: OidcTransaction, now: number): string | null {
  const { state, nonce, codeVerifier, createdAt } = transaction ?? {};
  if (typeof state !== 'string' || typeof nonce !== 'string' || typeof codeVerifier !== 'string' || !state || !nonce || !codeVerifier)
    return 'malformed transaction';
  if (typeof createdAt !== 'number' || !Number.isFinite(createdAt)) return 'malformed transaction';
  if (createdAt > now + CLOCK_TOLERANCE_S * 1000) return 'transaction from the future';
  if (now - createdAt > OIDC_TRANSACTION_MAX_AGE_MS) return `transaction ${Math.round((now - createdAt) / 1000)} s old`;
  return null;
}

export interface OidcClientOptions {
  /** epoch ms (tests) */
  now?: () => number;
  /** after a failed discovery, calls within this are refused at once (default 5 000 ms) instead of asking again */
  retryAfterMs?: number;
}

/**
 * The console's OpenID Connect client: authorization code flow with PKCE (S256), state and nonce. The provider's
 * discovery document is read once and kept (with its JWKS, which openid-client re-reads when a token names a key it
 * does not know); a provider down at start-up is asked again when somebody signs in. The ID token is validated by
 * openid-client (issuer, audience, expiry, nonce, and, enableNonRepudiationChecks, its signature with the provider's
 * JWKS even though it came straight from the token endpoint) and here (iat).
 */
export class OidcClient {
  private configuration?: oidc.Configuration;
  private discovering?: Promise<oidc.Configuration>;
  private failedAt = -Infinity;
  private lastProblem?: string;
  private readonly now: () => number;
  private readonly retryAfterMs: number;

  private constructor(
    readonly settings: Readonly<OidcSettings>,
    options: OidcClientOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.retryAfterMs = options.retryAfterMs ?? 5_000;
  }

  /**
   * Checks the settings (a TypeError names the problem) and reads the provider's discovery document. A provider that
   * cannot be reached does not fail this: `ready` stays false and the next begin() asks again.
   */
  static async connect(settings: OidcSettings, options: OidcClientOptions = {}): Promise<OidcClient> {
    const problem = oidcSettingsProblem(settings);
    if (problem) throw new TypeError(`OIDC settings: ${problem}`);
    const client = new OidcClient(Object.freeze({ ...settings, scopes: [...settings.scopes] }), options);
    await client.discovered().catch(() => undefined);
    return client;
  }

  /** The discovery document has been read. */
  get ready(): boolean {
    return this.configuration !== undefined;
  }

  /** Why the last discovery failed (for the log), while not ready. */
  get problem(): string | undefined {
    return this.ready ? undefined : this.lastProblem;
  }

  private discovered(): Promise<oidc.Configuration> {
    if (this.configuration) return Promise.resolve(this.configuration);
    if (this.discovering) return this.discovering;
    if (this.now() - this.failedAt < this.retryAfterMs) return Promise.reject(new OidcRefusal('unavailable', this.lastProblem));
    this.discovering = this.discover().then(
      (configuration) => {
        this.configuration = configuration;
        this.discovering = undefined;
        return configuration;
      },
      (err: unknown) => {
        this.failedAt = this.now();
        this.lastProblem = causes(err)
          .map((e) => (e instanceof Error ? e.message : String(e)))
          .join(' / ');
        this.discovering = undefined;
        throw new OidcRefusal('unavailable', this.lastProblem);
      },
    );
    return this.discovering;
  }

  private async discover(): Promise<oidc.Configuration> {
    const { issuer, clientId, clientSecret, redirectUri, allowInsecureHttp, timeoutMs = 10_000 } = this.settings;
    const execute = [oidc.enableNonRepudiationChecks, ...(allowInsecureHttp ? [oidc.allowInsecureRequests] : [])];
    const metadata = { redirect_uris: [redirectUri] };
    const timeout = Math.max(1, Math.ceil(timeoutMs / 1000));
    const discovered = await oidc.discovery(new URL(issuer), clientId, metadata, clientSecret ? oidc.ClientSecretBasic(clientSecret) : oidc.None(), {
      execute,
      timeout,
    });
    // client_secret_basic unless the provider says it takes client_secret_post only
    const methods = discovered.serverMetadata().token_endpoint_auth_methods_supported;
    if (!clientSecret || !methods || methods.includes('client_secret_basic') || !methods.includes('client_secret_post')) return discovered;
    const configuration = new oidc.Configuration(discovered.serverMetadata(), clientId, metadata, oidc.ClientSecretPost(clientSecret));
    configuration.timeout = timeout;
    for (const extension of execute) extension(configuration);
    return configuration;
  }

  /**
   * Starts a sign-in: the provider's authorization URL (the browser goes there) and the transaction to keep until
   * the browser comes back (oidc-transaction-cookie.ts). Throws OidcRefusal('unavailable') when the provider's
   * discovery document cannot be read.
   * @param options.loginHint the provider's login_hint (an email address the person gave)
   */
  async begin(options: { loginHint?: string } = {}): Promise<{ url: string; transaction: OidcTransaction }> {
    const configuration = await this.discovered();
    const transaction: OidcTransaction = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
      createdAt: this.now(),
    };
    const { redirectUri, scopes, acrValues } = this.settings;
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: scopes.join(' '),
      code_challenge: await oidc.calculatePKCECodeChallenge(transaction.codeVerifier),
      code_challenge_method: 'S256',
      state: transaction.state,
      nonce: transaction.nonce,
      ...(acrValues ? { acr_values: acrValues } : {}),
      ...(options.loginHint ? { login_hint: options.loginHint } : {}),
    });
    return { url: url.href, transaction };
  }

  /**
   * Completes a sign-in: checks the callback against the transaction (age, state, the provider's error, iss),
   * exchanges the code (with the PKCE verifier), validates the ID token and maps its claims. When the ID token
   * carries no email (providers that put the scopes' claims in UserInfo only, as OpenID Connect Core 5.4 has it),
   * the profile claims are read from UserInfo (whose `sub` must be the ID token's).
   * @param callback the callback's query: only its parameters are read, the redirect URI sent with the code is the
   *   configured one (the gateway may sit behind a proxy that changes its own URL)
   * @throws OidcRefusal
   */
  async complete(callback: URL | URLSearchParams, transaction: OidcTransaction): Promise<VerifiedIdentity> {
    const now = this.now();
    const stale = transactionProblem(transaction, now);
    if (stale) throw new OidcRefusal('stale', stale);
    const configuration = await this.discovered();
    const currentUrl = new URL(this.settings.redirectUri);
    currentUrl.search = (callback instanceof URL ? callback.searchParams : callback).toString();
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, currentUrl, {
        pkceCodeVerifier: transaction.codeVerifier,
        expectedState: transaction.state,
        expectedNonce: transaction.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new OidcRefusal('invalid_token', 'no ID token');
      const iat = claims.iat;
      const nowS = now / 1000;
      if (iat > nowS + CLOCK_TOLERANCE_S) throw new OidcRefusal('issued_at', `iat ${iat} is ${Math.round(iat - nowS)} s in the future`);
      if (iat < nowS - OIDC_TRANSACTION_MAX_AGE_MS / 1000 - CLOCK_TOLERANCE_S)
        throw new OidcRefusal('issued_at', `iat ${iat} is ${Math.round(nowS - iat)} s old`);
      let profile: Record<string, unknown> = {};
      if (claims.email === undefined && tokens.access_token && configuration.serverMetadata().userinfo_endpoint) {
        profile = { ...(await oidc.fetchUserInfo(configuration, tokens.access_token, claims.sub)) };
      }
      return identityOf({ ...claims }, profile);
    } catch (err) {
      throw refusalOf(err);
    }
  }
}
