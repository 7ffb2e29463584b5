import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { Page } from '../lib/api';
import type { Load } from '../lib/use-load';
import { PagedTable, ResourceTable, type Column } from './ResourceTable';

afterEach(cleanup);

interface Row {
  id: string;
  name: string;
}
const COLUMNS: Column<Row>[] = [
  { header: 'Name', cell: (r) => r.name },
  { header: 'Id', cell: (r) => <code>{r.id}</code>, className: 'break' },
];
const ready = (data: Row[], total_pages?: number): Load<Page<Row>> => ({ state: 'ready', data: { pagination: { page_size: 25, total_pages }, data } });

describe('PagedTable', () => {
  it('shows a captioned table, one row per item, and a pager up to total_pages', () => {
    const setPage = vi.fn();
    render(<PagedTable load={ready([{ id: 'r1', name: 'One' }], 3)} caption="Things" columns={COLUMNS} empty="None." page={1} setPage={setPage} />);
    expect(screen.getByRole('table', { name: 'Things' })).toBeTruthy();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Id']);
    expect(screen.getByRole('cell', { name: 'r1' }).className).toBe('break');
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(setPage).toHaveBeenCalledWith(2);
  });

  it('shows `empty` without items, and no pager on a single page when asked', () => {
    render(<PagedTable load={ready([])} caption="Things" columns={COLUMNS} empty="None." page={1} setPage={() => undefined} />);
    expect(screen.getByText('None.')).toBeTruthy();
    cleanup();
    render(
      <PagedTable
        load={ready([{ id: 'r1', name: 'One' }], 1)}
        caption="Things"
        columns={COLUMNS}
        empty="None."
        page={1}
        setPage={() => undefined}
        pager={{ hideSinglePage: true }}
      />,
    );
    expect(screen.queryByRole('button', { name: 'Next' })).toBeNull();
  });

  it('takes its last page and what follows "Page n" from the options', () => {
    render(
      <PagedTable
        load={ready([{ id: 'r1', name: 'One' }])}
        caption="Things"
        columns={COLUMNS}
        empty="None."
        page={2}
        setPage={() => undefined}
        pager={{ last: () => false, of: () => ' of many' }}
      />,
    );
    expect(screen.getByText('Page 2 of many')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(false);
  });
});

describe('ResourceTable', () => {
  it('shows its caption when asked, names each row by its row-header column, and adds what rowProps gives a row', () => {
    render(
      <ResourceTable
        caption="Things"
        showCaption
        columns={[{ header: 'Name', cell: (r: Row) => r.name, rowHeader: true }, ...COLUMNS.slice(1)]}
        rows={[
          { id: 'r1', name: 'One' },
          { id: 'r2', name: 'Two' },
        ]}
        rowProps={(r) => (r.id === 'r2' ? { className: 'active-key', 'aria-current': 'true' } : {})}
      />,
    );
    const table = screen.getByRole('table', { name: 'Things' });
    expect(table.querySelector('caption')?.className).toBe('table-title');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['One', 'Two']);
    expect(rows[1].getAttribute('aria-current')).toBe('true');
    expect(rows[1].className).toBe('active-key');
    expect(rows[0].getAttribute('aria-current')).toBeNull();
  });
});
