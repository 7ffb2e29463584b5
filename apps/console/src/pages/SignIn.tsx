import { useEffect, useState, type FormEvent } from 'react';
import { request } from '../lib/api';
import type { ConsoleSession } from '../lib/session';
import { useAction, useLoad } from '../lib/use-load';
import { Loading, ProblemView } from '../components/ui';
import { ThemeToggle } from '../components/theme';

/** GET /console/sign-in-options: the identity provider people sign in with, when the gateway has one (OIDC_ISSUER). */
export interface SignInOptions {
  sso: { name: string; start: string } | null;
}

/** The query parameter the gateway's single sign-on callback names a refusal with (/console/?sign_in_error=…). */
export const SIGN_IN_ERROR = 'sign_in_error';

function signInError(): string | null {
  return new URLSearchParams(window.location.search).get(SIGN_IN_ERROR);
}

/** The location without `sign_in_error` (the rest of its query and its hash kept), so a reload does not show it again. */
function dropSignInError(): void {
  const url = new URL(window.location.href);
  if (!url.searchParams.has(SIGN_IN_ERROR)) return;
  url.searchParams.delete(SIGN_IN_ERROR);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

/**
 * People sign in through single sign-on (a full-page navigation to the gateway, which comes back signed in); a management
 * key is the break-glass path, the only one when the gateway has no identity provider. The key goes to the gateway once
 * and is forgotten here: the session is an HttpOnly cookie from then on.
 */
export function SignIn({
  onSignedIn,
  navigate = (url) => window.location.assign(url),
}: {
  onSignedIn: (s: ConsoleSession) => void;
  /** leaves the page for the identity provider (tests pass a spy) */
  navigate?: (url: string) => void;
}) {
  // read once, then removed from the location: the message stays on the page until the next sign-in
  const [ssoError] = useState(signInError);
  useEffect(dropSignInError, []);
  // without the options (an older gateway, a network failure) the key form is still there
  const [options] = useLoad(() => request<SignInOptions>('GET', '/console/sign-in-options').catch((): SignInOptions => ({ sso: null })), []);
  return (
    <main className="signin" id="main">
      <h1>Coffer console</h1>
      {ssoError ? <ProblemView problem={{ title: 'You are not signed in', status: 0, detail: ssoError }} /> : null}
      {options.state === 'ready' ? (
        options.data.sso ? (
          <div className="card">
            <button type="button" className="primary" onClick={() => navigate(options.data.sso?.start ?? '/console/oidc/start')}>
              Sign in with {options.data.sso.name}
            </button>
            <details className="break-glass">
              <summary>Sign in with a management key instead</summary>
              <KeyForm onSignedIn={onSignedIn} />
            </details>
          </div>
        ) : (
          <div className="card">
            <KeyForm onSignedIn={onSignedIn} />
          </div>
        )
      ) : (
        <Loading label="Loading the sign-in options…" />
      )}
      <ThemeToggle />
    </main>
  );
}

/** POST /console/session {api_key}; a tenant that turned key sign-in off answers 403, shown as the problem it is. */
function KeyForm({ onSignedIn }: { onSignedIn: (s: ConsoleSession) => void }) {
  const [key, setKey] = useState('');
  const { busy, problem, run } = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const session = await run(() => request<ConsoleSession>('POST', '/console/session', { api_key: key }));
    setKey('');
    if (session) onSignedIn(session);
  };
  return (
    <form className="form" onSubmit={(e) => void submit(e)}>
      <label htmlFor="api-key">Management key</label>
      <input id="api-key" type="password" autoComplete="off" spellCheck={false} value={key} onChange={(e) => setKey(e.target.value)} required />
      <p className="hint">
        The key of a management application (or a private one, for its tokens). It is exchanged for a session that ends after a period without use.
      </p>
      <ProblemView problem={problem} />
      <button type="submit" className="primary" disabled={busy || !key}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
