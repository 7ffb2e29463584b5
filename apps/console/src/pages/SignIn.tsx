import { useState, type FormEvent } from 'react';
import { api } from '../lib/api';
import type { ConsoleSession } from '../lib/session';
import { useAction } from '../lib/use-load';
import { ProblemView } from '../components/ui';
import { ThemeToggle } from '../components/theme';

/** The key goes to the gateway once and is forgotten here: the session is an HttpOnly cookie from then on. */
export function SignIn({ onSignedIn }: { onSignedIn: (s: ConsoleSession) => void }) {
  const [key, setKey] = useState('');
  const { busy, problem, run } = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const session = await run(() => api<ConsoleSession>('POST', '/console/session', { api_key: key }));
    setKey('');
    if (session) onSignedIn(session);
  };
  return (
    <main className="signin" id="main">
      <h1>Coffer console</h1>
      <form onSubmit={(e) => void submit(e)} className="card">
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
      <ThemeToggle />
    </main>
  );
}
