import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { Page } from '../lib/api';
import type { Load } from '../lib/use-load';
import { PagedTable, type Column } from './ResourceTable';

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
