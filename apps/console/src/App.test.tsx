import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from './App';
import type { ConsoleSession } from './lib/session';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.location.hash = '';
});

const TENANT = '11111111-1111-4111-8111-111111111111';
const PERSON: ConsoleSession = {
  tenant_id: TENANT,
  application_id: 'user:22222222',
  application_type: 'management',
  permissions: ['tenant:read'],
  user: { id: '22222222-2222-4222-8222-222222222222', email: 'ada@example.com', role: 'ADMIN', member_id: '33333333-3333-4333-8333-333333333333' },
};
const KEY: ConsoleSession = {
  tenant_id: TENANT,
  application_id: '44444444-4444-4444-8444-444444444444',
  application_type: 'management',
  permissions: ['tenant:read'],
};

function reply(status: number, body?: unknown) {
  return Promise.resolve(new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
}

/** The gateway: the session given, the sign-in options without single sign-on, an empty page for any list. */
function gateway(session: ConsoleSession) {
  let signedIn = true;
  return vi.fn((url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    if (url.startsWith('/console/session') && method === 'DELETE') {
      signedIn = false;
      return reply(204);
    }
    if (url === '/console/session') return signedIn ? reply(200, session) : reply(401, { title: 'Unauthorized', status: 401 });
    if (url === '/console/sign-in-options') return reply(200, { sso: null });
    return reply(200, { pagination: { page_size: 1, total_items: 0 }, data: [] });
  });
}

describe('the top bar', () => {
  it('names a person by email, role and tenant, and signs them out of every browser with Sign out everywhere', async () => {
    const fetch = gateway(PERSON);
    vi.stubGlobal('fetch', fetch);
    render(<App />);
    expect((await screen.findByText(/ada@example.com/)).textContent).toBe('ada@example.com · ADMIN · tenant 11111111');
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    await screen.findByLabelText('Management key');
    const signOut = fetch.mock.calls.find((c) => (c[1] as RequestInit | undefined)?.method === 'DELETE');
    expect(signOut?.[0]).toBe('/console/session?everywhere=true');
  });

  it('names a key by its type and tenant; Sign out ends this session only, and there is no Sign out everywhere', async () => {
    const fetch = gateway(KEY);
    vi.stubGlobal('fetch', fetch);
    render(<App />);
    expect((await screen.findByText(/management key/)).textContent).toBe('management key · tenant 11111111');
    expect(screen.queryByRole('button', { name: 'Sign out everywhere' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(fetch.mock.calls.some((c) => (c[1] as RequestInit | undefined)?.method === 'DELETE')).toBe(true));
    const signOut = fetch.mock.calls.find((c) => (c[1] as RequestInit | undefined)?.method === 'DELETE');
    expect(signOut?.[0]).toBe('/console/session');
    await screen.findByLabelText('Management key');
  });
});
