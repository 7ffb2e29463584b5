import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { SessionContext, SessionRefreshContext, type ConsoleSession, type MemberRole } from '../lib/session';
import { Members, type Invitation, type Member } from './Members';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const TENANT = '11111111-1111-4111-8111-111111111111';
const member = (n: number, email: string, role: MemberRole, names: { first_name?: string; last_name?: string } = {}): Member => ({
  id: `${n}0000000-0000-4000-8000-000000000000`,
  tenant_id: TENANT,
  role,
  user: { id: `${n}1111111-0000-4000-8000-000000000000`, email, ...names },
  created_at: '2026-11-01T00:00:00.000Z',
});
const OWNER = member(1, 'olive@example.com', 'OWNER', { first_name: 'Olive', last_name: 'Owens' });
const ADA = member(2, 'ada@example.com', 'ADMIN', { first_name: 'Ada' });
const DEV = member(3, 'dev@example.com', 'DEVELOPER');
const PENDING: Invitation = {
  id: '40000000-0000-4000-8000-000000000000',
  tenant_id: TENANT,
  email: 'new@example.com',
  role: 'DEVELOPER',
  status: 'PENDING',
  expires_at: '2026-12-01T00:00:00.000Z',
  created_at: '2026-11-28T00:00:00.000Z',
};

const ALL = [
  'tenant:read',
  'tenant:update',
  'tenant:member:read',
  'tenant:member:update',
  'tenant:member:delete',
  'tenant:invitation:read',
  'tenant:invitation:create',
  'tenant:invitation:update',
  'tenant:invitation:delete',
];
function person(who: Member, permissions = ALL): ConsoleSession {
  return {
    tenant_id: TENANT,
    application_id: 'user',
    application_type: 'management',
    permissions,
    user: { id: who.user.id, email: who.user.email, role: who.role, member_id: who.id },
  };
}

function reply(status: number, body?: unknown) {
  return Promise.resolve(
    new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' },
    }),
  );
}
const page = <T,>(data: T[]) => ({ pagination: { page_size: 25, page_number: 1, total_items: data.length, total_pages: 1 }, data });

/** The gateway's member routes: the lists given, and `answer` for any change (201 for a new invitation, 204 for a removal). */
function gateway(answer?: (method: string, url: string, body: unknown) => Promise<Response> | undefined) {
  return vi.fn((url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    const own = answer?.(method, url, body);
    if (own) return own;
    if (method === 'GET' && url.startsWith('/tenants/self/members')) return reply(200, page([OWNER, ADA, DEV]));
    if (method === 'GET' && url.startsWith('/tenants/self/invitations')) return reply(200, page([PENDING]));
    if (method === 'GET' && url === '/roles')
      return reply(200, [
        { name: 'OWNER', description: 'Everything, and the tenant itself', permissions: ['tenant:update'] },
        { name: 'READ_ONLY', description: 'Reads the configuration', permissions: ['tenant:read'] },
      ]);
    if (method === 'POST' && url === '/tenants/self/invitations') return reply(201, { ...PENDING, ...(body as object) });
    if (method === 'DELETE') return reply(204);
    return reply(200, {});
  });
}
const calls = (fetch: ReturnType<typeof gateway>, method: string) =>
  fetch.mock.calls
    .filter((c) => ((c[1] as RequestInit | undefined)?.method ?? 'GET') === method)
    .map((c) => ({ url: c[0], body: (c[1] as RequestInit).body ? JSON.parse(String((c[1] as RequestInit).body)) : undefined }));

function renderAs(session: ConsoleSession, refresh = vi.fn()) {
  render(
    <SessionContext.Provider value={session}>
      <SessionRefreshContext.Provider value={refresh}>
        <Members />
      </SessionRefreshContext.Provider>
    </SessionContext.Provider>,
  );
  return refresh;
}
const rowOf = (table: HTMLElement, email: string) =>
  within(table)
    .getAllByRole('row')
    .find((r) => r.textContent?.includes(email)) as HTMLElement;

describe('the members page', () => {
  it('lists the members (email, name, role, joined); the owner row shows OWNER with no role select and no Remove', async () => {
    vi.stubGlobal('fetch', gateway());
    renderAs(person(ADA));
    const table = await screen.findByRole('table', { name: 'Members' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Email', 'Name', 'Role', 'Joined', 'Actions']);
    const owner = rowOf(table, 'olive@example.com');
    expect(owner.textContent).toContain('Olive Owens');
    expect(owner.textContent).toContain('OWNER');
    expect(within(owner).queryByRole('combobox')).toBeNull();
    expect(within(owner).queryByRole('button')).toBeNull();
    expect(rowOf(table, 'ada@example.com').textContent).toContain('(you)');
    expect((screen.getByRole('combobox', { name: 'Role of dev@example.com' }) as HTMLSelectElement).value).toBe('DEVELOPER');
    expect(screen.getByRole('button', { name: 'Remove dev@example.com' })).toBeTruthy();
    // only the owner hands the tenant over
    expect(screen.queryByRole('button', { name: /Make .* owner/ })).toBeNull();
  });

  it("changes a member's role with PUT /tenants/self/members/{id} and reads the list again", async () => {
    const fetch = gateway();
    vi.stubGlobal('fetch', fetch);
    const refresh = renderAs(person(ADA));
    fireEvent.change(await screen.findByRole('combobox', { name: 'Role of dev@example.com' }), { target: { value: 'READ_ONLY' } });
    await waitFor(() => expect(calls(fetch, 'PUT')).toEqual([{ url: `/tenants/self/members/${DEV.id}`, body: { role: 'READ_ONLY' } }]));
    await waitFor(() => expect(calls(fetch, 'GET').filter((c) => c.url.startsWith('/tenants/self/members'))).toHaveLength(2));
    // another member's role: the session is the same
    expect(refresh).not.toHaveBeenCalled();
  });

  it('puts the former role back and shows the problem when the change is refused', async () => {
    vi.stubGlobal(
      'fetch',
      gateway((method) => (method === 'PUT' ? reply(403, { title: 'Forbidden', status: 403, detail: 'Not allowed' }) : undefined)),
    );
    renderAs(person(ADA));
    const select = (await screen.findByRole('combobox', { name: 'Role of dev@example.com' })) as HTMLSelectElement;
    fireEvent.change(select, { target: { value: 'ADMIN' } });
    expect((await screen.findByRole('alert')).textContent).toContain('Not allowed');
    expect(select.value).toBe('DEVELOPER');
  });

  it('removes a member after confirmation with DELETE /tenants/self/members/{id}', async () => {
    const fetch = gateway();
    vi.stubGlobal('fetch', fetch);
    const confirm = vi.fn(() => true);
    vi.stubGlobal('confirm', confirm);
    renderAs(person(ADA));
    fireEvent.click(await screen.findByRole('button', { name: 'Remove dev@example.com' }));
    expect(confirm).toHaveBeenCalledWith(expect.stringContaining('dev@example.com'));
    await waitFor(() => expect(calls(fetch, 'DELETE').map((c) => c.url)).toEqual([`/tenants/self/members/${DEV.id}`]));
  });

  it('lets the owner make another member the owner (PUT /tenants/self/owner), saying they become an ADMIN, and reads the session again', async () => {
    const fetch = gateway();
    vi.stubGlobal('fetch', fetch);
    const confirm = vi.fn(() => true);
    vi.stubGlobal('confirm', confirm);
    const refresh = renderAs(person(OWNER));
    fireEvent.click(await screen.findByRole('button', { name: 'Make ada@example.com owner' }));
    expect(confirm).toHaveBeenCalledWith(expect.stringMatching(/you become an ADMIN/i));
    await waitFor(() => expect(calls(fetch, 'PUT')).toEqual([{ url: '/tenants/self/owner', body: { member_id: ADA.id } }]));
    await waitFor(() => expect(refresh).toHaveBeenCalled());
    expect(within(rowOf(screen.getByRole('table', { name: 'Members' }), 'olive@example.com')).queryByRole('button')).toBeNull();
  });

  it('shows roles and no action to a session that may only read the members, and no invitations', async () => {
    const fetch = gateway();
    vi.stubGlobal('fetch', fetch);
    renderAs(person(DEV, ['tenant:member:read']));
    const table = await screen.findByRole('table', { name: 'Members' });
    expect(within(table).queryByRole('combobox')).toBeNull();
    expect(within(table).queryByRole('button')).toBeNull();
    expect(within(table).getAllByRole('columnheader')).toHaveLength(4);
    expect(screen.queryByRole('heading', { name: 'Invitations' })).toBeNull();
    expect(fetch.mock.calls.some((c) => String(c[0]).startsWith('/tenants/self/invitations'))).toBe(false);
  });

  it('lists the invitations and invites a person with POST /tenants/self/invitations (ADMIN unless another role is chosen)', async () => {
    const fetch = gateway();
    vi.stubGlobal('fetch', fetch);
    renderAs(person(ADA));
    const invitations = await screen.findByRole('table', { name: 'Invitations' });
    expect(rowOf(invitations, 'new@example.com').textContent).toContain('pending');
    const form = screen.getByRole('form', { name: 'Invite a person' });
    expect((within(form).getByLabelText('Role') as HTMLSelectElement).value).toBe('ADMIN');
    fireEvent.change(within(form).getByLabelText('Email'), { target: { value: 'grace@example.com' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send invitation' }));
    expect((await screen.findByRole('status')).textContent).toContain('Invitation sent to grace@example.com');
    expect(calls(fetch, 'POST')).toEqual([{ url: '/tenants/self/invitations', body: { email: 'grace@example.com', role: 'ADMIN' } }]);
    expect((within(form).getByLabelText('Email') as HTMLInputElement).value).toBe('');
    await waitFor(() => expect(calls(fetch, 'GET').filter((c) => c.url.startsWith('/tenants/self/invitations'))).toHaveLength(2));

    fireEvent.change(within(form).getByLabelText('Email'), { target: { value: 'linus@example.com' } });
    fireEvent.change(within(form).getByLabelText('Role'), { target: { value: 'READ_ONLY' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send invitation' }));
    await waitFor(() => expect(calls(fetch, 'POST')[1]).toEqual({ url: '/tenants/self/invitations', body: { email: 'linus@example.com', role: 'READ_ONLY' } }));
  });

  it('shows the 409 problem when the person is already a member or invited', async () => {
    vi.stubGlobal(
      'fetch',
      gateway((method, url) =>
        method === 'POST' && url === '/tenants/self/invitations'
          ? reply(409, { title: 'Conflict', status: 409, detail: 'new@example.com already has a pending invitation' })
          : undefined,
      ),
    );
    renderAs(person(ADA));
    const form = await screen.findByRole('form', { name: 'Invite a person' });
    fireEvent.change(within(form).getByLabelText('Email'), { target: { value: 'new@example.com' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send invitation' }));
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toContain('(409)');
    expect(alert.textContent).toContain('already has a pending invitation');
    expect(within(form).queryByRole('status')).toBeNull();
    expect((within(form).getByLabelText('Email') as HTMLInputElement).value).toBe('new@example.com');
  });

  it('resends an invitation and revokes one after confirmation', async () => {
    const fetch = gateway();
    vi.stubGlobal('fetch', fetch);
    vi.stubGlobal(
      'confirm',
      vi.fn(() => true),
    );
    renderAs(person(ADA));
    fireEvent.click(await screen.findByRole('button', { name: 'Resend the invitation of new@example.com' }));
    expect((await screen.findByRole('status')).textContent).toContain('Invitation sent again to new@example.com');
    expect(calls(fetch, 'POST').map((c) => c.url)).toEqual([`/tenants/self/invitations/${PENDING.id}/resend`]);
    fireEvent.click(screen.getByRole('button', { name: 'Revoke the invitation of new@example.com' }));
    await waitFor(() => expect(calls(fetch, 'DELETE').map((c) => c.url)).toEqual([`/tenants/self/invitations/${PENDING.id}`]));
  });

  it('explains the roles from GET /roles in a folded section', async () => {
    vi.stubGlobal('fetch', gateway());
    const { container } = render(
      <SessionContext.Provider value={person(ADA)}>
        <Members />
      </SessionContext.Provider>,
    );
    await screen.findByText('Reads the configuration');
    const details = container.querySelector('details.roles');
    expect(details?.querySelector('summary')?.textContent).toBe('What each role may do');
    expect(details?.textContent).toContain('Everything, and the tenant itself');
  });
});
