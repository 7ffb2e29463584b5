/**
 * People, not shared keys (docs/members.md): invitations by email, single sign-on through the suite's OpenID provider,
 * roles limiting the console and the API, the owner, sessions that end with the membership, the audit naming the person.
 */
import { execFileSync } from 'node:child_process';
import { api, apiRaw, createTenant, gatewayUrl, type TestTenant } from '@coffer/testing';
import { sectionCommands } from '../support/doc-walkthrough';
import { Mailbox } from './mailbox';
import { Receiver } from '../events/support';
import { addAccount, asPerson, signedIn, ssoSignIn, tamper, type ConsoleSignedIn } from './sso';

jest.setTimeout(60_000);

const mailbox = new Mailbox();
const mails = mailbox.mails;
const invitationLink = (email: string, after = 0) => mailbox.invitationLink(email, after);

async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Invites `email` with the management key and accepts through single sign-on as that person. */
async function join(tenant: TestTenant, email: string, role?: string, account: { amr?: string[] } = {}) {
  const person = await addAccount({ email, ...account });
  const before = mails.length;
  const invited = await api('POST', '/tenants/self/invitations', { key: tenant.managementKey, body: { email, ...(role ? { role } : {}) } });
  expect(invited.status).toBe(201);
  const session = await signedIn(person.sub, { invitation: await invitationLink(email, before) });
  const me = await asPerson(session, 'GET', '/console/session');
  expect(me.status).toBe(200);
  return { session, sub: person.sub, userId: me.body.user.id as string, memberId: me.body.user.member_id as string };
}

beforeAll(() => mailbox.open());

afterAll(async () => {
  await tamper(null).catch(() => undefined);
  await mailbox.close();
});

const unique = (name: string) => `${name.toLowerCase()}-${Math.random().toString(36).slice(2, 8)}@example.test`;

/**
 * A break-glass sign-in with a management key, from an address of this file's own: the console's sign-in limit counts
 * per client address (30 per 10 s in this run), and the files running beside this one sign in from 127.0.0.1.
 */
const keySignIn = (key: string) => apiRaw('POST', '/console/session', { origin: 'console', body: { api_key: key }, localAddress: '127.0.0.43' });

describe('invitations', () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await createTenant('members-invitations');
  });

  it('creates, lists, reads, resends and revokes an invitation; the mail carries a link, the API never does', async () => {
    const email = unique('Ada');
    const before = mails.length;
    const created = await api('POST', '/tenants/self/invitations', { key: tenant.managementKey, body: { email: email.toUpperCase(), role: 'read_only' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ tenant_id: tenant.tenantId, email, role: 'READ_ONLY', status: 'PENDING' });
    const hours = (Date.parse(created.body.expires_at) - Date.parse(created.body.created_at)) / 3_600_000;
    expect(hours).toBeCloseTo(72, 1);
    const first = await invitationLink(email, before);
    expect(JSON.stringify(created.body)).not.toContain(first);

    const listed = await api('GET', '/tenants/self/invitations', { key: tenant.managementKey });
    expect(listed.body.data.map((i: { id: string }) => i.id)).toContain(created.body.id);
    expect((await api('GET', `/tenants/self/invitations/${created.body.id}`, { key: tenant.managementKey })).body.email).toBe(email);

    const resent = await apiRaw('POST', `/tenants/self/invitations/${created.body.id}/resend`, { key: tenant.managementKey });
    expect(resent.status).toBe(200);
    const second = await invitationLink(email, before + 1);
    expect(second).not.toBe(first);

    // the first link stopped working when it was resent
    await addAccount({ email });
    const stale = await ssoSignIn(email, { invitation: first });
    expect('error' in stale && stale.error).toMatch(/invitation is invalid or has expired/);

    const revoked = await apiRaw('DELETE', `/tenants/self/invitations/${created.body.id}`, { key: tenant.managementKey });
    expect(revoked.status).toBe(204);
    expect((await apiRaw('GET', `/tenants/self/invitations/${created.body.id}`, { key: tenant.managementKey })).status).toBe(404);
    const late = await ssoSignIn(email, { invitation: second });
    expect('error' in late && late.error).toMatch(/invitation is invalid or has expired/);
  });

  it("docs/members.md's invitation, as written, with the reader's management key", async () => {
    const [invite] = sectionCommands('docs/members.md', 'The first owner, invitations and members');
    expect(invite.command).toMatch(/^curl .*\/tenants\/self\/invitations/s);
    const out = execFileSync('bash', ['-c', invite.command.replace(/http:\/\/localhost:8080/g, gatewayUrl())], {
      env: { PATH: process.env['PATH'], MANAGEMENT_KEY: tenant.managementKey },
      encoding: 'utf8',
    });
    expect(JSON.parse(out)).toMatchObject({ email: 'jane@example.com', role: 'ADMIN', status: 'PENDING' });
    expect((await mailbox.invitationLink('jane@example.com')).length).toBeGreaterThan(40);
  });

  it('refuses bad input with 400 and a second pending invitation for the same email with 409', async () => {
    const bad = await apiRaw('POST', '/tenants/self/invitations', { key: tenant.managementKey, body: { email: 'not an email' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty('email');
    const owner = await apiRaw('POST', '/tenants/self/invitations', { key: tenant.managementKey, body: { email: unique('x'), role: 'OWNER' } });
    expect(owner.status).toBe(400);
    expect(owner.body.errors).toHaveProperty('role');
    const email = unique('twice');
    expect((await apiRaw('POST', '/tenants/self/invitations', { key: tenant.managementKey, body: { email } })).status).toBe(201);
    const again = await apiRaw('POST', '/tenants/self/invitations', { key: tenant.managementKey, body: { email } });
    expect(again.status).toBe(409);
    expect(again.headers.get('content-type')).toMatch(/application\/problem\+json/);
  });

  it('is accepted by the invited, verified email only, once', async () => {
    const email = unique('invitee');
    const before = mails.length;
    expect((await apiRaw('POST', '/tenants/self/invitations', { key: tenant.managementKey, body: { email } })).status).toBe(201);
    const secret = await invitationLink(email, before);
    const stranger = await addAccount({ email: unique('stranger') });
    const wrong = await ssoSignIn(stranger.email as string, { invitation: secret });
    expect('error' in wrong && wrong.error).toMatch(/verified email address the invitation was sent to/);
    const unverified = await addAccount({ email, email_verified: false });
    const notVerified = await ssoSignIn(unverified.sub, { invitation: secret });
    expect('error' in notVerified && notVerified.error).toMatch(/verified email/);

    const verified = await addAccount({ email });
    const ok = await ssoSignIn(verified.sub, { invitation: secret });
    expect('session' in ok).toBe(true);
    // single use: the same link again is refused for anyone
    const reuse = await ssoSignIn(stranger.email as string, { invitation: secret });
    expect('error' in reuse && reuse.error).toMatch(/invalid or has expired/);
  });
});

describe('members, roles and the owner', () => {
  let tenant: TestTenant;
  let owner: Awaited<ReturnType<typeof join>>;
  let admin: Awaited<ReturnType<typeof join>>;
  let developer: Awaited<ReturnType<typeof join>>;
  let reader: Awaited<ReturnType<typeof join>>;
  let ownerEmail: string;

  beforeAll(async () => {
    tenant = await createTenant('members-roles');
    ownerEmail = unique('owner');
    owner = await join(tenant, ownerEmail);
    admin = await join(tenant, unique('admin'), 'ADMIN');
    developer = await join(tenant, unique('dev'), 'DEVELOPER');
    reader = await join(tenant, unique('reader'), 'READ_ONLY');
  });

  it('the first person to join owns the tenant; members list with their roles; GET /tenants/self names the owner', async () => {
    const listed = await api('GET', '/tenants/self/members', { key: tenant.managementKey });
    expect(listed.status).toBe(200);
    const roles = Object.fromEntries(listed.body.data.map((m: { user: { id: string }; role: string }) => [m.user.id, m.role]));
    expect(roles).toEqual({ [owner.userId]: 'OWNER', [admin.userId]: 'ADMIN', [developer.userId]: 'DEVELOPER', [reader.userId]: 'READ_ONLY' });
    const ownerView = await api('GET', '/tenants/self/owner', { key: tenant.managementKey });
    expect(ownerView.body).toMatchObject({ id: owner.memberId, role: 'OWNER', user: { id: owner.userId, email: ownerEmail } });
    expect((await api('GET', '/tenants/self', { key: tenant.managementKey })).body.owner_id).toBe(owner.userId);
    const roleList = await api('GET', '/roles', { key: tenant.managementKey });
    expect(roleList.body.map((r: { name: string }) => r.name)).toEqual(['OWNER', 'ADMIN', 'DEVELOPER', 'READ_ONLY']);
  });

  it('each role is limited in the API: read-only reads, the developer builds but changes no tenant or member, nobody reads token data', async () => {
    expect((await asPerson(reader.session, 'GET', '/applications')).status).toBe(200);
    expect((await asPerson(reader.session, 'POST', '/applications', { name: 'x', type: 'private', permissions: ['token:read'] })).status).toBe(403);
    expect((await asPerson(reader.session, 'PUT', '/tenants/self', { name: 'renamed' })).status).toBe(403);
    expect((await asPerson(reader.session, 'POST', '/tenants/self/invitations', { email: unique('r') })).status).toBe(403);

    const app = await asPerson(developer.session, 'POST', '/applications', { name: 'by dev', type: 'private', permissions: ['token:read'] });
    expect(app.status).toBe(201);
    expect(app.body.created_by).toBe(developer.userId);
    expect((await asPerson(developer.session, 'PUT', '/tenants/self', { name: 'renamed' })).status).toBe(403);
    expect((await asPerson(developer.session, 'PUT', `/tenants/self/members/${reader.memberId}`, { role: 'ADMIN' })).status).toBe(403);
    expect((await asPerson(developer.session, 'GET', '/tenants/self/members')).status).toBe(200);

    // people configure the vault; applications use the data
    const priv = await tenant.app('private', { permissions: ['token:create'] });
    const token = await api('POST', '/tokens', { key: priv.key, body: { type: 'token', data: 'secret-value' } });
    expect(token.status).toBe(201);
    for (const person of [owner, admin, developer, reader]) {
      const read = await asPerson(person.session, 'GET', `/tokens/${token.body.id}`);
      expect(read.status).toBe(403);
      expect(read.text).not.toContain('secret-value');
    }
  });

  it('no one makes a key stronger than their role: no management grant beyond it, no key of a stronger application', async () => {
    const root = (await api('GET', '/applications/key', { key: tenant.managementKey })).body.id as string;
    // the developer may build applications, but not hand one tenant:update, nor take a key of the tenant's first one
    const beyond = await asPerson(developer.session, 'POST', '/applications', { name: 'mine', type: 'management', permissions: ['tenant:update'] });
    expect(beyond.status).toBe(403);
    expect(beyond.body.detail).toMatch(/DEVELOPER.*tenant:update/);
    expect((await asPerson(developer.session, 'POST', `/applications/${root}/keys`)).status).toBe(403);
    expect((await asPerson(developer.session, 'POST', `/applications/${root}/regenerate`)).status).toBe(403);
    const within = await asPerson(developer.session, 'POST', '/applications', { name: 'builder', type: 'management', permissions: ['reactor:create'] });
    expect(within.status).toBe(201);
    expect((await asPerson(developer.session, 'PUT', `/applications/${within.body.id}`, { name: 'builder', permissions: ['tenant:update'] })).status).toBe(403);
    // an admin holds everything but the ownership: no key of theirs may transfer it
    const transferKey = await asPerson(admin.session, 'POST', '/applications', { name: 'x', type: 'management', permissions: ['tenant:owner:transfer'] });
    expect(transferKey.status).toBe(403);
    expect((await asPerson(admin.session, 'POST', `/applications/${root}/keys`)).status).toBe(403);
    // the root key itself still works
    expect((await api('GET', '/tenants/self', { key: tenant.managementKey })).status).toBe(200);
  });

  it('the owner cannot be demoted or removed; an admin cannot transfer ownership; the owner can', async () => {
    const demote = await asPerson(admin.session, 'PUT', `/tenants/self/members/${owner.memberId}`, { role: 'ADMIN' });
    expect(demote.status).toBe(409);
    expect((await asPerson(admin.session, 'DELETE', `/tenants/self/members/${owner.memberId}`)).status).toBe(409);
    expect((await api('DELETE', `/tenants/self/members/${owner.memberId}`, { key: tenant.managementKey })).status).toBe(409);
    const byAdmin = await asPerson(admin.session, 'PUT', '/tenants/self/owner', { member_id: admin.memberId });
    expect(byAdmin.status).toBe(403);

    const moved = await asPerson(owner.session, 'PUT', '/tenants/self/owner', { member_id: admin.memberId });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id: admin.memberId, role: 'OWNER' });
    const members = await api('GET', '/tenants/self/members', { key: tenant.managementKey });
    const roleOf = (id: string) => members.body.data.find((m: { id: string }) => m.id === id)?.role;
    expect(roleOf(admin.memberId)).toBe('OWNER');
    expect(roleOf(owner.memberId)).toBe('ADMIN');
    // and back, so the rest of the file knows who owns it
    expect((await asPerson(admin.session, 'PUT', '/tenants/self/owner', { member_id: owner.memberId })).status).toBe(200);
  });

  it("a role change applies at once; a removed member's sessions end at once", async () => {
    const person = await join(tenant, unique('leaving'), 'READ_ONLY');
    expect((await asPerson(person.session, 'POST', '/applications', { name: 'no', type: 'private', permissions: ['token:read'] })).status).toBe(403);
    expect((await asPerson(admin.session, 'PUT', `/tenants/self/members/${person.memberId}`, { role: 'developer' })).status).toBe(200);
    const now = await asPerson(person.session, 'POST', '/applications', { name: 'yes', type: 'private', permissions: ['token:read'] });
    expect(now.status).toBe(201);

    expect((await asPerson(admin.session, 'DELETE', `/tenants/self/members/${person.memberId}`)).status).toBe(204);
    const after = await asPerson(person.session, 'GET', '/tenants/self');
    expect(after.status).toBe(401);
    const back = await ssoSignIn(person.sub, { tenantId: tenant.tenantId });
    expect('error' in back).toBe(true);
  });

  it('the audit names the person: actor_type user, their id and email, filterable in GET /logs', async () => {
    const renamed = await asPerson(owner.session, 'PUT', '/tenants/self', { name: 'Renamed by a person' });
    expect(renamed.status).toBe(200);
    const logs = await eventually(async () => {
      const res = await api('GET', `/logs?actor_type=user&actor_id=${owner.userId}` as '/logs', { key: tenant.managementKey });
      return res.body.data.some((e: { entity_type: string; operation: string }) => e.entity_type === 'tenant' && e.operation === 'update') ? res : undefined;
    });
    for (const e of logs.body.data) expect(e).toMatchObject({ actor_type: 'user', actor_id: owner.userId, actor_name: ownerEmail });
    const signIns = await api('GET', '/logs?entity_type=console_session' as '/logs', { key: tenant.managementKey });
    expect(signIns.body.data.some((e: { actor_id: string; operation: string }) => e.actor_id === owner.userId && e.operation === 'sign-in')).toBe(true);
  });

  it('sign-out everywhere ends every session of the person', async () => {
    const second = await signedIn(owner.sub, { tenantId: tenant.tenantId });
    expect((await asPerson(second, 'GET', '/tenants/self')).status).toBe(200);
    const out = await asPerson(second, 'DELETE', '/console/session?everywhere=true');
    expect(out.status).toBe(204);
    expect((await asPerson(second, 'GET', '/tenants/self')).status).toBe(401);
    expect((await asPerson(owner.session, 'GET', '/tenants/self')).status).toBe(401);
    owner.session = await signedIn(owner.sub, { tenantId: tenant.tenantId });
  });
});

describe('events of people, delivered to a webhook', () => {
  it('an invitation, the member it makes, a role change, a transfer, a removal, sign-ins and a refusal: each an event naming who acted', async () => {
    const tenant = await createTenant('members-events');
    const receiver = await new Receiver().start();
    try {
      const events = [
        'tenant.invitation.created',
        'tenant.member.created',
        'tenant.member.updated',
        'tenant.owner.transferred',
        'tenant.member.deleted',
        'console.signed-in',
        'console.sign-in-refused',
      ];
      const hook = await api('POST', '/webhooks', { key: tenant.managementKey, body: { name: 'people', url: receiver.url, events } });
      expect(hook.status).toBe(201);
      const ownerEmail = unique('events-owner');
      const owner = await join(tenant, ownerEmail);
      const other = await join(tenant, unique('events-other'), 'DEVELOPER');
      const invited = await receiver.waitForEvent('tenant.invitation.created', (e) => e.event.data['invitation']?.email === ownerEmail);
      expect(JSON.stringify(invited.event.data)).not.toMatch(/invitation=|token_hash/);
      const created = await receiver.waitForEvent('tenant.member.created', (e) => e.event.data['member']?.id === owner.memberId);
      expect(created.event.data['member']).toMatchObject({ role: 'OWNER', user: { id: owner.userId, email: ownerEmail } });
      const signedIn = await receiver.waitForEvent('console.signed-in', (e) => e.event.data.actor.id === owner.userId);
      expect(signedIn.event.data).toMatchObject({ method: 'oidc', actor: { type: 'user', id: owner.userId, name: ownerEmail } });

      expect((await asPerson(owner.session, 'PUT', `/tenants/self/members/${other.memberId}`, { role: 'ADMIN' })).status).toBe(200);
      const updated = await receiver.waitForEvent('tenant.member.updated', (e) => e.event.data['member']?.id === other.memberId);
      expect(updated.event.data).toMatchObject({ member: { role: 'ADMIN' }, actor: { type: 'user', id: owner.userId } });
      expect((await asPerson(owner.session, 'PUT', '/tenants/self/owner', { member_id: other.memberId })).status).toBe(200);
      await receiver.waitForEvent('tenant.owner.transferred', (e) => e.event.data['member']?.id === other.memberId);
      expect((await asPerson(other.session, 'DELETE', `/tenants/self/members/${owner.memberId}`)).status).toBe(204);
      await receiver.waitForEvent('tenant.member.deleted', (e) => e.event.data['member']?.id === owner.memberId);

      await api('PUT', '/tenants/self', { key: tenant.managementKey, body: { settings: { console_key_sign_in: false } } });
      expect((await keySignIn(tenant.managementKey)).status).toBe(403);
      const refused = await receiver.waitForEvent('console.sign-in-refused');
      expect(refused.event.data).toMatchObject({ method: 'key', reason: 'key_sign_in_off', actor: { type: 'application' } });
    } finally {
      await receiver.stop();
    }
  });
});

describe('single sign-on refusals, MFA and break-glass', () => {
  let tenant: TestTenant;
  let email: string;
  let person: ConsoleSignedIn;
  beforeAll(async () => {
    tenant = await createTenant('members-sso');
    email = unique('sso');
    ({ session: person } = await join(tenant, email));
  });
  afterEach(() => tamper(null));

  it.each(['signature', 'unknown-key', 'audience', 'issuer', 'expired', 'nonce'])('refuses an ID token with a tampered %s: no session', async (kind) => {
    await tamper(kind);
    const outcome = await ssoSignIn(email, { tenantId: tenant.tenantId });
    expect('error' in outcome).toBe(true);
    if ('error' in outcome) {
      expect(outcome.error.length).toBeGreaterThan(0);
      expect(outcome.setCookies.some((c) => c.startsWith('coffer_console=') && !/Max-Age=0/.test(c))).toBe(false);
    }
  });

  it('refuses a forged state and a callback without the browser that started it', async () => {
    const forged = await ssoSignIn(email, { tenantId: tenant.tenantId, alter: (u) => u.searchParams.set('state', 'forged-state') });
    expect('error' in forged).toBe(true);
    const denied = await ssoSignIn(email, { deny: true });
    expect('error' in denied).toBe(true);
    const bare = await apiRaw('GET', '/console/oidc/callback?code=x&state=y', { origin: 'console', redirect: 'manual' });
    expect(bare.status).toBe(303);
    expect(bare.headers.get('location')).toMatch(/sign_in_error=/);
  });

  it('a tenant that requires MFA refuses a sign-in without a second factor and admits one with it', async () => {
    expect((await asPerson(person, 'PUT', '/tenants/self', { settings: { console_require_mfa: true } })).status).toBe(200);
    const without = await ssoSignIn(email, { tenantId: tenant.tenantId });
    expect('error' in without && without.error).toMatch(/multi-factor/);
    // a person whose provider asserts a second factor (amr) is admitted
    const mfaEmail = unique('mfa');
    const mfaPerson = await addAccount({ email: mfaEmail, amr: ['pwd', 'otp', 'mfa'] });
    const before = mails.length;
    expect((await api('POST', '/tenants/self/invitations', { key: tenant.managementKey, body: { email: mfaEmail } })).status).toBe(201);
    const withMfa = await ssoSignIn(mfaPerson.sub, { invitation: await invitationLink(mfaEmail, before) });
    expect('session' in withMfa).toBe(true);
    expect((await api('PUT', '/tenants/self', { key: tenant.managementKey, body: { settings: { console_require_mfa: false } } })).status).toBe(200);
  });

  it('break-glass: the management key signs in until the tenant turns it off', async () => {
    expect((await keySignIn(tenant.managementKey)).status).toBe(201);
    expect((await api('PUT', '/tenants/self', { key: tenant.managementKey, body: { settings: { console_key_sign_in: false } } })).status).toBe(200);
    const refused = await keySignIn(tenant.managementKey);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/turned off/);
    // the key itself still works on the API (it is the break-glass setting of the console only)
    expect((await api('PUT', '/tenants/self', { key: tenant.managementKey, body: { settings: { console_key_sign_in: true } } })).status).toBe(200);
  });
});
