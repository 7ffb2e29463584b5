import { useState, type FormEvent } from 'react';
import { api, type Schema } from '../lib/api';
import { download, toCsv } from '../lib/csv';
import { useLoad } from '../lib/use-load';
import { usePagedLoad } from '../lib/use-paged-load';
import { PageHeader, formatDate } from '../components/ui';
import { PagedTable, type Column } from '../components/ResourceTable';

/** An event of the audit log (GET /logs). */
export type LogEvent = Schema<'AuditEventView'>;
export type ActorType = NonNullable<LogEvent['actor_type']>;

/** Who acts in the audit log: a person signed in to the console is a `user`, named by their email (actor_name). */
export const ACTOR_TYPES: { value: ActorType; label: string }[] = [
  { value: 'application', label: 'Application (API key)' },
  { value: 'user', label: 'Person (console)' },
  { value: 'session', label: 'Session' },
  { value: 'operator', label: 'Operator' },
  { value: 'system', label: 'Coffer (system)' },
  { value: 'anonymous', label: 'Anonymous' },
];
interface Filters {
  actor_type: string;
  actor_id: string;
  entity_type: string;
  entity_id: string;
  start_date: string;
  end_date: string;
}
const COLUMNS = [
  'created_at',
  'operation',
  'entity_type',
  'entity_id',
  'message',
  'actor_type',
  'actor_id',
  'actor_name',
  'actor_application_id',
  'trace_id',
  'id',
];

/** The actor as the table shows it: a person by email, an application by id, anyone else by name or id. */
export function actorLabel(e: LogEvent): string {
  if (e.actor_type === 'user') return e.actor_name ?? e.actor_id ?? 'a person';
  if (e.actor_type === 'application' || (!e.actor_type && e.actor_application_id)) return `application ${e.actor_id ?? e.actor_application_id}`;
  if (!e.actor_type) return '';
  return e.actor_name ? `${e.actor_type} ${e.actor_name}` : `${e.actor_type}${e.actor_id ? ` ${e.actor_id}` : ''}`;
}

const LOG_COLUMNS: Column<LogEvent>[] = [
  { header: 'When', cell: (e) => formatDate(e.created_at) },
  { header: 'Operation', cell: (e) => e.operation },
  {
    header: 'Entity',
    cell: (e) => (
      <>
        {e.entity_type} <code>{e.entity_id}</code>
      </>
    ),
  },
  { header: 'Actor', cell: (e) => <span title={e.actor_id}>{actorLabel(e)}</span> },
  { header: 'Message', cell: (e) => e.message },
];
const EMPTY: Filters = { actor_type: '', actor_id: '', entity_type: '', entity_id: '', start_date: '', end_date: '' };
const iso = (local: string) => (local ? new Date(local).toISOString() : '');

export function Logs() {
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [types] = useLoad(() => api('GET', '/logs/entity-types'), []);
  const params = { ...filters, start_date: iso(filters.start_date), end_date: iso(filters.end_date) };
  const list = usePagedLoad('/logs', (page) => ({ ...params, page, size: 50 }), [JSON.stringify(filters)]);
  const apply = (e: FormEvent) => {
    e.preventDefault();
    list.setPage(1);
    setFilters(draft);
  };
  const exportCsv = async () => {
    // every page of the current filters, not only the one shown
    const rows: LogEvent[] = [];
    for (let p = 1; p <= 200; p++) {
      const res = await api('GET', '/logs', { query: { ...params, page: p, size: 100 } });
      rows.push(...res.data);
      if (res.data.length < 100) break;
    }
    download(`coffer-logs-${new Date().toISOString().slice(0, 19)}.csv`, toCsv(COLUMNS, rows as unknown as Record<string, unknown>[]));
  };
  const set = (k: keyof Filters) => (e: { target: { value: string } }) => setDraft({ ...draft, [k]: e.target.value });
  return (
    <>
      <PageHeader title="Logs">
        <button onClick={() => void exportCsv()}>Export CSV</button>
      </PageHeader>
      <form className="filters card" onSubmit={apply} aria-label="Log filters">
        <label>
          Entity type
          <select value={draft.entity_type} onChange={set('entity_type')}>
            <option value="">Any</option>
            {types.state === 'ready'
              ? types.data.map((t) => (
                  <option key={t.value} value={t.value}>
                    {t.display_name}
                  </option>
                ))
              : null}
          </select>
        </label>
        <label>
          Entity id
          <input value={draft.entity_id} onChange={set('entity_id')} />
        </label>
        <label>
          Actor type
          <select value={draft.actor_type} onChange={set('actor_type')}>
            <option value="">Any</option>
            {ACTOR_TYPES.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Actor id
          <input value={draft.actor_id} onChange={set('actor_id')} />
        </label>
        <label>
          From
          <input type="datetime-local" value={draft.start_date} onChange={set('start_date')} />
        </label>
        <label>
          To
          <input type="datetime-local" value={draft.end_date} onChange={set('end_date')} />
        </label>
        <button type="submit" className="primary">
          Apply filters
        </button>
      </form>
      <PagedTable
        {...list}
        caption="Audit log"
        columns={LOG_COLUMNS}
        empty="No events match these filters."
        pager={{
          last: (res) => (res.pagination.total_pages !== undefined ? list.page >= res.pagination.total_pages : res.data.length < 50),
          of: (res) => (res.pagination.total_pages ? ` of ${res.pagination.total_pages}` : ''),
        }}
      />
    </>
  );
}
