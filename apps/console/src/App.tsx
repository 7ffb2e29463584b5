import { lazy, Suspense, useCallback, useEffect, useState, type ComponentType } from 'react';
import { request, setUnauthorizedHandler } from './lib/api';
import { SessionContext, SessionRefreshContext, heldPermissions, type ConsoleSession } from './lib/session';
import { ApiError } from './lib/problem';
import { PAGES, useRoute } from './routes';
import { Loading } from './components/ui';
import { ThemeToggle } from './components/theme';
import { SignIn } from './pages/SignIn';
import { Overview } from './pages/Overview';

// pages load on first visit: the sign-in and overview pages carry no editor code
const PAGE_COMPONENTS: Record<string, ComponentType<{ id?: string }>> = {
  overview: Overview,
  applications: lazy(() => import('./pages/Applications').then((m) => ({ default: m.Applications }))),
  formulas: lazy(() => import('./pages/Formulas').then((m) => ({ default: m.Formulas }))),
  reactors: lazy(() => import('./pages/Reactors').then((m) => ({ default: m.Reactors }))),
  results: lazy(() => import('./pages/Results').then((m) => ({ default: m.Results }))),
  tokens: lazy(() => import('./pages/Tokens').then((m) => ({ default: m.Tokens }))),
  logs: lazy(() => import('./pages/Logs').then((m) => ({ default: m.Logs }))),
  webhooks: lazy(() => import('./pages/Webhooks').then((m) => ({ default: m.Webhooks }))),
  proxies: lazy(() => import('./pages/Proxies').then((m) => ({ default: m.Proxies }))),
  members: lazy(() => import('./pages/Members').then((m) => ({ default: m.Members }))),
  keys: lazy(() => import('./pages/Keys').then((m) => ({ default: m.Keys }))),
  settings: lazy(() => import('./pages/Settings').then((m) => ({ default: m.Settings }))),
};

export function App() {
  const [session, setSession] = useState<ConsoleSession | null | undefined>(undefined);
  const [menuOpen, setMenuOpen] = useState(false);
  const route = useRoute();

  const check = useCallback(() => {
    request<ConsoleSession>('GET', '/console/session').then(setSession, (err: unknown) => {
      if (err instanceof ApiError && err.problem.status === 401) setSession(null);
      else setSession(null);
    });
  }, []);
  useEffect(() => {
    setUnauthorizedHandler(() => setSession(null));
    check();
  }, [check]);
  useEffect(() => setMenuOpen(false), [route.page]);

  if (session === undefined) return <Loading label="Opening the console…" />;
  if (session === null) return <SignIn onSignedIn={setSession} />;

  const held = heldPermissions(session);
  const visible = PAGES.filter((p) => p.anyOf.length === 0 || p.anyOf.some((perm) => held.has(perm)));
  const current = visible.find((p) => p.path === route.page) ?? visible[0];
  const Page = PAGE_COMPONENTS[current.path];

  // everywhere: every console session of the person, in every browser
  const signOut = async (everywhere = false) => {
    await request('DELETE', `/console/session${everywhere ? '?everywhere=true' : ''}`).catch(() => undefined);
    setSession(null);
    window.location.hash = '';
  };

  return (
    <SessionContext.Provider value={session}>
      <SessionRefreshContext.Provider value={check}>
        <a className="skip" href="#main">
          Skip to content
        </a>
        <div className="shell">
          <header className="topbar">
            <button className="menu-button" aria-expanded={menuOpen} aria-controls="nav" onClick={() => setMenuOpen((o) => !o)}>
              Menu
            </button>
            <span className="brand">Coffer console</span>
            {session.user ? (
              <span className="who" title={session.user.id}>
                {session.user.email} · {session.user.role} · tenant {session.tenant_id.slice(0, 8)}
              </span>
            ) : (
              <span className="who" title={session.application_id}>
                {session.application_type} key · tenant {session.tenant_id.slice(0, 8)}
              </span>
            )}
            {session.user && (session.tenants?.length ?? 0) > 1 ? <TenantSwitch current={session.tenant_id} tenants={session.tenants ?? []} /> : null}
            <ThemeToggle />
            <button onClick={() => void signOut()}>Sign out</button>
            {session.user ? <button onClick={() => void signOut(true)}>Sign out everywhere</button> : null}
          </header>
          <nav id="nav" aria-label="Console" className={menuOpen ? 'open' : ''}>
            <ul>
              {visible.map((p) => (
                <li key={p.path}>
                  <a href={`#/${p.path}`} aria-current={p.path === current.path ? 'page' : undefined}>
                    {p.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <main id="main" tabIndex={-1}>
            <Suspense fallback={<Loading />}>
              <Page key={current.path} id={current.path === route.page ? route.id : undefined} />
            </Suspense>
          </main>
        </div>
      </SessionRefreshContext.Provider>
    </SessionContext.Provider>
  );
}

/** A person in several tenants signs in to another one through single sign-on again (GET /console/oidc/start?tenant_id=). */
function TenantSwitch({ current, tenants }: { current: string; tenants: NonNullable<ConsoleSession['tenants']> }) {
  return (
    <label className="tenant-switch">
      <span className="sr-only">Tenant</span>
      <select
        value={current}
        onChange={(e) => {
          if (e.target.value !== current) window.location.assign(`/console/oidc/start?tenant_id=${encodeURIComponent(e.target.value)}`);
        }}
      >
        {tenants.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name} ({t.role})
          </option>
        ))}
      </select>
    </label>
  );
}
