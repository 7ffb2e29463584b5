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
    });
  });
});
