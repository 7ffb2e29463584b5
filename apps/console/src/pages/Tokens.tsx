import { useState } from 'react';
import { api, query, type Page } from '../lib/api';
import { useLoad } from '../lib/use-load';
import { Empty, Json, Loaded, PageHeader, formatDate } from '../components/ui';

interface Token {
  id: string;
  type: string;
  containers?: string[];
  container?: string;
  data?: unknown;
  created_at: string;
}

/**
 * The tokens this key may read, with exactly the data the API returns to it (its rules' transforms apply); the data
 * stays hidden on screen until the operator shows a row.
 */
export function Tokens() {
  const [page, setPage] = useState(1);
  const [container, setContainer] = useState('');
  const [filter, setFilter] = useState('');
  const [shown, setShown] = useState<Set<string>>(new Set());
  const [tokens] = useLoad(() => api<Page<Token>>('GET', `/tokens${query({ page, size: 25, container: filter })}`), [page, filter]);
  const toggle = (id: string) => setShown((s) => (s.has(id) ? new Set([...s].filter((x) => x !== id)) : new Set([...s, id])));
  return (
    <>
      <PageHeader title="Tokens" />
      <form
        className="card inline"
        onSubmit={(e) => {
          e.preventDefault();
          setPage(1);
          setFilter(container);
        }}
      >
        <label>
          Container
          <input value={container} onChange={(e) => setContainer(e.target.value)} placeholder="/pci/" />
        </label>
        <button type="submit">Filter</button>
      </form>
      <Loaded load={tokens}>
        {(res) =>
          res.data.length ? (
            <>
              <div className="table-wrap">
                <table>
                  <caption className="sr-only">Tokens</caption>
                  <thead>
                    <tr>
                      <th scope="col">Id</th>
                      <th scope="col">Type</th>
                      <th scope="col">Container</th>
                      <th scope="col">Data</th>
                      <th scope="col">Created</th>
                    </tr>
                  </thead>
                  <tbody>
                    {res.data.map((t) => (
                      <tr key={t.id}>
                        <td>
                          <code>{t.id}</code>
                        </td>
                        <td>{t.type}</td>
                        <td>{t.container ?? t.containers?.join(', ')}</td>
                        <td>
                          {t.data === undefined ? (
                            <span className="muted">not visible to this key</span>
                          ) : shown.has(t.id) ? (
                            <Json value={t.data} label={`Data of token ${t.id}`} />
                          ) : (
                            <span aria-label="hidden">••••••</span>
                          )}{' '}
                          {t.data !== undefined ? (
                            <button
                              aria-pressed={shown.has(t.id)}
                              aria-label={`${shown.has(t.id) ? 'Hide' : 'Show'} data of token ${t.id}`}
                              onClick={() => toggle(t.id)}
                            >
                              {shown.has(t.id) ? 'Hide' : 'Show'}
                            </button>
                          ) : null}
                        </td>
                        <td>{formatDate(t.created_at)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <div className="pager">
                <button disabled={page <= 1} onClick={() => setPage(page - 1)}>
                  Previous
                </button>
                <span>Page {page}</span>
                <button disabled={page >= (res.pagination.total_pages ?? 1)} onClick={() => setPage(page + 1)}>
                  Next
                </button>
              </div>
            </>
          ) : (
            <Empty>No tokens this key may read.</Empty>
          )
        }
      </Loaded>
    </>
  );
}
