import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ConsoleSession } from '../lib/session';
import { SignIn } from './SignIn';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

const SESSION: ConsoleSession = { tenant_id: 't', application_id: 'a', application_type: 'management', permissions: [] };

function reply(status: number, body: unknown) {
  return Promise.resolve(
    new Response(JSON.stringify(body), { status, headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' } }),
  );
}

/** The gateway's sign-in options, and what POST /console/session answers. */
function gateway(sso: { name: string; start: string } | null, signIn: () => Promise<Response> = () => reply(201, SESSION)) {
  return vi.fn((url: string, init?: RequestInit) =>
    url === '/console/sign-in-options' ? reply(200, { sso }) : init?.method === 'POST' ? signIn() : reply(404, {}),
  );
}

describe('the sign-in page', () => {
  it('with single sign-on: the button leaves for the start of the sign-in, the key form is the one under “instead”', async () => {
    vi.stubGlobal('fetch', gateway({ name: 'Okta', start: '/console/oidc/start' }));
    const navigate = vi.fn();
    const { container } = render(<SignIn onSignedIn={vi.fn()} navigate={navigate} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in with Okta' }));
    expect(navigate).toHaveBeenCalledWith('/console/oidc/start');
    const details = container.querySelector('details');
    expect(details?.querySelector('summary')?.textContent).toBe('Sign in with a management key instead');
    expect(details?.contains(screen.getByLabelText('Management key'))).toBe(true);
    expect(details?.open).toBe(false);
  });

  it('without single sign-on: the key form alone, which signs in', async () => {
    const fetch = gateway(null);
    vi.stubGlobal('fetch', fetch);
    const onSignedIn = vi.fn();
    const { container } = render(<SignIn onSignedIn={onSignedIn} />);
    const key = await screen.findByLabelText('Management key');
    expect(container.querySelector('details')).toBeNull();
    expect(screen.queryByRole('button', { name: /Sign in with/ })).toBeNull();
    fireEvent.change(key, { target: { value: 'key_123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await vi.waitFor(() => expect(onSignedIn).toHaveBeenCalledWith(SESSION));
    const post = fetch.mock.calls.find((c) => (c[1] as RequestInit | undefined)?.method === 'POST');
    expect(post?.[0]).toBe('/console/session');
    expect(JSON.parse(String((post?.[1] as RequestInit).body))).toEqual({ api_key: 'key_123' });
  });

  it('falls back to the key form when the sign-in options cannot be read', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => reply(404, { title: 'Not Found', status: 404 })),
    );
    render(<SignIn onSignedIn={vi.fn()} />);
    expect(await screen.findByLabelText('Management key')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("shows the tenant's refusal of key sign-in (403) as its problem", async () => {
    vi.stubGlobal(
      'fetch',
      gateway({ name: 'Okta', start: '/console/oidc/start' }, () =>
        reply(403, { title: 'Forbidden', status: 403, detail: 'This tenant does not allow signing in with a management key' }),
      ),
    );
    render(<SignIn onSignedIn={vi.fn()} />);
    fireEvent.change(await screen.findByLabelText('Management key'), { target: { value: 'key_123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('(403)');
    expect(alert.textContent).toContain('This tenant does not allow signing in with a management key');
  });

  it('shows the refusal the single sign-on callback named (sign_in_error), then removes it from the address', async () => {
    window.history.replaceState(null, '', '/console/?sign_in_error=You%20are%20not%20a%20member%20of%20this%20tenant&x=1#/members');
    vi.stubGlobal('fetch', gateway({ name: 'Okta', start: '/console/oidc/start' }));
    render(<SignIn onSignedIn={vi.fn()} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('You are not a member of this tenant');
    expect(window.location.pathname).toBe('/console/');
    expect(window.location.search).toBe('?x=1');
    expect(window.location.hash).toBe('#/members');
    await screen.findByRole('button', { name: 'Sign in with Okta' });
    expect(screen.getByRole('alert').textContent).toContain('You are not a member of this tenant');
  });
});
