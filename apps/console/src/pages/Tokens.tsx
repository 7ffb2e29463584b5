import { useState } from 'react';
import { useCursorPagedLoad } from '../lib/use-paged-load';
import { Json, PageHeader, formatDate } from '../components/ui';
import { PagedTable } from '../components/ResourceTable';

/**
 * The tokens this key may read, with exactly the data the API returns to it (its rules' transforms apply); the data
 * stays hidden on screen until the operator shows a row. Listed by `/v2/tokens`, the list that filters by container.
 */
export function Tokens() {
  const [container, setContainer] = useState('');
  const [filter, setFilter] = useState('');
  const [shown, setShown] = useState<Set<string>>(new Set());
  const list = useCursorPagedLoad('/v2/tokens', () => ({ size: 25, container: filter }), [filter]);
  const toggle = (id: string) => setShown((s) => (s.has(id) ? new Set([...s].filter((x) => x !== id)) : new Set([...s, id])));
  return (
    <>
      <PageHeader title="Tokens" />
      <form
        className="card inline"
        onSubmit={(e) => {
          e.preventDefault();
          list.setPage(1);
          setFilter(container);
        }}
      >
        <label>
          Container
          <input value={container} onChange={(e) => setContainer(e.target.value)} placeholder="/pci/" aria-describedby="container-hint" />
        </label>
        <span id="container-hint" className="muted">
          exact, or a prefix ending in * (/pci/*)
        </span>
        <button type="submit">Filter</button>
      </form>
      <PagedTable
        {...list}
        caption="Tokens"
        columns={[
          { header: 'Id', cell: (t) => <code>{t.id}</code> },
          { header: 'Type', cell: (t) => t.type },
          { header: 'Container', cell: (t) => t.containers.join(', ') },
          {
            header: 'Data',
            cell: (t) => (
              <>
                {t.data === undefined ? (
                  <span className="muted">not visible to this key</span>
                ) : shown.has(t.id) ? (
                  <Json value={t.data} label={`Data of token ${t.id}`} />
                ) : (
                  <span aria-label="hidden">••••••</span>
                )}{' '}
                {t.data !== undefined ? (
                  <button aria-pressed={shown.has(t.id)} aria-label={`${shown.has(t.id) ? 'Hide' : 'Show'} data of token ${t.id}`} onClick={() => toggle(t.id)}>
                    {shown.has(t.id) ? 'Hide' : 'Show'}
                  </button>
                ) : null}
              </>
            ),
          },
          { header: 'Created', cell: (t) => formatDate(t.created_at) },
        ]}
        pager={{ last: (res) => !res.pagination.next }}
        empty={filter ? `No tokens this key may read in ${filter}.` : 'No tokens this key may read.'}
      />
    </>
  );
}
