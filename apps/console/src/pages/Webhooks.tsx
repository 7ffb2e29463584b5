import { useState, type FormEvent } from 'react';
import { api, type Schema } from '../lib/api';
import { useCan } from '../lib/session';
import { useAction, useLoad } from '../lib/use-load';
import { go } from '../routes';
import { Empty, Loaded, ProblemView, SaveControls, formatDate } from '../components/ui';
import { DetailHeader, ResourceList, ResourceRoute } from '../components/ResourceList';
import { ResourceTable, type Column } from '../components/ResourceTable';

export type Webhook = Schema<'WebhookView'>;
type Delivery = Schema<'WebhookDeliveryView'>;

/** Event subscriptions (the webhooks API): list, create, edit, enable or disable, delete, and the deliveries. */
export function Webhooks({ id }: { id?: string }) {
  return <ResourceRoute id={id} list={WebhookList} create={NewWebhook} detail={WebhookDetail} />;
}

function WebhookList() {
  return (
    <ResourceList
      path="/webhooks"
      title="Webhooks"
      create={{ permission: 'webhook:create', href: '#/webhooks/new', label: 'New webhook' }}
      empty="No webhooks yet: a webhook receives the tenant's events (token.created, application.updated, …), signed."
      card={(w) => (
        <>
          <a href={`#/webhooks/${w.id}`}>{w.name}</a> <span className="badge">{w.status}</span>
          <span className="muted"> {w.url}</span>
          <span className="muted"> · {w.events.length} event types</span>
        </>
      )}
    />
  );
}

function NewWebhook() {
  return <WebhookForm webhook={null} />;
}

function WebhookDetail({ id }: { id: string }) {
  const [hook] = useLoad(() => api('GET', '/webhooks/{id}', { params: { id } }), [id]);
  return (
    <Loaded load={hook}>
      {(w) => (
        <>
          <WebhookForm webhook={w} />
          <Deliveries webhook={w} />
        </>
      )}
    </Loaded>
  );
}

function WebhookForm({ webhook }: { webhook: Webhook | null }) {
  const can = useCan();
  const [types] = useLoad(() => api('GET', '/webhooks/event-types'), []);
  const [name, setName] = useState(webhook?.name ?? '');
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [email, setEmail] = useState(webhook?.notify_email ?? '');
  const [events, setEvents] = useState<string[]>(webhook?.events ?? []);
  const [enabled, setEnabled] = useState((webhook?.status ?? 'enabled') === 'enabled');
  const [saved, setSaved] = useState(false);
  const { busy, problem, run } = useAction();
  const remover = useAction();
  const writable = webhook ? can('webhook:update') : can('webhook:create');
  const toggle = (type: string, on: boolean) => setEvents((list) => (on ? [...list, type] : list.filter((t) => t !== type)));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const body = { name, url, events, ...(email ? { notify_email: email } : {}) };
    const res = webhook
      ? await run(() => api('PUT', '/webhooks/{id}', { params: { id: webhook.id }, body: { ...body, status: enabled ? 'enabled' : 'disabled' } }))
      : await run(() => api('POST', '/webhooks', { body }));
    if (!res) return;
    if (webhook) setSaved(true);
    else go('webhooks', res.id);
  };
  const remove = async () => {
    if (!webhook || !window.confirm(`Delete the webhook “${webhook.name}”? Its pending deliveries are dropped.`)) return;
    if (await remover.run(() => api('DELETE', '/webhooks/{id}', { params: { id: webhook.id } }).then(() => true))) go('webhooks');
  };
  return (
    <>
      <DetailHeader
        title={webhook ? webhook.name : 'New webhook'}
        back={{ href: '#/webhooks', label: 'All webhooks' }}
        onDelete={webhook && can('webhook:delete') ? remove : undefined}
      />
      <ProblemView problem={remover.problem} />
      <form className="card form" onSubmit={(e) => void submit(e)} aria-label="Webhook">
        {webhook ? (
          <p className="muted">
            <code>{webhook.id}</code> · created {formatDate(webhook.created_at)}
          </p>
        ) : null}
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} required disabled={!writable} />
        </label>
        <label>
          Receiver URL (HTTPS)
          <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} required disabled={!writable} />
        </label>
        <label>
          Notify email (told when the webhook is disabled after failing)
          <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} disabled={!writable} />
        </label>
        {webhook ? (
          <label>
            <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} disabled={!writable} /> Enabled
          </label>
        ) : null}
        <fieldset>
          <legend>Events</legend>
          <Loaded load={types}>
            {(list) => (
              <div className="checks">
                {list.map((t) => (
                  <label key={t}>
                    <input type="checkbox" checked={events.includes(t)} onChange={(e) => toggle(t, e.target.checked)} disabled={!writable} /> {t}
                  </label>
                ))}
              </div>
            )}
          </Loaded>
        </fieldset>
        <SaveControls problem={problem} busy={busy} writable={writable} saved={saved} label={webhook ? 'Save webhook' : 'Create webhook'} />
      </form>
    </>
  );
}

function Deliveries({ webhook }: { webhook: Webhook }) {
  const can = useCan();
  const [status, setStatus] = useState('');
  const [deliveries, reload] = useLoad(
    () => api('GET', '/webhooks/{id}/deliveries', { params: { id: webhook.id }, query: { status: status || undefined, size: 50 } }),
    [webhook.id, status],
  );
  const { problem, run } = useAction();
  const [resent, setResent] = useState<string | null>(null);
  const resend = async (d: Delivery) => {
    setResent(null);
    if (await run(() => api('POST', '/webhooks/{id}/deliveries/{deliveryId}/resend', { params: { id: webhook.id, deliveryId: d.id } }))) {
      setResent(d.id);
      reload();
    }
  };
  const columns: Column<Delivery>[] = [
    { header: 'Created', cell: (d) => formatDate(d.created_at) },
    { header: 'Event', cell: (d) => d.event_type ?? '—' },
    { header: 'Status', cell: (d) => d.status },
    { header: 'Attempts', cell: (d) => d.attempts },
    { header: 'Last answer', cell: (d) => (d.last_status_code !== undefined ? `${d.last_status_code} in ${d.last_duration_ms ?? '?'} ms` : '') },
    { header: 'Last error', cell: (d) => d.last_error ?? '' },
    {
      header: 'Actions',
      cell: (d) =>
        can('webhook:update') && d.status !== 'pending' ? (
          <button onClick={() => void resend(d)} aria-label={`Send again: delivery ${d.id}`}>
            Send again
          </button>
        ) : null,
    },
  ];
  return (
    <section className="card" aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Deliveries</h2>
      <label>
        Status
        <select value={status} onChange={(e) => setStatus(e.target.value)}>
          <option value="">any</option>
          <option value="pending">pending</option>
          <option value="delivered">delivered</option>
          <option value="failed">failed</option>
        </select>
      </label>
      <ProblemView problem={problem} />
      {resent ? <p role="status">Delivery {resent} queued again.</p> : null}
      <Loaded load={deliveries}>
        {(res) =>
          res.data.length ? (
            <ResourceTable caption="Deliveries" columns={columns} rows={res.data} />
          ) : (
            <Empty>No deliveries{status ? ` with status ${status}` : ''} yet.</Empty>
          )
        }
      </Loaded>
    </section>
  );
}
