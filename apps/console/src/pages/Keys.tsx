import { useEffect, useRef, useState } from 'react';
import { api, type Schema } from '../lib/api';
import { useLoad } from '../lib/use-load';
import { Empty, Loaded, PageHeader, formatDate } from '../components/ui';
import { ResourceTable, type Column } from '../components/ResourceTable';

/** GET /tenants/self/keys: the data key versions, and the re-encryption job while one runs. */
export type TenantKeys = Schema<'TenantKeysView'>;
type KeyVersion = Schema<'TenantKeyVersionView'>;
type KindProgress = Schema<'ReencryptionKindProgressView'>;

/** How often the page asks again while a re-encryption job runs. */
export const KEYS_POLL_MS = 3000;

const KIND_LABELS: Record<string, string> = {
  tokens: 'Tokens',
  token_intents: 'Token intents',
  reactor_configurations: 'Reactor configurations',
  proxy_secrets: 'Proxy keys and configurations',
  job_arguments: 'Asynchronous job arguments',
  job_outcomes: 'Asynchronous job results',
  webhook_bodies: 'Webhook bodies',
  webhook_secrets: 'Webhook secrets',
  idempotency_replies: 'Idempotent replies',
};

const PROVIDERS: Record<string, string> = { env: 'KEY_ENCRYPTION_KEYS (env)', pkcs11: 'HSM (PKCS#11)' };

const number = new Intl.NumberFormat();

function percent(p: KindProgress): number {
  return p.rows_total > 0 ? Math.min(100, Math.floor((p.rows_done * 100) / p.rows_total)) : 100;
}

/** Key status (GET /tenants/self/keys): the data key versions, and a running re-encryption job's progress, polled. */
export function Keys({ pollMs = KEYS_POLL_MS }: { id?: string; pollMs?: number }) {
  const [keys, reload] = useLoad(() => api('GET', '/tenants/self/keys'), []);
  const running = keys.state === 'ready' && keys.data.reencryption !== undefined;
  const wasRunning = useRef(false);
  const [finished, setFinished] = useState(false);

  // while a job runs, ask again every few seconds (each answer schedules the next question)
  useEffect(() => {
    if (!running) return;
    const timer = setTimeout(reload, pollMs);
    return () => clearTimeout(timer);
  }, [keys, running, reload, pollMs]);
  useEffect(() => {
    if (keys.state !== 'ready') return;
    if (wasRunning.current && !running) setFinished(true);
    if (running) setFinished(false);
    wasRunning.current = running;
  }, [keys, running]);

  return (
    <>
      <PageHeader title="Keys">
        <button onClick={reload}>Refresh</button>
      </PageHeader>
      <p className="muted">
        Every value Coffer stores for this tenant is sealed under its active data key; older versions stay readable until a re-encryption moves their values to
        the active one. Rotation and re-encryption are run by the operator (<code>admin keys rotate</code>, <code>admin keys reencrypt</code>). No key material
        is ever shown.
      </p>
      <Loaded load={keys}>
        {(k) => (
          <>
            {k.reencryption ? <Reencryption job={k.reencryption} /> : null}
            {finished ? (
              <p role="status" className="card">
                The re-encryption finished.
              </p>
            ) : null}
            <Versions versions={k.data} />
          </>
        )}
      </Loaded>
    </>
  );
}

function Reencryption({ job }: { job: Schema<'ReencryptionProgressView'> }) {
  return (
    <section className="card" aria-labelledby="reencryption-title">
      <h2 id="reencryption-title">Re-encryption in progress</h2>
      <p className="muted">Started {formatDate(job.started_at)}; values move to the active key version. This page refreshes every few seconds.</p>
      {job.kinds.length ? (
        <ul className="progress-list">
          {job.kinds.map((p) => {
            const id = `reencryption-${p.kind}`;
            return (
              <li key={p.kind}>
                <span id={`${id}-label`}>{KIND_LABELS[p.kind] ?? p.kind}</span>
                <progress
                  id={id}
                  aria-labelledby={`${id}-label`}
                  aria-describedby={`${id}-count`}
                  max={Math.max(p.rows_total, 1)}
                  value={p.rows_total > 0 ? Math.min(p.rows_done, p.rows_total) : 1}
                />
                <span id={`${id}-count`} className="muted">
                  {number.format(p.rows_done)} of {number.format(p.rows_total)} ({percent(p)}%)
                </span>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="muted">The job has not reached this tenant&apos;s values yet.</p>
      )}
    </section>
  );
}

const VERSION_COLUMNS: Column<KeyVersion>[] = [
  { header: 'Version', cell: (v) => v.version, rowHeader: true },
  { header: 'Status', cell: (v) => (v.active ? <span className="badge active">active</span> : <span className="muted">older</span>) },
  { header: 'Key id', cell: (v) => <code>{v.id}</code>, className: 'break' },
  { header: 'Created', cell: (v) => formatDate(v.created_at) },
  { header: 'Wrapped by', cell: (v) => PROVIDERS[v.kek_provider] ?? v.kek_provider },
];

function Versions({ versions }: { versions: KeyVersion[] }) {
  if (!versions.length) return <Empty>No data key yet: the tenant gets its first one with its first stored value.</Empty>;
  const newestFirst = [...versions].sort((a, b) => b.version - a.version);
  return (
    <ResourceTable
      caption="Data key versions"
      showCaption
      columns={VERSION_COLUMNS}
      rows={newestFirst}
      rowProps={(v) => (v.active ? { className: 'active-key', 'aria-current': 'true' } : {})}
    />
  );
}
