import { useContext, useState, type FormEvent } from 'react';
import { api, type Schema } from '../lib/api';
import { SessionContext, SessionRefreshContext, useCan } from '../lib/session';
import { useAction, useLoad } from '../lib/use-load';
import { usePagedLoad } from '../lib/use-paged-load';
import { Loaded, PageHeader, ProblemView, formatDate } from '../components/ui';
import { PagedTable, type Column } from '../components/ResourceTable';

export type Member = Schema<'MemberView'>;
export type Invitation = Schema<'InvitationView'>;

/** The roles a member is given or invited with: the OWNER is one member, changed by a transfer of ownership only. */
type AssignableRole = Schema<'UpdateMemberRequest'>['role'];
const ASSIGNABLE: AssignableRole[] = ['ADMIN', 'DEVELOPER', 'READ_ONLY'];

const fullName = (m: Member) => [m.user.first_name, m.user.last_name].filter(Boolean).join(' ');

/** The people of the tenant, their roles and the invitations not yet accepted (hash route #/members). */
export function Members() {
  const can = useCan();
  return (
    <>
      <PageHeader title="Members" />
      <MemberList />
      {can('tenant:invitation:read') || can('tenant:invitation:create') ? <Invitations /> : null}
      <Roles />
    </>
  );
}

function MemberList() {
  const can = useCan();
  const session = useContext(SessionContext);
  const refreshSession = useContext(SessionRefreshContext);
  const me = session?.user?.member_id;
  const isOwner = session?.user?.role === 'OWNER';
  const [version, setVersion] = useState(0);
  const list = usePagedLoad('/tenants/self/members', (page) => ({ page, size: 25 }), [version]);
  const { busy, problem, run } = useAction();
  // a change to the signed-in person's own membership changes what the session may do
  const changed = (m: Member) => {
    setVersion((v) => v + 1);
    if (m.id === me) refreshSession();
  };
  const setRole = async (m: Member, role: AssignableRole) => {
    const ok = await run(() => api('PUT', '/tenants/self/members/{id}', { params: { id: m.id }, body: { role } }).then(() => true));
    if (ok) changed(m);
    return ok === true;
  };
  const remove = async (m: Member) => {
    if (!window.confirm(`Remove ${m.user.email} from this tenant? Their console sessions end at once.`)) return;
    if (await run(() => api('DELETE', '/tenants/self/members/{id}', { params: { id: m.id } }).then(() => true))) changed(m);
  };
  const makeOwner = async (m: Member) => {
    if (!window.confirm(`Make ${m.user.email} the owner of this tenant? You become an ADMIN.`)) return;
    if (await run(() => api('PUT', '/tenants/self/owner', { body: { member_id: m.id } }).then(() => true))) {
      setVersion((v) => v + 1);
      refreshSession();
    }
  };
  const removable = can('tenant:member:delete');
  const columns: Column<Member>[] = [
    {
      header: 'Email',
      cell: (m) => (
        <>
          {m.user.email}
          {m.id === me ? <span className="muted"> (you)</span> : null}
        </>
      ),
    },
    { header: 'Name', cell: fullName },
    {
      header: 'Role',
      cell: (m) =>
        m.role === 'OWNER' || !can('tenant:member:update') ? (
          m.role
        ) : (
          <RoleSelect key={`${m.id}:${m.role}`} member={m} disabled={busy} onChange={(role) => setRole(m, role)} />
        ),
    },
    { header: 'Joined', cell: (m) => formatDate(m.created_at) },
  ];
  if (removable || isOwner)
    columns.push({
      header: 'Actions',
      cell: (m) =>
        m.role === 'OWNER' ? null : (
          <div className="actions">
            {isOwner ? (
              <button aria-label={`Make ${m.user.email} owner`} onClick={() => void makeOwner(m)} disabled={busy}>
                Make owner
              </button>
            ) : null}
            {removable ? (
              <button className="danger" aria-label={`Remove ${m.user.email}`} onClick={() => void remove(m)} disabled={busy}>
                Remove
              </button>
            ) : null}
          </div>
        ),
    });
  return (
    <section aria-labelledby="members-title">
      <h2 id="members-title">People</h2>
      <ProblemView problem={problem} />
      <PagedTable {...list} caption="Members" columns={columns} empty="No members yet." pager={{ hideSinglePage: true }} />
    </section>
  );
}

/** A member's role, changed as soon as another is chosen (back to the former one when the change is refused). */
function RoleSelect({ member, disabled, onChange }: { member: Member; disabled: boolean; onChange: (role: AssignableRole) => Promise<boolean> }) {
  const [role, setRole] = useState(member.role as AssignableRole);
  return (
    <select
      aria-label={`Role of ${member.user.email}`}
      value={role}
      disabled={disabled}
      onChange={(e) => {
        const next = e.target.value as AssignableRole;
        setRole(next);
        void onChange(next).then((ok) => (ok ? undefined : setRole(member.role as AssignableRole)));
      }}
    >
      {ASSIGNABLE.map((r) => (
        <option key={r} value={r}>
          {r}
        </option>
      ))}
    </select>
  );
}

function Invitations() {
  const can = useCan();
  const [version, setVersion] = useState(0);
  return (
    <section className="card" aria-labelledby="invitations-title">
      <h2 id="invitations-title">Invitations</h2>
      {can('tenant:invitation:create') ? <InviteForm onInvited={() => setVersion((v) => v + 1)} /> : null}
      {can('tenant:invitation:read') ? <InvitationList version={version} /> : null}
    </section>
  );
}

/** POST /tenants/self/invitations: an email with a link that works for 72 hours; a member or a pending invitation is a 409. */
function InviteForm({ onInvited }: { onInvited: () => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<AssignableRole>('ADMIN');
  const [sent, setSent] = useState<string | null>(null);
  const { busy, problem, run } = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSent(null);
    const invitation = await run(() => api('POST', '/tenants/self/invitations', { body: { email, role } }));
    if (invitation) {
      setSent(email);
      setEmail('');
      onInvited();
    }
  };
  return (
    <form className="form" onSubmit={(e) => void submit(e)} aria-label="Invite a person">
      <label>
        Email
        <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} required maxLength={320} autoComplete="off" />
      </label>
      <label>
        Role
        <select value={role} onChange={(e) => setRole(e.target.value as AssignableRole)}>
          {ASSIGNABLE.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </label>
      <ProblemView problem={problem} />
      <button type="submit" className="primary" disabled={busy}>
        {busy ? 'Inviting…' : 'Send invitation'}
      </button>
      {sent && !busy && !problem ? <span role="status"> Invitation sent to {sent}.</span> : null}
    </form>
  );
}

function InvitationList({ version }: { version: number }) {
  const can = useCan();
  const [own, setOwn] = useState(0);
  const list = usePagedLoad('/tenants/self/invitations', (page) => ({ page, size: 25 }), [version, own]);
  const [resent, setResent] = useState<string | null>(null);
  const { busy, problem, run } = useAction();
  const resend = async (i: Invitation) => {
    setResent(null);
    if (await run(() => api('POST', '/tenants/self/invitations/{id}/resend', { params: { id: i.id } }))) {
      setResent(i.email);
      setOwn((v) => v + 1);
    }
  };
  const revoke = async (i: Invitation) => {
    if (!window.confirm(`Revoke the invitation of ${i.email}? Its link stops working at once.`)) return;
    setResent(null);
    if (await run(() => api('DELETE', '/tenants/self/invitations/{id}', { params: { id: i.id } }).then(() => true))) setOwn((v) => v + 1);
  };
  const resendable = can('tenant:invitation:update');
  const revocable = can('tenant:invitation:delete');
  const columns: Column<Invitation>[] = [
    { header: 'Email', cell: (i) => i.email },
    { header: 'Role', cell: (i) => i.role },
    { header: 'Status', cell: (i) => (i.status === 'EXPIRED' ? 'expired' : 'pending') },
    { header: 'Expires', cell: (i) => formatDate(i.expires_at) },
  ];
  if (resendable || revocable)
    columns.push({
      header: 'Actions',
      cell: (i) => (
        <div className="actions">
          {resendable ? (
            <button aria-label={`Resend the invitation of ${i.email}`} onClick={() => void resend(i)} disabled={busy}>
              Resend
            </button>
          ) : null}
          {revocable ? (
            <button className="danger" aria-label={`Revoke the invitation of ${i.email}`} onClick={() => void revoke(i)} disabled={busy}>
              Revoke
            </button>
          ) : null}
        </div>
      ),
    });
  return (
    <>
      <ProblemView problem={problem} />
      {resent && !busy && !problem ? <p role="status">Invitation sent again to {resent}: the previous link no longer works.</p> : null}
      <PagedTable {...list} caption="Invitations" columns={columns} empty="No invitations waiting." pager={{ hideSinglePage: true }} />
    </>
  );
}

/** GET /roles: what each role may do, folded away. */
function Roles() {
  const [roles] = useLoad(() => api('GET', '/roles'), []);
  return (
    <details className="roles card">
      <summary>What each role may do</summary>
      <Loaded load={roles}>
        {(list) => (
          <dl>
            {list.map((r) => (
              <div key={r.name}>
                <dt>
                  <strong>{r.name}</strong>
                </dt>
                <dd>
                  {r.description}
                  <span className="muted"> ({r.permissions.length ? r.permissions.join(', ') : 'no permissions'})</span>
                </dd>
              </div>
            ))}
          </dl>
        )}
      </Loaded>
    </details>
  );
}
