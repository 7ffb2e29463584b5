import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Tokens } from './Tokens';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const token = (id: string, container: string) => ({
  id,
  type: 'token',
  data: 'x',
  containers: [container],
  metadata: {},
  created_at: '2026-11-28T00:00:00.000Z',
});

function reply(body: unknown) {
  return Promise.resolve(new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }));
}

describe('the tokens page', () => {
  it('lists by cursor: Next asks with the page’s next, Previous goes back, and the container filter reaches the API', async () => {
    // two pages: the first says where the second starts, the second is the last (no next)
    const fetch = vi.fn((url: string) =>
      reply(
        new URL(url, 'http://console').searchParams.get('start') === 'cursor-2'
          ? { pagination: { page_size: 25 }, data: [token('t2', '/general/')] }
          : { pagination: { page_size: 25, next: 'cursor-2' }, data: [token('t1', '/pci/')] },
      ),
    );
    vi.stubGlobal('fetch', fetch);
    render(<Tokens />);
    const rowsText = async () =>
      within(await screen.findByRole('table', { name: 'Tokens' }))
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.textContent ?? '');
    await waitFor(async () => expect((await rowsText())[0]).toContain('t1'));
    expect(String(fetch.mock.calls[0][0])).toMatch(/^\/v2\/tokens\?size=25$/);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(async () => expect((await rowsText())[0]).toContain('t2'));
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(async () => expect((await rowsText())[0]).toContain('t1'));
    expect(String(fetch.mock.calls.at(-1)?.[0])).toBe('/v2/tokens?size=25');
    fireEvent.change(screen.getByLabelText('Container'), { target: { value: '/general/' } });
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(String(fetch.mock.calls.at(-1)?.[0])).toBe('/v2/tokens?size=25&container=%2Fgeneral%2F'));
  });
});
