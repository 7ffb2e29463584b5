import { useState, type FormEvent } from 'react';
import { api } from '../lib/api';
import { errorsFor, type Problem } from '../lib/problem';
import { configRow, initialProxyForm, maskKey, proxyBody, transformCount, type ProxyFormState, type ProxyView } from '../lib/proxies';
import { useCan } from '../lib/session';
import { useAction, useLoad } from '../lib/use-load';
import { usePagedLoad } from '../lib/use-paged-load';
import { go } from '../routes';
import { PagedTable, type Column } from '../components/ResourceTable';
import { DetailHeader, ListHeader, ResourceRoute } from '../components/ResourceList';
import { FieldErrors, FieldWithErrors, Loaded, PageHeader, ProblemView, formatDate } from '../components/ui';

/** Pre-configured proxies (/proxies): list, create (the key shown once), the key on the detail, edit (PUT), delete. */
export function Proxies({ id }: { id?: string }) {
  return <ResourceRoute id={id} list={ProxyList} create={NewProxy} detail={ProxyDetail} />;
}

const PROXY_COLUMNS: Column<ProxyView>[] = [
  { header: 'Name', cell: (p) => <a href={`#/proxies/${p.id}`}>{p.name}</a> },
  { header: 'Destination', cell: (p) => <code>{p.destination_url}</code>, className: 'break' },
  { header: 'Requires an API key', cell: (p) => (p.require_auth ? 'yes' : 'no (anonymous inbound)') },
  { header: 'Transforms', cell: (p) => transformCount(p) },
  { header: 'Created', cell: (p) => formatDate(p.created_at) },
];

function ProxyList() {
  const list = usePagedLoad('/proxies', (page) => ({ page, size: 25 }));
  return (
    <>
      <ListHeader title="Proxies" create={{ permission: 'proxy:create', href: '#/proxies/new', label: 'New proxy' }} />
      <PagedTable
        {...list}
        caption="Proxies"
        columns={PROXY_COLUMNS}
        empty="No proxies yet: a proxy fixes a destination (with transforms and secrets) that your systems, or partners with its key, call through Coffer at /proxy."
        pager={{ hideSinglePage: true }}
      />
    </>
  );
}

function NewProxy() {
  const [created, setCreated] = useState<ProxyView | null>(null);
  if (created)
    return (
      <>
        <PageHeader title={`Proxy “${created.name}” created`} />
        <div className="secret card">
          <p>
            <strong>Copy the proxy&apos;s key now.</strong> It invokes the proxy (the <code>BT-PROXY-KEY</code> header); keys with proxy:read can read it again
            on the proxy&apos;s page.
          </p>
          <input aria-label="New proxy key" readOnly value={created.key} onFocus={(e) => e.target.select()} />
          <div className="actions">
            <CopyButton text={created.key} label="Copy" />
            <button onClick={() => go('proxies', created.id)}>Done</button>
          </div>
        </div>
      </>
    );
  return (
    <>
      <PageHeader title="New proxy">
        <a className="button" href="#/proxies">
          All proxies
        </a>
      </PageHeader>
      <ProxyForm proxy={null} onSaved={setCreated} />
    </>
  );
}

function ProxyDetail({ id }: { id: string }) {
  const [proxy] = useLoad(() => api('GET', '/proxies/{id}', { params: { id } }), [id]);
  return <Loaded load={proxy}>{(p) => <ProxyEditor key={p.id} initial={p} />}</Loaded>;
}

function ProxyEditor({ initial }: { initial: ProxyView }) {
  const can = useCan();
  const [proxy, setProxy] = useState(initial);
  const remover = useAction();
  const remove = async () => {
    if (!window.confirm(`Delete the proxy “${proxy.name}”? Its key stops working at once.`)) return;
    if (await remover.run(() => api('DELETE', '/proxies/{id}', { params: { id: proxy.id } }).then(() => true))) go('proxies');
  };
  return (
    <>
      <DetailHeader
        title={proxy.name}
        back={{ href: '#/proxies', label: 'All proxies' }}
        onDelete={can('proxy:delete') ? remove : undefined}
        busy={remover.busy}
      />
      <ProblemView problem={remover.problem} />
      <p className="muted">
        <code>{proxy.id}</code> · created {formatDate(proxy.created_at)}
        {proxy.modified_at ? ` · modified ${formatDate(proxy.modified_at)}` : ''}
      </p>
      <ProxyKey proxy={proxy} />
      <ProxyForm proxy={proxy} onSaved={setProxy} />
    </>
  );
}

/** The key, masked until revealed (proxy:read may read it: it is the proxy's to give to its callers). */
function ProxyKey({ proxy }: { proxy: ProxyView }) {
  const [revealed, setRevealed] = useState(false);
  return (
    <section className="card secret" aria-labelledby="key-title">
      <h2 id="key-title">Key</h2>
      <input aria-label="Proxy key" readOnly value={revealed ? proxy.key : maskKey(proxy.key)} onFocus={(e) => revealed && e.target.select()} />
      <div className="actions">
        <button aria-pressed={revealed} onClick={() => setRevealed((r) => !r)}>
          {revealed ? 'Hide key' : 'Reveal key'}
        </button>
        <CopyButton text={proxy.key} label="Copy key" />
      </div>
      <p className="hint">
        Call <code>/proxy</code> or <code>/proxy/&lt;path&gt;</code> with this key in the <code>BT-PROXY-KEY</code> header
        {proxy.require_auth
          ? ' and an API key: the request goes to the destination, its expressions detokenized as the caller.'
          : ' alone: anyone holding it may call the proxy without an API key (nothing is detokenized for them).'}
      </p>
    </section>
  );
}

function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = () => {
    const write = navigator.clipboard?.writeText(text) ?? Promise.reject(new Error('no clipboard'));
    write.then(
      () => setState('copied'),
      () => setState('failed'),
    );
  };
  return (
    <>
      <button type="button" onClick={copy}>
        {label}
      </button>
      <span role="status">{state === 'copied' ? 'Copied.' : state === 'failed' ? 'The browser refused the clipboard: select the key and copy it.' : ''}</span>
    </>
  );
}

const TRANSFORMS_HINT =
  'Types: code, tokenize, mask, append_json, append_text, append_header (docs/proxy.md). In append_* values, {{ configuration.NAME }} is the configuration entry.';
const TRANSFORMS_EXAMPLE = '[{"type": "append_header", "options": {"location": "Authorization", "value": "Bearer {{ configuration.API_KEY }}"}}]';

/** As many rows as the text has lines, within [min, 16]. */
const textRows = (text: string, min: number) => Math.min(16, Math.max(min, text.split('\n').length));

/** Create (POST) or edit (PUT: everything but the key is replaced, so the form always sends every member). */
function ProxyForm({ proxy, onSaved }: { proxy: ProxyView | null; onSaved: (p: ProxyView) => void }) {
  const can = useCan();
  const [form, setForm] = useState<ProxyFormState>(() => initialProxyForm(proxy));
  const [showValues, setShowValues] = useState(false);
  const [saved, setSaved] = useState(false);
  const { busy, problem, run } = useAction();
  const writable = proxy ? can('proxy:update') : can('proxy:create');
  const set = <K extends keyof ProxyFormState>(k: K, v: ProxyFormState[K]) => setForm((f) => ({ ...f, [k]: v }));
  const setRow = (id: number, patch: { name?: string; value?: string }) =>
    setForm((f) => ({ ...f, config: f.config.map((r) => (r.id === id ? { ...r, ...patch } : r)) }));
  const errs = (field: string) => errorsFor(problem, field);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const res = await run(() => {
      const body = proxyBody(form);
      return proxy ? api('PUT', '/proxies/{id}', { params: { id: proxy.id }, body }) : api('POST', '/proxies', { body });
    });
    if (!res) return;
    if (proxy) setSaved(true);
    onSaved(res);
  };
  const configErrors = errs('configuration');
  return (
    <form className="card form" onSubmit={(e) => void submit(e)} aria-label="Proxy">
      <FieldWithErrors label="Name" errorsId="proxy-name-errors" errors={errs('name')}>
        {(described) => <input value={form.name} onChange={(e) => set('name', e.target.value)} required maxLength={200} disabled={!writable} {...described} />}
      </FieldWithErrors>
      <FieldWithErrors label="Destination URL (https, a DNS name)" errorsId="proxy-destination-errors" errors={errs('destination_url')}>
        {(described) => (
          <input
            type="url"
            value={form.destinationUrl}
            onChange={(e) => set('destinationUrl', e.target.value)}
            required
            placeholder="https://api.processor.example/v1"
            disabled={!writable}
            spellCheck={false}
            {...described}
          />
        )}
      </FieldWithErrors>
      <label>
        <input type="checkbox" checked={form.requireAuth} onChange={(e) => set('requireAuth', e.target.checked)} disabled={!writable} /> Require an API key
        (unchecked: anyone with the proxy&apos;s key may call it, and nothing they send is detokenized)
      </label>
      <FieldErrors id="proxy-require-auth-errors" messages={errs('require_auth')} />
      <label>
        <input type="checkbox" checked={form.disableDetokenization} onChange={(e) => set('disableDetokenization', e.target.checked)} disabled={!writable} />{' '}
        Disable detokenization (expressions in requests are sent as they are)
      </label>
      <FieldErrors id="proxy-detokenization-errors" messages={errs('disable_detokenization')} />
      <FieldWithErrors
        label="Application id (optional: tokenize transforms create tokens as it, code transforms get it as req.bt)"
        errorsId="proxy-application-errors"
        errors={errs('application')}
      >
        {(described) => (
          <input value={form.applicationId} onChange={(e) => set('applicationId', e.target.value)} disabled={!writable} spellCheck={false} {...described} />
        )}
      </FieldWithErrors>
      <fieldset className="kv" aria-describedby={configErrors.length ? 'proxy-configuration-errors' : undefined}>
        <legend>Configuration (secrets for the transforms, stored encrypted)</legend>
        <ul className="kv-rows">
          {form.config.map((r, i) => (
            <li key={r.id} className="kv-row">
              <input
                aria-label={`Configuration name ${i + 1}`}
                placeholder="API_KEY"
                value={r.name}
                onChange={(e) => setRow(r.id, { name: e.target.value })}
                disabled={!writable}
                spellCheck={false}
              />
              <input
                aria-label={`Configuration value ${i + 1}`}
                type={showValues ? 'text' : 'password'}
                autoComplete="off"
                value={r.value}
                onChange={(e) => setRow(r.id, { value: e.target.value })}
                disabled={!writable}
                spellCheck={false}
              />
              {writable ? (
                <button
                  type="button"
                  className="danger"
                  aria-label={`Remove configuration entry ${i + 1}`}
                  onClick={() => setForm((f) => ({ ...f, config: f.config.filter((x) => x.id !== r.id) }))}
                >
                  Remove
                </button>
              ) : null}
            </li>
          ))}
        </ul>
        <div className="actions">
          {writable ? (
            <button type="button" onClick={() => setForm((f) => ({ ...f, config: [...f.config, configRow()] }))}>
              Add entry
            </button>
          ) : null}
          <label>
            <input type="checkbox" checked={showValues} onChange={(e) => setShowValues(e.target.checked)} /> Show values
          </label>
        </div>
        <FieldErrors id="proxy-configuration-errors" messages={configErrors} />
      </fieldset>
      <TransformsField
        side="request"
        label="Request transforms (a JSON array, run in order on the request)"
        minRows={5}
        placeholder={TRANSFORMS_EXAMPLE}
        value={form.requestTransforms}
        onChange={(text) => set('requestTransforms', text)}
        problem={problem}
        disabled={!writable}
      />
      <TransformsField
        side="response"
        label="Response transforms (a JSON array, run in order on the destination's answer)"
        minRows={3}
        value={form.responseTransforms}
        onChange={(text) => set('responseTransforms', text)}
        problem={problem}
        disabled={!writable}
      />
      <p className="hint">{TRANSFORMS_HINT}</p>
      <ProblemView problem={problem} />
      {writable ? (
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Saving…' : proxy ? 'Save proxy' : 'Create proxy'}
          </button>
          {saved ? <span role="status">Saved.</span> : null}
        </div>
      ) : null}
    </form>
  );
}

/**
 * One side's transforms as JSON text; the API may name their errors by the list (`request_transforms`) or by its
 * single-transform member (`request_transform`).
 */
function TransformsField({
  side,
  label,
  minRows,
  placeholder,
  value,
  onChange,
  problem,
  disabled,
}: {
  side: 'request' | 'response';
  label: string;
  minRows: number;
  placeholder?: string;
  value: string;
  onChange: (text: string) => void;
  problem: Problem | null;
  disabled: boolean;
}) {
  const errors = [...errorsFor(problem, `${side}_transforms`), ...errorsFor(problem, `${side}_transform`)];
  return (
    <FieldWithErrors label={label} errorsId={`proxy-${side}-transforms-errors`} errors={errors}>
      {(described) => (
        <textarea
          rows={textRows(value, minRows)}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          disabled={disabled}
          spellCheck={false}
          placeholder={placeholder}
          {...described}
        />
      )}
    </FieldWithErrors>
  );
}
