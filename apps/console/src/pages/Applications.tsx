import { useReducer, useState, type FormEvent } from 'react';
import { api, type Schema } from '../lib/api';
import { grantsBody, grantsReducer, initialGrants } from '../lib/rules';
import { useCan } from '../lib/session';
import { useAction, useLoad } from '../lib/use-load';
import { usePagedLoad } from '../lib/use-paged-load';
import { go } from '../routes';
import { Loaded, LoadedList, PageHeader, ProblemView, SaveControls, formatDate } from '../components/ui';
import { GrantsEditor } from '../components/GrantsEditor';
import { AccessPreview } from '../components/AccessPreview';
import { PagedTable, type Column } from '../components/ResourceTable';
import { DetailHeader, ListHeader, ResourceRoute } from '../components/ResourceList';

type Application = Schema<'ApplicationView'>;

export function Applications({ id }: { id?: string }) {
  return <ResourceRoute id={id} list={ApplicationList} create={ApplicationForm} detail={ApplicationDetail} />;
}

const APPLICATION_COLUMNS: Column<Application>[] = [
  { header: 'Name', cell: (a) => <a href={`#/applications/${a.id}`}>{a.name}</a> },
  { header: 'Type', cell: (a) => a.type },
  { header: 'Access', cell: (a) => (a.rules?.length ? `${a.rules.length} rule(s)` : (a.permissions ?? []).join(', ') || 'none') },
  { header: 'Created', cell: (a) => formatDate(a.created_at) },
];

function ApplicationList() {
  const list = usePagedLoad('/applications', (page) => ({ page, size: 25 }));
  return (
    <>
      <ListHeader title="Applications" create={{ permission: 'application:create', href: '#/applications/new', label: 'New application' }} />
      <PagedTable {...list} caption="Applications" columns={APPLICATION_COLUMNS} empty="No applications yet." />
    </>
  );
}

/** A new key's secret, shown once: the API never shows it again. */
function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <div className="secret card" role="status">
      <p>
        <strong>Copy this key now: it is not shown again.</strong>
      </p>
      <input aria-label="New key" readOnly value={secret} onFocus={(e) => e.target.select()} />
      <button onClick={() => void navigator.clipboard?.writeText(secret)}>Copy</button>
      <button onClick={onDone}>Done</button>
    </div>
  );
}

function ApplicationForm() {
  const [name, setName] = useState('');
  const [type, setType] = useState<Application['type']>('private');
  const [grants, dispatch] = useReducer(grantsReducer, undefined, () => initialGrants());
  const [created, setCreated] = useState<Application | null>(null);
  const { busy, problem, run } = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = type === 'management' ? { name, type, permissions: grants.permissions } : { name, type, ...grantsBody(grants) };
    const app = await run(() => api('POST', '/applications', { body }));
    if (app) setCreated(app);
  };
  if (created)
    return (
      <>
        <PageHeader title={`Application “${created.name}” created`} />
        {created.key ? <SecretOnce secret={created.key} onDone={() => go('applications', created.id)} /> : null}
      </>
    );
  return (
    <>
      <PageHeader title="New application" />
      <form className="card form" onSubmit={(e) => void submit(e)}>
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
        </label>
        <label>
          Type
          <select value={type} onChange={(e) => setType(e.target.value as Application['type'])}>
            <option value="private">private (servers: tokens)</option>
            <option value="public">public (browsers: create tokens, sessions)</option>
            <option value="management">management (this console, automation)</option>
          </select>
        </label>
        <GrantsEditor type={type} state={grants} dispatch={dispatch} />
        <ProblemView problem={problem} />
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Creating…' : 'Create application'}
          </button>
          <a className="button" href="#/applications">
            Cancel
          </a>
        </div>
      </form>
    </>
  );
}

function ApplicationDetail({ id }: { id: string }) {
  const [app, reload] = useLoad(() => api('GET', '/applications/{id}', { params: { id } }), [id]);
  return <Loaded load={app}>{(a) => <ApplicationEditor key={a.id + (a.rules?.length ?? 0)} app={a} reload={reload} />}</Loaded>;
}

function ApplicationEditor({ app, reload }: { app: Application; reload: () => void }) {
  const can = useCan();
  const [name, setName] = useState(app.name);
  const [grants, dispatch] = useReducer(grantsReducer, app, initialGrants);
  const [version, setVersion] = useState(0);
  const [secret, setSecret] = useState<string | null>(null);
  const save = useAction();
  const danger = useAction();
  const writable = can('application:update');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const updated = await save.run(() => api('PUT', '/applications/{id}', { params: { id: app.id }, body: { name, ...grantsBody(grants) } }));
    if (updated) setVersion((v) => v + 1);
  };
  const remove = async () => {
    if (!window.confirm(`Delete “${app.name}”? Its keys stop working at once.`)) return;
    const ok = await danger.run(() => api('DELETE', '/applications/{id}', { params: { id: app.id } }).then(() => true));
    if (ok) go('applications');
  };
  const regenerate = async () => {
    if (!window.confirm('Regenerate the key? Every existing key of this application stops working.')) return;
    const res = await danger.run(() => api('POST', '/applications/{id}/regenerate', { params: { id: app.id } }));
    if (res?.key) setSecret(res.key);
  };
  return (
    <>
      <DetailHeader title={app.name} back={{ href: '#/applications', label: 'All applications' }} onDelete={can('application:delete') ? remove : undefined}>
        {writable ? <button onClick={() => void regenerate()}>Regenerate key</button> : null}
      </DetailHeader>
      <p className="muted">
        {app.type} application · <code>{app.id}</code> · created {formatDate(app.created_at)}
      </p>
      <ProblemView problem={danger.problem} />
      {secret ? <SecretOnce secret={secret} onDone={() => setSecret(null)} /> : null}
      <form className="card form" onSubmit={(e) => void submit(e)}>
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} disabled={!writable} />
        </label>
        <GrantsEditor type={app.type} state={grants} dispatch={dispatch} />
        <SaveControls problem={save.problem} busy={save.busy} writable={writable} saved={version > 0 && !save.busy && !save.problem} label="Save" />
      </form>
      {app.type !== 'management' ? <AccessPreview applicationId={app.id} version={version} /> : null}
      <Keys applicationId={app.id} writable={writable} onChange={reload} />
    </>
  );
}

function Keys({ applicationId, writable }: { applicationId: string; writable: boolean; onChange: () => void }) {
  const [keys, reload] = useLoad(() => api('GET', '/applications/{id}/keys', { params: { id: applicationId } }), [applicationId]);
  const [secret, setSecret] = useState<string | null>(null);
  const { busy, problem, run } = useAction();
  const create = async () => {
    const key = await run(() => api('POST', '/applications/{id}/keys', { params: { id: applicationId } }));
    if (key?.key) setSecret(key.key);
    reload();
  };
  const revoke = async (keyId: string) => {
    if (!window.confirm('Revoke this key? Calls with it fail at once.')) return;
    await run(() => api('DELETE', '/applications/{id}/keys/{keyId}', { params: { id: applicationId, keyId } }));
    reload();
  };
  return (
    <section aria-labelledby="keys-title" className="card">
      <div className="page-header">
        <h2 id="keys-title">Keys</h2>
        {writable ? (
          <button onClick={() => void create()} disabled={busy}>
            Create key
          </button>
        ) : null}
      </div>
      {secret ? <SecretOnce secret={secret} onDone={() => setSecret(null)} /> : null}
      <ProblemView problem={problem} />
      <LoadedList
        load={keys}
        className="keys"
        empty="No keys: create one to call the API as this application."
        item={(k) => (
          <>
            <code>{k.id}</code> <span className="muted">created {formatDate(k.created_at)}</span>{' '}
            {writable ? (
              <button className="danger" aria-label={`Revoke key ${k.id}`} onClick={() => void revoke(k.id)}>
                Revoke
              </button>
            ) : null}
          </>
        )}
      />
    </section>
  );
}
