import type { HTMLAttributes, ReactNode } from 'react';
import type { Page } from '../lib/api';
import type { Load } from '../lib/use-load';
import { Empty, Loaded } from './ui';

/** A column of a ResourceTable: its header, and what a row shows in it. */
export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  className?: string;
  /** the cell names its row (a row header, `<th scope="row">`) */
  rowHeader?: boolean;
}

/**
 * A list's table: a caption (visually hidden unless `showCaption`), one header per column, one row per item (keyed by
 * its id; `rowProps` adds a row's attributes, such as its class or aria-current).
 */
export function ResourceTable<T extends { id: string }>({
  caption,
  columns,
  rows,
  showCaption = false,
  rowProps,
}: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  showCaption?: boolean;
  rowProps?: (row: T) => HTMLAttributes<HTMLTableRowElement>;
}) {
  return (
    <div className="table-wrap">
      <table>
        <caption className={showCaption ? 'table-title' : 'sr-only'}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col">
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} {...rowProps?.(row)}>
              {columns.map((c) =>
                c.rowHeader ? (
                  <th key={c.header} scope="row" className={c.className}>
                    {c.cell(row)}
                  </th>
                ) : (
                  <td key={c.header} className={c.className}>
                    {c.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Previous, "Page n" (and what `of` adds), Next; `last`: there is no next page. */
export function Pager({ page, setPage, last, of }: { page: number; setPage: (page: number) => void; last: boolean; of?: string }) {
  return (
    <div className="pager">
      <button disabled={page <= 1} onClick={() => setPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page}
        {of}
      </span>
      <button disabled={last} onClick={() => setPage(page + 1)}>
        Next
      </button>
    </div>
  );
}

/** What the pager of a PagedTable shows: by default always, Next up to `total_pages` (1 when absent). */
export interface PagerOptions<T> {
  /** no pager when there is only one page */
  hideSinglePage?: boolean;
  /** there is no next page (default: `page >= (total_pages ?? 1)`) */
  last?: (res: Page<T>) => boolean;
  /** shown after "Page n" */
  of?: (res: Page<T>) => string;
}

/** A loaded list page: its ResourceTable and Pager, or `empty` when it has no items. */
export function PagedTable<T extends { id: string }>({
  load,
  caption,
  columns,
  empty,
  page,
  setPage,
  pager = {},
}: {
  load: Load<Page<T>>;
  caption: string;
  columns: Column<T>[];
  empty: ReactNode;
  page: number;
  setPage: (page: number) => void;
  pager?: PagerOptions<T>;
}) {
  return (
    <Loaded load={load}>
      {(res) =>
        res.data.length ? (
          <>
            <ResourceTable caption={caption} columns={columns} rows={res.data} />
            {pager.hideSinglePage && (res.pagination.total_pages ?? 1) <= 1 ? null : (
              <Pager page={page} setPage={setPage} last={pager.last ? pager.last(res) : page >= (res.pagination.total_pages ?? 1)} of={pager.of?.(res)} />
            )}
          </>
        ) : (
          <Empty>{empty}</Empty>
        )
      }
    </Loaded>
  );
}
