import { useState, type FormEvent } from 'react';
import { api, type Schema } from '../lib/api';
import { useCan } from '../lib/session';
import { useAction, useLoad } from '../lib/use-load';
import { Loaded, PageHeader, ProblemView, SaveControls, formatDate } from '../components/ui';

/** The tenant; in its settings, console_key_sign_in absent: allowed, console_require_mfa absent: not required. */
type Tenant = Schema<'TenantView'>;

export function Settings() {
  const [tenant] = useLoad(() => api('GET', '/tenants/self'), []);
  return (
    <>
      <PageHeader title="Settings" />
      <Loaded load={tenant}>{(t) => <TenantForm tenant={t} />}</Loaded>
      <WebhookSecret />
    </>
  );
}

function TenantForm({ tenant }: { tenant: Tenant }) {
  const can = useCan();
  const [name, setName] = useState(tenant.name);
  const [dedupe, setDedupe] = useState(tenant.settings.deduplicate_tokens);
  // one origin per line here; the API takes the list (empty: any site may frame the Elements fields)
  const [origins, setOrigins] = useState((tenant.settings.elements_allowed_origins ?? []).join('\n'));
  const [keySignIn, setKeySignIn] = useState(tenant.settings.console_key_sign_in ?? true);
  const [requireMfa, setRequireMfa] = useState(tenant.settings.console_require_mfa ?? false);
  const [saved, setSaved] = useState(false);
  const { busy, problem, run } = useAction();
  const writable = can('tenant:update');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const elements_allowed_origins = origins
      .split(/[\s,]+/)
      .map((o) => o.trim())
      .filter(Boolean);
    if (
      await run(() =>
        api('PUT', '/tenants/self', {
          body: {
            name,
            settings: { deduplicate_tokens: dedupe, elements_allowed_origins, console_key_sign_in: keySignIn, console_require_mfa: requireMfa },
          },
        }),
      )
    )
      setSaved(true);
  };
  return (
    <form className="card form" onSubmit={(e) => void submit(e)} aria-labelledby="tenant-title">
      <h2 id="tenant-title">Tenant</h2>
      <p className="muted">
        <code>{tenant.id}</code> · created {formatDate(tenant.created_at)}
      </p>
      <label>
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} required disabled={!writable} />
      </label>
      <label>
        <input type="checkbox" checked={dedupe} onChange={(e) => setDedupe(e.target.checked)} disabled={!writable} /> Deduplicate tokens (the same data in the
        same container gives back the existing token)
      </label>
      <label>
        Sites that may show the card fields (Elements), one origin per line
        <textarea
          value={origins}
          onChange={(e) => setOrigins(e.target.value)}
          rows={3}
          placeholder="https://shop.example.com (empty: any site)"
          disabled={!writable}
        />
      </label>
      <label>
        <input type="checkbox" checked={keySignIn} onChange={(e) => setKeySignIn(e.target.checked)} disabled={!writable} /> Allow signing in with a management
        key (break-glass)
      </label>
      <label>
        <input type="checkbox" checked={requireMfa} onChange={(e) => setRequireMfa(e.target.checked)} disabled={!writable} /> Require multi-factor
        authentication for single sign-on
      </label>
      <SaveControls problem={problem} busy={busy} writable={writable} saved={saved} label="Save settings" />
    </form>
  );
}

/** The secret webhook deliveries are signed with: hidden until asked for, rotated on demand. */
function WebhookSecret() {
  const can = useCan();
  const [secret, setSecret] = useState<string | null>(null);
  const { busy, problem, run } = useAction();
  const reveal = async () => {
    const res = await run(() => api('GET', '/tenants/self/webhook-secret'));
    if (res) setSecret(res.secret);
  };
  const rotate = async () => {
    if (!window.confirm('Rotate the webhook secret? Receivers must switch to the new one.')) return;
    const res = await run(() => api('POST', '/tenants/self/webhook-secret/rotate'));
    if (res) setSecret(res.secret);
  };
  return (
    <section className="card" aria-labelledby="secret-title">
      <h2 id="secret-title">Webhook signing secret</h2>
      {secret ? <input aria-label="Webhook secret" readOnly value={secret} onFocus={(e) => e.target.select()} /> : <p className="muted">Hidden.</p>}
      <div className="actions">
        {secret ? <button onClick={() => setSecret(null)}>Hide</button> : <button onClick={() => void reveal()}>Show secret</button>}
        {can('tenant:update') ? (
          <button className="danger" onClick={() => void rotate()} disabled={busy}>
            Rotate secret
          </button>
        ) : null}
      </div>
      <ProblemView problem={problem} />
    </section>
  );
}
