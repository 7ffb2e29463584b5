import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { SessionContext, type ConsoleSession } from '../lib/session';
import { ResourceList, ResourceRoute } from './ResourceList';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const session = (permissions: string[]): ConsoleSession => ({ tenant_id: 't', application_id: 'a', application_type: 'management', permissions });

function answer(data: unknown[]) {
  const fetch = vi.fn((_url: string) => Promise.resolve(new Response(JSON.stringify({ pagination: { page_size: 100 }, data }), { status: 200 })));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function renderReactorsAs(permissions: string[]) {
  return render(
    <SessionContext.Provider value={session(permissions)}>
      <ResourceList
        path="/reactors"
        title="Reactors"
        create={{ permission: 'reactor:create', href: '#/reactors/new', label: 'New reactor' }}
        empty="No reactors yet."
        card={(r) => <a href={`#/reactors/${r.id}`}>{r.name}</a>}
      />
    </SessionContext.Provider>,
  );
}

describe('ResourceList', () => {
  it('asks for the largest page of the list and shows one card per item under the title', async () => {
    const fetch = answer([
      { id: 'r1', name: 'Charger' },
      { id: 'r2', name: 'Refunder' },
    ]);
    renderReactorsAs(['reactor:read']);
    await screen.findByRole('link', { name: 'Charger' });
    expect(fetch.mock.calls[0][0]).toBe('/reactors?size=100');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Reactors');
    const cards = within(screen.getByRole('list')).getAllByRole('listitem');
    expect(cards.map((c) => c.className)).toEqual(['card', 'card']);
    expect(cards.map((c) => c.textContent)).toEqual(['Charger', 'Refunder']);
    expect(screen.getByRole('link', { name: 'Refunder' }).getAttribute('href')).toBe('#/reactors/r2');
  });

  it('shows the empty text without items', async () => {
    answer([]);
    renderReactorsAs(['reactor:read']);
    await screen.findByText('No reactors yet.');
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('links to the creation form only for a session holding the create permission', async () => {
    answer([]);
    renderReactorsAs(['reactor:read']);
    await screen.findByText('No reactors yet.');
    expect(screen.queryByRole('link', { name: 'New reactor' })).toBeNull();
    cleanup();
    renderReactorsAs(['reactor:read', 'reactor:create']);
    await screen.findByText('No reactors yet.');
    expect(screen.getByRole('link', { name: 'New reactor' }).getAttribute('href')).toBe('#/reactors/new');
  });
});

describe('ResourceRoute', () => {
  const List = () => <p>list</p>;
  const Create = () => <p>create</p>;
  const Detail = ({ id }: { id: string }) => <p>detail {id}</p>;
  const shown = (id?: string) => {
    const { container } = render(<ResourceRoute id={id} list={List} create={Create} detail={Detail} />);
    const text = container.textContent;
    cleanup();
    return text;
  };

  it('shows the list without an id, the creation form for "new", and the resource for any other id', () => {
    expect(shown()).toBe('list');
    expect(shown('new')).toBe('create');
    expect(shown('r1')).toBe('detail r1');
  });
});
