import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { Keys, type TenantKeys } from './Keys';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const V1 = { id: '11111111-1111-4111-8111-111111111111', version: 1, active: false, created_at: '2026-01-01T00:00:00.000Z', kek_provider: 'env' as const };
const V2 = { id: '22222222-2222-4222-8222-222222222222', version: 2, active: true, created_at: '2026-11-26T00:00:00.000Z', kek_provider: 'pkcs11' as const };

function reply(status: number, body: unknown) {
  return Promise.resolve(
    new Response(JSON.stringify(body), { status, headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' } }),
  );
}

describe('the keys page', () => {
  it('lists the versions, newest first, the active one marked; no job, no progress and no polling', async () => {
    const fetch = vi.fn(() => reply(200, { data: [V1, V2] } satisfies TenantKeys));
    vi.stubGlobal('fetch', fetch);
    render(<Keys pollMs={10} />);
    const table = await screen.findByRole('table', { name: 'Data key versions' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['2', '1']);
    expect(rows[0].getAttribute('aria-current')).toBe('true');
    expect(within(rows[0]).getByText('active')).toBeTruthy();
    expect(rows[0].textContent).toContain('HSM (PKCS#11)');
    expect(within(rows[1]).getByText('older')).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
    await new Promise((r) => setTimeout(r, 50));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect((fetch.mock.calls[0] as unknown[])[0]).toBe('/tenants/self/keys');
  });

  it('shows a progress bar per kind while a job runs, polls, and says when it finished', async () => {
    const started_at = '2026-11-26T00:01:00.000Z';
    const running: TenantKeys = {
      data: [V1, V2],
      reencryption: {
        started_at,
        kinds: [
          { kind: 'tokens', rows_total: 1200, rows_done: 450 },
          { kind: 'webhook_secrets', rows_total: 1, rows_done: 1 },
        ],
      },
    };
    const answers = [running, { ...running, reencryption: { started_at, kinds: [{ kind: 'tokens', rows_total: 1200, rows_done: 900 }] } }, { data: [V1, V2] }];
    let n = 0;
    const fetch = vi.fn(() => reply(200, answers[Math.min(n++, answers.length - 1)]));
    vi.stubGlobal('fetch', fetch);
    render(<Keys pollMs={20} />);
    const tokens = (await screen.findByRole('progressbar', { name: 'Tokens' })) as HTMLProgressElement;
    expect(tokens.value).toBe(450);
    expect(tokens.max).toBe(1200);
    expect(screen.getByText(/450 of 1,200 \(37%\)/)).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Webhook secrets' })).toBeTruthy();
    await screen.findByText(/900 of 1,200 \(75%\)/);
    await screen.findByRole('status');
    expect(screen.getByRole('status').textContent).toContain('The re-encryption finished');
    expect(screen.queryByRole('progressbar')).toBeNull();
    await new Promise((r) => setTimeout(r, 60));
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('shows the problem of a refused request', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => reply(403, { title: 'Forbidden', status: 403, detail: 'The API key does not grant access to this operation' })),
    );
    render(<Keys />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Forbidden');
    expect(alert.textContent).toContain('(403)');
  });

  it('shows an empty state when the tenant has no data key', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => reply(200, { data: [] })),
    );
    render(<Keys />);
    await screen.findByText(/No data key yet/);
  });
});
