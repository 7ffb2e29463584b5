// The test OpenID provider (test-provider.mjs, ES module) for CommonJS tests (Jest): started as a child process,
// driven through its control routes. ES module tests may import test-provider.mjs itself.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';

/** The script: `node <TEST_PROVIDER_SCRIPT>` with COFFER_TEST_OIDC set to the options as JSON. */
export const TEST_PROVIDER_SCRIPT = path.join(__dirname, 'test-provider.mjs');

export interface TestOidcClient {
  client_id: string;
  /** unset: a public client (token_endpoint_auth_method none, PKCE only) */
  client_secret?: string;
  redirect_uris: string[];
  token_endpoint_auth_method?: 'client_secret_basic' | 'client_secret_post' | 'none';
}

export interface TestOidcAccount {
  sub: string;
  email?: string;
  /** a boolean, or a string as some providers send ("true") */
  email_verified?: boolean | string;
  given_name?: string;
  family_name?: string;
  name?: string;
  picture?: string;
  /** the ID token's amr (RFC 8176: pwd, otp, mfa, hwk …) when this account signs in */
  amr?: string[];
  acr?: string;
}

/** How the ID token the token endpoint returns is spoiled (re-signed after the change): see test-provider.mjs. */
export type TestOidcTamper = 'signature' | 'unknown-key' | 'audience' | 'issuer' | 'expired' | 'issued-at' | 'nonce';

export interface TestProviderOptions {
  clients: TestOidcClient[];
  accounts: TestOidcAccount[];
  tamper?: TestOidcTamper | null;
  /** 'all' (default): the email and profile claims in the ID token; 'conform': in UserInfo only */
  idTokenClaims?: 'all' | 'conform';
  /** the token endpoint's client authentication methods (default client_secret_basic, client_secret_post, none) */
  clientAuthMethods?: ('client_secret_basic' | 'client_secret_post' | 'none')[];
  /** the port on 127.0.0.1 (default: a free one) */
  port?: number;
}

/** The login that makes the provider answer error=access_denied. */
export const DENY_LOGIN = '!deny';

export interface TestProvider {
  issuer: string;
  control: string;
  /** spoil the ID tokens from now on (null: stop) */
  setTamper(tamper: TestOidcTamper | null): Promise<void>;
  /** the account (sub or email, or DENY_LOGIN) the next sign-in without login_hint signs in as */
  nextLogin(login: string): Promise<void>;
  /** follows an authorization URL as a browser would; the redirect back to the client (code, state, iss) */
  signIn(authorizationUrl: string): Promise<URL>;
  /** the authorization requests' parameters, oldest first */
  authorizations(): Promise<Record<string, string>[]>;
  stop(): Promise<void>;
}

async function call<T>(url: string, body?: unknown): Promise<T> {
  const response = await fetch(url, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  const json = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new Error(`test provider: ${url}: ${response.status} ${json.error ?? ''}`);
  return json;
}

/** Starts the provider in a child process (stopped by stop(), or when this process's end of its stdin closes). */
export async function startTestProvider(options: TestProviderOptions, { timeoutMs = 15_000 } = {}): Promise<TestProvider> {
  const child: ChildProcessByStdio<Writable, Readable, null> = spawn(process.execPath, [TEST_PROVIDER_SCRIPT], {
    env: { ...process.env, COFFER_TEST_OIDC: JSON.stringify(options) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const { issuer, control } = await new Promise<{ issuer: string; control: string }>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`the test provider did not start within ${timeoutMs} ms: ${out}`)), timeoutMs);
    function fail(err: Error) {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(err);
    }
    const early = (code: number | null) => fail(new Error(`the test provider exited (${code}) before it started: ${out}`));
    child.once('error', fail);
    child.once('exit', early);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const line = out.split('\n').find((l) => l.startsWith('{"issuer"'));
      if (!line) return;
      clearTimeout(timer);
      child.removeListener('exit', early);
      child.removeListener('error', fail);
      resolve(JSON.parse(line) as { issuer: string; control: string });
    });
  });
  child.stdout.resume();
  return {
    issuer,
    control,
    setTamper: async (tamper) => void (await call(`${control}/tamper`, { tamper })),
    nextLogin: async (login) => void (await call(`${control}/next-login`, { login })),
    signIn: async (authorizationUrl) => new URL((await call<{ callback: string }>(`${control}/sign-in`, { url: authorizationUrl })).callback),
    authorizations: () => call<Record<string, string>[]>(`${control}/authorizations`),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
