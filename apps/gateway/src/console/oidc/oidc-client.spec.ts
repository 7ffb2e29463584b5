import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
// the test provider is a test helper of libs/testing, started as a child process (it is an ES module)
// eslint-disable-next-line @nx/enforce-module-boundaries
import { DENY_LOGIN, startTestProvider, type TestProvider } from '../../../../../libs/testing/src/oidc';
import {
  OIDC_TRANSACTION_MAX_AGE_MS,
  OidcClient,
  OidcRefusal,
  identityOf,
  oidcSettingsProblem,
  type OidcRefusalReason,
  type OidcSettings,
} from './oidc-client';

jest.setTimeout(30_000);

const REDIRECT = 'http://127.0.0.1:8081/console/oidc/callback';
const SECRET = 'a-client-secret-of-the-console-0123456789';

const ACCOUNTS = [
  {
    sub: 'ada',
    email: 'ada@example.com',
    email_verified: true,
    given_name: 'Ada',
    family_name: 'Lovelace',
    picture: 'https://pictures.example.com/ada.png',
    amr: ['pwd', 'mfa'],
    acr: 'urn:example:mfa',
  },
  { sub: 'bob', email: 'bob@example.com', email_verified: 'true', amr: ['pwd'] },
  { sub: 'carol', email: 'carol@example.com', email_verified: 'yes' },
  { sub: 'dave', email: 'dave@example.com' },
];

const CLIENTS = [
  { client_id: 'coffer-console', client_secret: SECRET, redirect_uris: [REDIRECT] },
  { client_id: 'coffer-public', redirect_uris: [REDIRECT] },
];

function settings(issuer: string, more: Partial<OidcSettings> = {}): OidcSettings {
  return {
    issuer,
    clientId: 'coffer-console',
    clientSecret: SECRET,
    redirectUri: REDIRECT,
    scopes: ['openid', 'email', 'profile'],
    allowInsecureHttp: true,
    ...more,
  };
}

async function refusal(promise: Promise<unknown>): Promise<OidcRefusal> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof OidcRefusal) return err;
    throw err;
  }
  throw new Error('expected an OidcRefusal');
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('OidcClient against a real OpenID provider (oidc-provider)', () => {
  let op: TestProvider;
  let client: OidcClient;

  beforeAll(async () => {
    op = await startTestProvider({ clients: CLIENTS, accounts: ACCOUNTS });
    client = await OidcClient.connect(settings(op.issuer));
  });
  afterAll(() => op?.stop());
  afterEach(() => op.setTamper(null));

  async function signIn(login: string, via = client) {
    const { url, transaction } = await via.begin({ loginHint: login });
    return via.complete(await op.signIn(url), transaction);
  }

  it('signs in with the authorization code flow, PKCE S256, state and nonce, and maps the ID token', async () => {
    expect(client.ready).toBe(true);
    const { url, transaction } = await client.begin({ loginHint: 'ada' });
    const sent = new URL(url);
    expect(sent.origin + sent.pathname).toBe(`${op.issuer}/auth`);
    expect(Object.fromEntries(sent.searchParams)).toEqual({
      client_id: 'coffer-console',
      response_type: 'code',
      redirect_uri: REDIRECT,
      scope: 'openid email profile',
      code_challenge: createHash('sha256').update(transaction.codeVerifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: transaction.state,
      nonce: transaction.nonce,
      login_hint: 'ada',
    });
    // the verifier never leaves the gateway; state, nonce and verifier are fresh random values
    expect(url).not.toContain(transaction.codeVerifier);
    expect(new Set([transaction.state, transaction.nonce, transaction.codeVerifier]).size).toBe(3);
    expect(transaction.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);

    const callback = await op.signIn(url);
    // what the provider received
    expect((await op.authorizations()).at(-1)).toMatchObject({
      code_challenge: createHash('sha256').update(transaction.codeVerifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: transaction.state,
      nonce: transaction.nonce,
    });
    expect(callback.origin + callback.pathname).toBe(REDIRECT);
    expect(callback.searchParams.get('state')).toBe(transaction.state);
    expect(await client.complete(callback, transaction)).toEqual({
      issuer: op.issuer,
      subject: 'ada',
      email: 'ada@example.com',
      emailVerified: true,
      givenName: 'Ada',
      familyName: 'Lovelace',
      picture: 'https://pictures.example.com/ada.png',
      amr: ['pwd', 'mfa'],
      acr: 'urn:example:mfa',
    });
  });

  it('takes email_verified as true only for true or "true"', async () => {
    expect(await signIn('bob')).toMatchObject({ subject: 'bob', email: 'bob@example.com', emailVerified: true, amr: ['pwd'] });
    expect(await signIn('carol')).toMatchObject({ subject: 'carol', email: 'carol@example.com', emailVerified: false });
    const dave = await signIn('dave@example.com');
    expect(dave).toMatchObject({ subject: 'dave', emailVerified: false });
    expect(dave.amr).toBeUndefined();
  });

  it('signs in as a public client (no secret: PKCE alone)', async () => {
    const publicClient = await OidcClient.connect(settings(op.issuer, { clientId: 'coffer-public', clientSecret: undefined }));
    expect(await signIn('ada', publicClient)).toMatchObject({ subject: 'ada', emailVerified: true });
  });

  it('asks for the acr_values configured', async () => {
    const strict = await OidcClient.connect(settings(op.issuer, { acrValues: 'urn:example:mfa' }));
    const { url } = await strict.begin();
    expect(new URL(url).searchParams.get('acr_values')).toBe('urn:example:mfa');
  });

  it('refuses a callback whose state is not the transaction’s', async () => {
    const { url, transaction } = await client.begin({ loginHint: 'ada' });
    const callback = await op.signIn(url);
    expect((await refusal(client.complete(callback, { ...transaction, state: 'another-state' }))).reason).toBe('state');
    const forged = new URL(callback);
    forged.searchParams.set('state', 'forged');
    expect((await refusal(client.complete(forged, transaction))).reason).toBe('state');
    const missing = new URL(callback);
    missing.searchParams.delete('state');
    expect((await refusal(client.complete(missing, transaction))).reason).toBe('state');
  });

  it('refuses a code exchanged with another PKCE verifier (the provider refuses it)', async () => {
    const { url, transaction } = await client.begin({ loginHint: 'ada' });
    const callback = await op.signIn(url);
    const other = await client.begin();
    const refused = await refusal(client.complete(callback, { ...transaction, codeVerifier: other.transaction.codeVerifier }));
    expect(refused.reason).toBe('exchange');
    expect(refused.detail).toMatch(/invalid_grant/);
  });

  it('refuses a code used twice', async () => {
    const { url, transaction } = await client.begin({ loginHint: 'ada' });
    const callback = await op.signIn(url);
    await client.complete(callback, transaction);
    expect((await refusal(client.complete(callback, transaction))).reason).toBe('exchange');
  });

  it('refuses a callback with another issuer (iss parameter)', async () => {
    const { url, transaction } = await client.begin({ loginHint: 'ada' });
    const callback = await op.signIn(url);
    callback.searchParams.set('iss', 'https://another-issuer.example');
    expect((await refusal(client.complete(callback, transaction))).reason).toBe('issuer');
  });

  it.each<[Parameters<TestProvider['setTamper']>[0], OidcRefusalReason]>([
    ['nonce', 'nonce'],
    ['signature', 'signature'],
    ['unknown-key', 'signature'],
    ['audience', 'audience'],
    ['expired', 'expired'],
    ['issuer', 'issuer'],
    ['issued-at', 'issued_at'],
  ])('refuses an ID token with a tampered %s', async (tamper, reason) => {
    await op.setTamper(tamper);
    const refused = await refusal(signIn('ada'));
    expect(refused.reason).toBe(reason);
    expect(refused.message).not.toMatch(/JWT|claim/);
  });

  it('refuses when the provider answers with an error (the person declined), showing its code only', async () => {
    const refused = await refusal(signIn(DENY_LOGIN));
    expect(refused).toMatchObject({ reason: 'provider_error', providerError: 'access_denied' });
    expect(refused.message).toBe('The identity provider refused the sign-in (access_denied)');

    // a forged error callback: its description (attacker's text) is kept for the log, never shown
    const { transaction } = await client.begin();
    const forged = new URLSearchParams({ error: 'call_us', error_description: 'Call +1 555 0100 to unlock', state: transaction.state, iss: op.issuer });
    const refusedForged = await refusal(client.complete(forged, transaction));
    expect(refusedForged).toMatchObject({ reason: 'provider_error', providerError: 'other' });
    expect(refusedForged.message).not.toContain('555');
    expect(refusedForged.detail).toContain('555');
  });

  it('refuses a transaction older than 10 minutes, or malformed, without asking the provider', async () => {
    let now = Date.now();
    const clocked = await OidcClient.connect(settings(op.issuer), { now: () => now });
    const { url, transaction } = await clocked.begin({ loginHint: 'ada' });
    const callback = await op.signIn(url);
    now += OIDC_TRANSACTION_MAX_AGE_MS + 1;
    expect((await refusal(clocked.complete(callback, transaction))).reason).toBe('stale');
    now -= OIDC_TRANSACTION_MAX_AGE_MS + 1;
    expect((await refusal(clocked.complete(callback, { ...transaction, createdAt: now + 3_600_000 }))).reason).toBe('stale');
    expect((await refusal(clocked.complete(callback, { ...transaction, nonce: '' }))).reason).toBe('stale');
    // the code was not spent by the refusals
    expect(await clocked.complete(callback, transaction)).toMatchObject({ subject: 'ada' });
  });
});

describe('OidcClient with a provider that keeps profile claims in UserInfo (OpenID Connect Core 5.4)', () => {
  let op: TestProvider;
  beforeAll(async () => {
    op = await startTestProvider({ clients: CLIENTS, accounts: ACCOUNTS, idTokenClaims: 'conform' });
  });
  afterAll(() => op?.stop());

  it('reads email and names from UserInfo, amr and acr from the ID token', async () => {
    const client = await OidcClient.connect(settings(op.issuer));
    const { url, transaction } = await client.begin({ loginHint: 'ada' });
    expect(await client.complete(await op.signIn(url), transaction)).toEqual({
      issuer: op.issuer,
      subject: 'ada',
      email: 'ada@example.com',
      emailVerified: true,
      givenName: 'Ada',
      familyName: 'Lovelace',
      picture: 'https://pictures.example.com/ada.png',
      amr: ['pwd', 'mfa'],
      acr: 'urn:example:mfa',
    });
  });
});

describe('OidcClient with a provider that takes client_secret_post only', () => {
  let op: TestProvider;
  beforeAll(async () => {
    op = await startTestProvider({
      clients: [{ ...CLIENTS[0], token_endpoint_auth_method: 'client_secret_post' }],
      accounts: ACCOUNTS,
      clientAuthMethods: ['client_secret_post'],
    });
  });
  afterAll(() => op?.stop());

  it('sends the secret in the body', async () => {
    const client = await OidcClient.connect(settings(op.issuer));
    const { url, transaction } = await client.begin({ loginHint: 'bob' });
    expect(await client.complete(await op.signIn(url), transaction)).toMatchObject({ subject: 'bob' });
  });
});

describe('OidcClient when the provider is down', () => {
  it('connects anyway, refuses sign-ins as unavailable, and discovers once the provider is up', async () => {
    const port = await freePort();
    let now = Date.now();
    const issuer = `http://127.0.0.1:${port}`;
    const client = await OidcClient.connect(settings(issuer), { now: () => now, retryAfterMs: 5_000 });
    expect(client.ready).toBe(false);
    expect(client.problem).toBeTruthy();
    expect((await refusal(client.begin())).reason).toBe('unavailable');

    const op = await startTestProvider({ clients: CLIENTS, accounts: ACCOUNTS, port });
    try {
      // within retryAfterMs of the failure: refused without asking
      expect((await refusal(client.begin())).reason).toBe('unavailable');
      now += 5_001;
      const { url, transaction } = await client.begin({ loginHint: 'bob' });
      expect(client.ready).toBe(true);
      expect(await client.complete(await op.signIn(url), transaction)).toMatchObject({ subject: 'bob' });
    } finally {
      await op.stop();
    }
  });
});

describe('OIDC settings', () => {
  const base = settings('https://login.example.com', { allowInsecureHttp: false });

  it.each([
    ['https://login.example.com', false, null],
    ['https://login.example.com/realms/coffer', false, null],
    ['http://127.0.0.1:9000', true, null],
    ['http://localhost:9000', true, null],
    ['http://[::1]:9000', true, null],
    ['http://127.0.0.1:9000', false, 'the issuer uses plain http: allowInsecureHttp is off, got "http://127.0.0.1:9000"'],
    ['http://login.example.com', true, 'the issuer must use https:// (plain http only on 127.0.0.1, localhost or ::1), got "http://login.example.com"'],
    ['http://10.0.0.1', true, 'the issuer must use https:// (plain http only on 127.0.0.1, localhost or ::1), got "http://10.0.0.1"'],
    ['ftp://login.example.com', false, 'the issuer must use https://, got "ftp://login.example.com"'],
    ['https://login.example.com?x=1', false, 'the issuer must have no query or fragment, got "https://login.example.com?x=1"'],
    ['login.example.com', false, 'the issuer must be a URL, got "login.example.com"'],
  ])('issuer %s (allowInsecureHttp %s): %s', (issuer, allowInsecureHttp, problem) => {
    expect(oidcSettingsProblem({ ...base, issuer, allowInsecureHttp })).toBe(problem);
  });

  it('needs the openid scope and a client id', async () => {
    expect(oidcSettingsProblem({ ...base, scopes: ['email'] })).toBe('the scopes must include openid, got "email"');
    expect(oidcSettingsProblem({ ...base, clientId: '' })).toBe('the client id is required');
    await expect(OidcClient.connect({ ...base, scopes: ['profile'] })).rejects.toThrow(TypeError);
  });
});

describe('identityOf', () => {
  const claims = { iss: 'https://login.example.com', sub: 'u1' };

  it.each([
    [true, true],
    ['true', true],
    [false, false],
    ['false', false],
    ['TRUE', false],
    [1, false],
    ['yes', false],
    [undefined, false],
  ])('email_verified %p: %p', (value, verified) => {
    expect(identityOf({ ...claims, email: 'a@example.com', email_verified: value }).emailVerified).toBe(verified);
  });

  it("takes Entra ID's xms_edov for email_verified when the provider sends no email_verified", () => {
    expect(identityOf({ ...claims, email: 'a@example.com', xms_edov: true }).emailVerified).toBe(true);
    expect(identityOf({ ...claims, email: 'a@example.com', xms_edov: 'true' }).emailVerified).toBe(true);
    expect(identityOf({ ...claims, email: 'a@example.com', xms_edov: false }).emailVerified).toBe(false);
    // an explicit email_verified: false wins
    expect(identityOf({ ...claims, email: 'a@example.com', email_verified: false, xms_edov: true }).emailVerified).toBe(false);
  });

  it('keeps no email that is not one, and never calls a missing email verified', () => {
    expect(identityOf({ ...claims, email: 'not an email', email_verified: true })).toEqual({ ...{ issuer: claims.iss, subject: 'u1' }, emailVerified: false });
    expect(identityOf({ ...claims, email_verified: true }).emailVerified).toBe(false);
  });

  it('drops what does not fit (long names, non-https pictures, non-string amr entries)', () => {
    expect(identityOf({ ...claims, given_name: 'x'.repeat(201), family_name: 7, picture: 'javascript:alert(1)', amr: ['pwd', 3, ''], acr: ['a'] })).toEqual({
      issuer: claims.iss,
      subject: 'u1',
      emailVerified: false,
      amr: ['pwd'],
    });
  });

  it('refuses claims without a usable subject', () => {
    expect(() => identityOf({ iss: claims.iss, sub: 'x'.repeat(256) })).toThrow(OidcRefusal);
    expect(() => identityOf({ iss: claims.iss })).toThrow(OidcRefusal);
  });
});
