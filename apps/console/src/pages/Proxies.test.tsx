import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { SessionContext, type ConsoleSession } from '../lib/session';
import { Proxies } from './Proxies';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const session = (permissions: string[]): ConsoleSession => ({ tenant_id: 't', application_id: 'a', application_type: 'management', permissions });

const PROXY = {
  id: 'p1',
  key: '5fb69e3b7de82496bc5eadf8151d955f',
  name: 'Processor',
  destination_url: 'https://api.processor.example/v1',
  request_transforms: [],
  response_transforms: [],
  configuration: { API_KEY: 'sk_live_1' },
  require_auth: true,
  disable_detokenization: false,
  state: 'active',
  created_at: '2026-11-26T00:00:00Z',
};

function reply(status: number, body: unknown) {
  return Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
}

function renderAs(permissions: string[], id?: string) {
  return render(
    <SessionContext.Provider value={session(permissions)}>
      <Proxies id={id} />
    </SessionContext.Provider>,
  );
}

describe('the proxies page', () => {
  it('lists proxies; without proxy:create there is no "New proxy"', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => reply(200, { pagination: { page_size: 25, total_pages: 1 }, data: [PROXY] })),
    );
    renderAs(['proxy:read']);
    await screen.findByRole('link', { name: 'Processor' });
    expect(screen.getByRole('table').textContent).toContain('https://api.processor.example/v1');
    expect(screen.queryByRole('link', { name: 'New proxy' })).toBeNull();
  });

  it('shows an empty state', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => reply(200, { pagination: { page_size: 25 }, data: [] })),
    );
    renderAs(['proxy:read', 'proxy:create']);
    await screen.findByText(/No proxies yet/);
    expect(screen.getByRole('link', { name: 'New proxy' })).toBeTruthy();
  });

  it('shows the key masked until revealed; a read-only key gets no save or delete', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => reply(200, PROXY)),
    );
    renderAs(['proxy:read'], 'p1');
    const key = (await screen.findByLabelText('Proxy key')) as HTMLInputElement;
    expect(key.value).not.toContain('5fb69e3b');
    expect(key.value.endsWith('955f')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Reveal key' }));
    expect(key.value).toBe(PROXY.key);
    expect(screen.getByRole('button', { name: 'Hide key' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.queryByRole('button', { name: 'Save proxy' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    expect((screen.getByLabelText(/^Name/) as HTMLInputElement).disabled).toBe(true);
  });

  it('shows the 400 errors of the API by field, and refuses transforms that are no JSON array without sending', async () => {
    const fetch = vi.fn(() =>
      reply(400, { title: 'Bad Request', status: 400, detail: 'The request is invalid', errors: { destination_url: ['must use https'] } }),
    );
    vi.stubGlobal('fetch', fetch);
    renderAs(['proxy:read', 'proxy:create'], 'new');
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'p' } });
    fireEvent.change(screen.getByLabelText(/^Destination URL/), { target: { value: 'http://x' } });
    fireEvent.change(screen.getByLabelText(/^Request transforms/), { target: { value: '{"type":"code"}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create proxy' }));
    await screen.findByText(/must be a JSON array/, { selector: '.field-errors li' });
    expect(fetch).not.toHaveBeenCalled();
    expect(screen.getByLabelText(/^Request transforms/).getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(screen.getByLabelText(/^Request transforms/), { target: { value: '[]' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create proxy' }));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    const url = screen.getByLabelText(/^Destination URL/);
    await waitFor(() => expect(url.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(url.getAttribute('aria-describedby') ?? '')?.textContent).toBe('must use https');
    expect(screen.getByRole('alert').textContent).toContain('destination_url: must use https');
  });
});
