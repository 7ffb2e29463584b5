import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { SessionContext, type ConsoleSession } from '../lib/session';
import { Settings } from './Settings';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const OPERATOR = {
  tenant_id: 't',
  application_id: 'a',
  application_type: 'management',
  permissions: ['tenant:read', 'tenant:update'],
} as unknown as ConsoleSession;

const TENANT = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Acme',
  settings: { deduplicate_tokens: false, elements_allowed_origins: ['https://shop.example.com'] },
  created_at: '2026-11-01T00:00:00.000Z',
};

function reply(body: unknown) {
  return Promise.resolve(new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }));
}

describe('the settings page', () => {
  it("shows the sites that may frame the Elements fields, one per line, and saves them as the tenant's list", async () => {
    const fetch = vi.fn((url: string, init?: RequestInit) => reply(init?.method === 'PUT' ? { ...TENANT, ...JSON.parse(String(init.body)) } : TENANT));
    vi.stubGlobal('fetch', fetch);
    render(
      <SessionContext.Provider value={OPERATOR}>
        <Settings />
      </SessionContext.Provider>,
    );
    const origins = (await screen.findByLabelText(/Sites that may show the card fields/)) as HTMLTextAreaElement;
    expect(origins.value).toBe('https://shop.example.com');
    fireEvent.change(origins, { target: { value: 'https://shop.example.com\n https://m.example.com, ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await screen.findByRole('status');
    const put = fetch.mock.calls.find((c) => (c[1] as RequestInit | undefined)?.method === 'PUT');
    expect(JSON.parse(String((put?.[1] as RequestInit).body)).settings).toEqual({
      deduplicate_tokens: false,
      elements_allowed_origins: ['https://shop.example.com', 'https://m.example.com'],
      console_key_sign_in: true,
      console_require_mfa: false,
    });
  });

  it('shows the console sign-in settings (key sign-in allowed and no MFA required when unset) and saves them', async () => {
    const fetch = vi.fn((url: string, init?: RequestInit) => reply(init?.method === 'PUT' ? { ...TENANT, ...JSON.parse(String(init.body)) } : TENANT));
    vi.stubGlobal('fetch', fetch);
    render(
      <SessionContext.Provider value={OPERATOR}>
        <Settings />
      </SessionContext.Provider>,
    );
    const keySignIn = (await screen.findByLabelText(/Allow signing in with a management key \(break-glass\)/)) as HTMLInputElement;
    const mfa = screen.getByLabelText(/Require multi-factor authentication for single sign-on/) as HTMLInputElement;
    expect(keySignIn.checked).toBe(true);
    expect(mfa.checked).toBe(false);
    fireEvent.click(keySignIn);
    fireEvent.click(mfa);
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await screen.findByRole('status');
    const put = fetch.mock.calls.find((c) => (c[1] as RequestInit | undefined)?.method === 'PUT');
    expect(JSON.parse(String((put?.[1] as RequestInit).body)).settings).toMatchObject({ console_key_sign_in: false, console_require_mfa: true });
  });

  it('shows the saved console sign-in settings, read only without tenant:update', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => reply({ ...TENANT, settings: { ...TENANT.settings, console_key_sign_in: false, console_require_mfa: true } })),
    );
    render(
      <SessionContext.Provider value={{ ...OPERATOR, permissions: ['tenant:read'] }}>
        <Settings />
      </SessionContext.Provider>,
    );
    const keySignIn = (await screen.findByLabelText(/Allow signing in with a management key/)) as HTMLInputElement;
    const mfa = screen.getByLabelText(/Require multi-factor authentication/) as HTMLInputElement;
    expect([keySignIn.checked, keySignIn.disabled, mfa.checked, mfa.disabled]).toEqual([false, true, true, true]);
    expect(screen.queryByRole('button', { name: 'Save settings' })).toBeNull();
  });
});
