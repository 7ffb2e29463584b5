import { api } from '../lib/api';
import { useCan } from '../lib/session';
import { useLoad } from '../lib/use-load';
import { Empty, Loaded, LoadedList, PageHeader, formatDate } from '../components/ui';

const COUNTS = [
  { label: 'Applications', path: '/applications', permission: 'application:read', page: 'applications' },
  { label: 'Reactors', path: '/reactors', permission: 'reactor:read', page: 'reactors' },
  { label: 'Formulas', path: '/reactor-formulas', permission: 'reactor:read', page: 'formulas' },
  { label: 'Tokens', path: '/tokens', permission: 'token:read', page: 'tokens' },
] as const;

export function Overview() {
  const can = useCan();
  const shown = COUNTS.filter((c) => can(c.permission));
  const [counts] = useLoad(
    () => Promise.all(shown.map((c) => api('GET', c.path, { query: { size: 1 } }).then((p) => p.pagination.total_items ?? p.data.length))),
    [],
  );
  const [recent] = useLoad(() => (can('log:read') ? api('GET', '/logs', { query: { size: 10 } }).then((p) => p.data) : Promise.resolve([])), []);
  return (
    <>
      <PageHeader title="Overview" />
      {shown.length ? (
        <Loaded load={counts}>
          {(values) => (
            <ul className="stats" aria-label="Counts">
              {shown.map((c, i) => (
                <li key={c.label} className="card">
                  <a href={`#/${c.page}`}>
                    <span className="stat">{values[i]}</span>
                    <span>{c.label}</span>
                  </a>
                </li>
              ))}
            </ul>
          )}
        </Loaded>
      ) : (
        <Empty>This key can read no applications, reactors or tokens.</Empty>
      )}
      {can('log:read') ? (
        <section aria-labelledby="recent">
          <h2 id="recent">Recent activity</h2>
          <LoadedList
            load={recent}
            className="activity"
            empty="Nothing happened in this tenant yet."
            item={(e) => (
              <>
                <time dateTime={e.created_at}>{formatDate(e.created_at)}</time> <span className="badge">{e.operation}</span> {e.message}
              </>
            )}
          />
        </section>
      ) : null}
    </>
  );
}
