import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Logs, actorLabel, type LogEvent } from './Logs';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const BASE = { tenant_id: 't', message: 'Member updated', operation: 'update', entity_type: 'member', entity_id: 'm1', created_at: '2026-11-28T00:00:00.000Z' };
const BY_PERSON: LogEvent = { ...BASE, id: 'e1', actor_type: 'user', actor_id: '22222222-2222-4222-8222-222222222222', actor_name: 'ada@example.com' };
const BY_KEY: LogEvent = { ...BASE, id: 'e2', actor_type: 'application', actor_id: 'a1', actor_application_id: 'a1' };

function reply(body: unknown) {
  return Promise.resolve(new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }));
}

describe('the logs page', () => {
  it('names a person by their email in the Actor column, and filters by actor type (user for people)', async () => {
    const fetch = vi.fn((url: string) =>
      reply(
        url === '/logs/entity-types'
          ? [{ value: 'member', display_name: 'Member' }]
          : { pagination: { page_size: 50, total_pages: 1 }, data: [BY_PERSON, BY_KEY] },
      ),
    );
    vi.stubGlobal('fetch', fetch);
    render(<Logs />);
    const table = await screen.findByRole('table', { name: 'Audit log' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0].textContent).toContain('ada@example.com');
    expect(rows[1].textContent).toContain('application a1');
    const type = screen.getByLabelText('Actor type') as HTMLSelectElement;
    expect([...type.options].map((o) => o.value)).toContain('user');
    fireEvent.change(type, { target: { value: 'user' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(fetch.mock.calls.map((c) => String(c[0])).some((u) => u.startsWith('/logs?') && u.includes('actor_type=user'))).toBe(true));
  });

  it('labels every kind of actor', () => {
    expect(actorLabel(BY_PERSON)).toBe('ada@example.com');
    expect(actorLabel({ ...BY_PERSON, actor_name: undefined })).toBe(BY_PERSON.actor_id);
    expect(actorLabel(BY_KEY)).toBe('application a1');
    expect(actorLabel({ ...BASE, id: 'e3', actor_application_id: 'a2' })).toBe('application a2');
    expect(actorLabel({ ...BASE, id: 'e4', actor_type: 'operator', actor_id: 'root', actor_name: 'root' })).toBe('operator root');
    expect(actorLabel({ ...BASE, id: 'e5', actor_type: 'anonymous', actor_id: '203.0.113.9' })).toBe('anonymous 203.0.113.9');
    expect(actorLabel({ ...BASE, id: 'e6' })).toBe('');
  });
});
