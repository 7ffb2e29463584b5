import { randomBytes, randomUUID } from 'node:crypto';
import { SUBJECTS, type Principal, type VerifiedIdentity } from '@coffer/contracts';
import { ROLES } from '@coffer/auth';
import { sha256Hex } from '@coffer/crypto';
import { EventBus } from '@coffer/bus';
import { AuditTrail, RecordedWrites, withActingContext } from '@coffer/operations';
import { insertTenant, problemOf, recordingEventBus, startIntegration, type IntegrationContext } from '@coffer/testing/integration';
import { AuthenticateService } from '../authenticate/authenticate.service';
import { KeyHolderRepository } from '../authenticate/key-holder.repository';
import { ApplicationKeyRepository } from '../applications/application-key.repository';
import { ApplicationKeysService } from '../applications/application-keys.service';
import { ApplicationRepository } from '../applications/application.repository';
import { ApplicationsService } from '../applications/applications.service';
import { SessionRepository } from '../sessions/session.repository';
import { SessionsService } from '../sessions/sessions.service';
import { TenantRepository } from '../tenants/tenant.repository';
import { MemberRepository } from '../members/member.repository';
import { ConsoleRepository } from './console.repository';
import {
  CONSOLE_CLOCK,
  CONSOLE_SESSION_LIMITS,
  ConsoleSignInService,
  EMAIL_MISMATCH,
  INVITATION_INVALID,
  KEY_INVALID,
  KEY_KIND,
  KEY_SIGN_IN_OFF,
  MFA_REQUIRED,
  NOT_A_MEMBER,
  type ConsoleSessionLimits,
} from './console-sign-in.service';

const ISSUER = 'https://login.example.com';
const LIMITS: ConsoleSessionLimits = { idleTimeoutMs: 60_000, maxAgeMs: 3_600_000, maxSessionsPerKey: 3 };

/**
 * Console sign-in against PostgreSQL: break-glass keys, invitations accepted on the way in, returning people found by
 * issuer and subject only, the tenant's policy (key sign-in, MFA), sessions stored as hashes with idle and absolute
 * ends (a clock the test moves), the per-person cap, sign-out, and the audit records and events of all of it.
 */
describe('ConsoleSignInService (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let console_: ConsoleSignInService;
  let auth: AuthenticateService;
  let apps: ApplicationsService;
  const bus = recordingEventBus();
  let clock = Date.now();

  beforeAll(async () => {
    ctx = await startIntegration(
      {
        providers: [
          ApplicationRepository,
          ApplicationKeyRepository,
          ApplicationsService,
          ApplicationKeysService,
          SessionRepository,
          SessionsService,
          AuthenticateService,
          KeyHolderRepository,
          TenantRepository,
          MemberRepository,
          ConsoleRepository,
          ConsoleSignInService,
          EventBus,
          AuditTrail,
          RecordedWrites,
          { provide: CONSOLE_SESSION_LIMITS, useValue: LIMITS },
          { provide: CONSOLE_CLOCK, useValue: () => clock },
        ] as never,
      },
      [{ provide: EventBus, useValue: bus }],
    );
    console_ = ctx.get(ConsoleSignInService);
    auth = ctx.get(AuthenticateService);
    apps = ctx.get(ApplicationsService);
  });
  afterAll(() => ctx?.close());
  beforeEach(() => {
    clock = Date.now();
    bus.published.length = 0;
  });

  // ------------------------------------------------------------ helpers

  const admin = (tenantId: string): Principal => ({
    tenantId,
    applicationId: randomUUID(),
    applicationType: 'management',
    permissions: ['application:create'],
  });

  /** A key of a new application of `type`: the key itself (the gateway sends its hash). */
  async function keyOf(tenantId: string, type: 'management' | 'private' | 'public'): Promise<{ key: string; applicationId: string }> {
    const permissions = type === 'public' ? ['token:create'] : type === 'private' ? ['token:read'] : ['tenant:read'];
    const app = await withActingContext({ principal: admin(tenantId) }, () => apps.create({ name: `${type} app`, type, permissions }));
    return { key: app.keys?.[0]?.key as string, applicationId: app.id };
  }

  const person = (subject: string, email: string, extra: Partial<VerifiedIdentity> = {}): VerifiedIdentity => ({
    issuer: ISSUER,
    subject,
    email,
    emailVerified: true,
    givenName: 'Jane',
    familyName: 'Doe',
    amr: ['pwd'],
    ...extra,
  });

  /** An invitation row as the invitations API stores it; the link's secret is returned (only its hash is kept). */
  async function invite(tenantId: string, email: string, role = 'ADMIN', expiresInMs = 72 * 3600_000): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await ctx.sql.query('INSERT INTO tenant_invitations (id, tenant_id, email, role, token_hash, expires_at, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
      randomUUID(),
      tenantId,
      email.toLowerCase(),
      role,
      sha256Hex(token),
      new Date(Date.now() + expiresInMs),
      randomUUID(),
    ]);
    return sha256Hex(token);
  }

  const refusals = async (reason: string) =>
    (await ctx.sql.query(`SELECT * FROM audit_events WHERE operation = 'sign-in-refused' AND entity_id = $1 ORDER BY created_at`, [reason])).rows;
  const outbox = async (tenantId: string, type: string) =>
    (await ctx.sql.query(`SELECT event FROM event_outbox WHERE tenant_id = $1 AND type = $2 ORDER BY seq`, [tenantId, type])).rows.map((r) => r.event);
  const sessionRow = async (sessionId: string) => (await ctx.sql.query('SELECT * FROM console_sessions WHERE id_hash = $1', [sha256Hex(sessionId)])).rows[0];
  const principalOfSession = async (sessionId: string) => (await console_.authenticate(sha256Hex(sessionId))).principal;

  /** A tenant whose first member (the owner) has signed in through an invitation. */
  async function tenantWithOwner(settings: Record<string, unknown> = {}) {
    const tenantId = await insertTenant(ctx.sql, settings, `Tenant ${randomUUID().slice(0, 8)}`);
    clock += 1_000; // memberships are ordered by when they were made
    const subject = randomUUID();
    const email = `owner-${subject.slice(0, 8)}@example.com`;
    const reply = await console_.signIn({ identity: person(subject, email, { amr: ['pwd', 'mfa'] }), invitationTokenHash: await invite(tenantId, email) });
    return { tenantId, subject, email, reply };
  }

  // ------------------------------------------------------------ keys (break-glass)

  describe('with a key', () => {
    it('a management key signs in: a session stored as hashes only, authenticating as the key, audited and announced', async () => {
      const tenantId = await insertTenant(ctx.sql);
      const { key, applicationId } = await keyOf(tenantId, 'management');
      const reply = await withActingContext({ traceId: 'trace-1' }, () => console_.signIn({ keyHash: sha256Hex(key), source: '203.0.113.7' }));
      expect(reply.principal).toMatchObject({ tenantId, applicationId, applicationType: 'management' });
      expect(reply.tenants).toBeUndefined();
      expect(reply.sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(reply.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const row = await sessionRow(reply.sessionId);
      expect(row).toMatchObject({ tenant_id: tenantId, key_hash: sha256Hex(key), user_id: null, csrf_hash: sha256Hex(reply.csrf) });
      expect(JSON.stringify(row)).not.toContain(reply.sessionId);
      expect(JSON.stringify(row)).not.toContain(reply.csrf);
      expect(row.expires_at.getTime()).toBe(clock + LIMITS.maxAgeMs);

      const authed = await console_.authenticate(sha256Hex(reply.sessionId));
      expect(authed).toEqual({ principal: reply.principal, csrfHash: sha256Hex(reply.csrf), expiresAt: new Date(clock + LIMITS.idleTimeoutMs).toISOString() });

      const audit = (await ctx.sql.query(`SELECT * FROM audit_events WHERE tenant_id = $1 AND operation = 'sign-in'`, [tenantId])).rows;
      expect(audit).toMatchObject([
        { entity_type: 'console_session', actor_type: 'application', actor_id: applicationId, trace_id: 'trace-1', source: '203.0.113.7' },
      ]);
      expect(await outbox(tenantId, 'console.signed-in')).toMatchObject([{ data: { method: 'key', actor: { id: applicationId, type: 'application' } } }]);
    });

    it('a private key signs in too', async () => {
      const tenantId = await insertTenant(ctx.sql);
      const { key } = await keyOf(tenantId, 'private');
      const reply = await console_.signIn({ keyHash: sha256Hex(key) });
      expect(reply.principal).toMatchObject({ tenantId, applicationType: 'private' });
      expect(await principalOfSession(reply.sessionId)).toMatchObject({ applicationType: 'private' });
    });

    it('refuses a public key and a session key (403), an unknown key (401), each recorded', async () => {
      const tenantId = await insertTenant(ctx.sql);
      const pub = await keyOf(tenantId, 'public');
      expect(await problemOf(console_.signIn({ keyHash: sha256Hex(pub.key) }))).toMatchObject({ status: 403, detail: KEY_KIND });
      const pubPrincipal = (await auth.authenticate(sha256Hex(pub.key))).principal as Principal;
      const session = await withActingContext({ principal: pubPrincipal }, () => ctx.get(SessionsService).create());
      expect(await problemOf(console_.signIn({ keyHash: sha256Hex(session.session_key) }))).toMatchObject({ status: 403, detail: KEY_KIND });
      const refused = (await refusals('key_not_allowed')).filter((r) => r.tenant_id === tenantId);
      expect(refused).toHaveLength(2);
      expect(refused[0]).toMatchObject({ actor_type: 'application', actor_id: pub.applicationId });
      expect(await outbox(tenantId, 'console.sign-in-refused')).toMatchObject([
        { data: { method: 'key', reason: 'key_not_allowed' } },
        { data: { method: 'key', reason: 'key_not_allowed' } },
      ]);

      expect(await problemOf(console_.signIn({ keyHash: sha256Hex('key_unknown'), source: '198.51.100.9' }))).toMatchObject({
        status: 401,
        detail: KEY_INVALID,
      });
      // no row per unknown key (the gateway counts them per address and minute, like refused API keys)
      expect(await refusals('key_invalid')).toEqual([]);
      expect(await ctx.sql.query('SELECT 1 FROM console_sessions WHERE tenant_id = $1', [tenantId])).toMatchObject({ rowCount: 0 });
    });

    it('refuses a key when the tenant turned key sign-in off ("false" as stored), and ends the key sessions already open', async () => {
      const tenantId = await insertTenant(ctx.sql);
      const { key } = await keyOf(tenantId, 'management');
      const open = await console_.signIn({ keyHash: sha256Hex(key) });
      await ctx.sql.query(`UPDATE tenants SET settings = settings || '{"console_key_sign_in": false}' WHERE id = $1`, [tenantId]);
      expect(await problemOf(console_.signIn({ keyHash: sha256Hex(key) }))).toMatchObject({ status: 403, detail: KEY_SIGN_IN_OFF });
      expect(await refusals('key_sign_in_off')).toMatchObject([{ tenant_id: tenantId }]);
      expect(await principalOfSession(open.sessionId)).toBeNull();
      expect(await sessionRow(open.sessionId)).toBeUndefined();
    });

    it("a suspended tenant's key is refused with the tenant's 403, and so is its open session", async () => {
      const tenantId = await insertTenant(ctx.sql);
      const { key } = await keyOf(tenantId, 'management');
      const open = await console_.signIn({ keyHash: sha256Hex(key) });
      await ctx.sql.query('UPDATE tenants SET suspended_at = now() WHERE id = $1', [tenantId]);
      expect(await problemOf(console_.signIn({ keyHash: sha256Hex(key) }))).toMatchObject({ status: 403, detail: expect.stringContaining('suspended') });
      expect(await problemOf(console_.authenticate(sha256Hex(open.sessionId)))).toMatchObject({ status: 403 });
      expect((await refusals('tenant_suspended')).filter((r) => r.tenant_id === tenantId)).toHaveLength(1);
    });

    it('a revoked key ends its session (the row is deleted)', async () => {
      const tenantId = await insertTenant(ctx.sql);
      const { key } = await keyOf(tenantId, 'management');
      const open = await console_.signIn({ keyHash: sha256Hex(key) });
      expect(await principalOfSession(open.sessionId)).not.toBeNull();
      await ctx.sql.query('DELETE FROM application_keys WHERE key_hash = $1', [sha256Hex(key)]);
      expect(await console_.authenticate(sha256Hex(open.sessionId))).toEqual({ principal: null });
      expect(await sessionRow(open.sessionId)).toBeUndefined();
    });

    it('refuses a message with both a key and an identity, or neither (400)', async () => {
      expect((await problemOf(console_.signIn({}))).status).toBe(400);
      expect((await problemOf(console_.signIn({ keyHash: sha256Hex('x'), identity: person('s', 'a@example.com') }))).status).toBe(400);
    });
  });

  // ------------------------------------------------------------ invitations

  describe('accepting an invitation', () => {
    it("the first accepted invitation makes its person the tenant's OWNER: user, membership, event and audit in one go; single use", async () => {
      const tenantId = await insertTenant(ctx.sql, {}, 'Acme');
      const tokenHash = await invite(tenantId, 'Jane@Example.com', 'DEVELOPER');
      const identity = person('sub-jane', 'JANE@example.com', { picture: 'https://img.example.com/j.png' });
      const reply = await withActingContext({ traceId: 'trace-j' }, () => console_.signIn({ identity, invitationTokenHash: tokenHash }));

      const user = (await ctx.sql.query('SELECT * FROM users WHERE issuer = $1 AND subject = $2', [ISSUER, 'sub-jane'])).rows[0];
      expect(user).toMatchObject({
        email: 'jane@example.com',
        email_verified: true,
        first_name: 'Jane',
        last_name: 'Doe',
        picture: 'https://img.example.com/j.png',
      });
      expect(user.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(user.last_sign_in_at).not.toBeNull();
      const member = (await ctx.sql.query('SELECT * FROM tenant_members WHERE tenant_id = $1', [tenantId])).rows;
      expect(member).toMatchObject([{ user_id: user.id, role: 'OWNER' }]);
      expect(await ctx.sql.query('SELECT 1 FROM tenant_invitations WHERE token_hash = $1', [tokenHash])).toMatchObject({ rowCount: 0 });

      expect(reply.principal).toEqual({
        tenantId,
        applicationId: user.id,
        applicationType: 'management',
        permissions: [...ROLES.OWNER.permissions],
        user: { id: user.id, email: 'jane@example.com', memberId: member[0].id, role: 'OWNER' },
      });
      expect(reply.tenants).toEqual([{ id: tenantId, name: 'Acme', role: 'OWNER' }]);
      expect(await principalOfSession(reply.sessionId)).toEqual(reply.principal);
      expect(await sessionRow(reply.sessionId)).toMatchObject({ user_id: user.id, key_hash: null, tenant_id: tenantId });

      const [created] = await outbox(tenantId, 'tenant.member.created');
      expect(created.data.member).toEqual({
        id: member[0].id,
        tenant_id: tenantId,
        user: { id: user.id, email: 'jane@example.com', first_name: 'Jane', last_name: 'Doe', picture: 'https://img.example.com/j.png', provider: ISSUER },
        role: 'OWNER',
        created_by: member[0].created_by,
        created_at: member[0].created_at.toISOString(),
        created_date: member[0].created_at.toISOString(),
      });
      expect(created.data.actor).toEqual({ id: user.id, type: 'user', name: 'jane@example.com' });
      expect(await outbox(tenantId, 'console.signed-in')).toMatchObject([{ data: { method: 'oidc', actor: { id: user.id, type: 'user' } } }]);
      const audit = (await ctx.sql.query(`SELECT * FROM audit_events WHERE tenant_id = $1 ORDER BY created_at, operation`, [tenantId])).rows;
      expect(audit).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            operation: 'create',
            entity_type: 'tenant_member',
            entity_id: member[0].id,
            actor_type: 'user',
            actor_id: user.id,
            trace_id: 'trace-j',
          }),
          expect.objectContaining({
            operation: 'sign-in',
            entity_type: 'console_session',
            actor_type: 'user',
            actor_id: user.id,
            actor_name: 'jane@example.com',
          }),
        ]),
      );

      // single use: the same link again is refused, and recorded in the global log (no invitation, no tenant)
      expect(await problemOf(console_.signIn({ identity, invitationTokenHash: tokenHash }))).toMatchObject({ status: 403, detail: INVITATION_INVALID });
      expect((await refusals('invitation_invalid')).at(-1)).toMatchObject({ actor_type: 'user', actor_id: user.id });
    });

    it("the next one gets the invitation's role; a member's own tenants are listed, the most recently joined first", async () => {
      const { tenantId } = await tenantWithOwner();
      const reply = await console_.signIn({
        identity: person('sub-dev', 'dev@example.com'),
        invitationTokenHash: await invite(tenantId, 'dev@example.com', 'DEVELOPER'),
      });
      expect(reply.principal).toMatchObject({ tenantId, permissions: [...ROLES.DEVELOPER.permissions], user: { role: 'DEVELOPER' } });
      expect(reply.principal.permissions).not.toContain('tenant:update');

      const other = await tenantWithOwner();
      const again = await console_.signIn({
        identity: person('sub-dev', 'dev@example.com'),
        invitationTokenHash: await invite(other.tenantId, 'dev@example.com', 'READ_ONLY'),
      });
      expect(again.principal).toMatchObject({ tenantId: other.tenantId, user: { role: 'READ_ONLY' } });
      expect(again.tenants?.map((t) => [t.id, t.role])).toEqual([
        [other.tenantId, 'READ_ONLY'],
        [tenantId, 'DEVELOPER'],
      ]);
    });

    it('two first acceptances at once make exactly one owner', async () => {
      const tenantId = await insertTenant(ctx.sql);
      const [a, b] = await Promise.all([
        console_.signIn({
          identity: person('sub-race-a', 'a@race.example.com'),
          invitationTokenHash: await invite(tenantId, 'a@race.example.com', 'DEVELOPER'),
        }),
        console_.signIn({
          identity: person('sub-race-b', 'b@race.example.com'),
          invitationTokenHash: await invite(tenantId, 'b@race.example.com', 'DEVELOPER'),
        }),
      ]);
      expect([a.principal.user?.role, b.principal.user?.role].sort()).toEqual(['DEVELOPER', 'OWNER']);
    });

    it('a member who accepts another invitation to the same tenant keeps the membership; the invitation is consumed', async () => {
      const { tenantId, subject, email } = await tenantWithOwner();
      const tokenHash = await invite(tenantId, email, 'READ_ONLY');
      const reply = await console_.signIn({ identity: person(subject, email, { amr: ['mfa'] }), invitationTokenHash: tokenHash });
      expect(reply.principal.user?.role).toBe('OWNER');
      expect(await ctx.sql.query('SELECT 1 FROM tenant_members WHERE tenant_id = $1', [tenantId])).toMatchObject({ rowCount: 1 });
      expect(await ctx.sql.query('SELECT 1 FROM tenant_invitations WHERE token_hash = $1', [tokenHash])).toMatchObject({ rowCount: 0 });
      expect(await outbox(tenantId, 'tenant.member.created')).toHaveLength(1);
    });

    it('refuses an unverified email and another email than the invited one, recorded in the tenant with the email as the name', async () => {
      const tenantId = await insertTenant(ctx.sql);
      const tokenHash = await invite(tenantId, 'amy@example.com');
      expect(
        await problemOf(console_.signIn({ identity: person('sub-amy', 'amy@example.com', { emailVerified: false }), invitationTokenHash: tokenHash })),
      ).toMatchObject({ status: 403, detail: EMAIL_MISMATCH });
      expect(
        await problemOf(console_.signIn({ identity: person('sub-amy', 'eve@example.com'), invitationTokenHash: tokenHash, source: '192.0.2.1' })),
      ).toMatchObject({
        status: 403,
        detail: EMAIL_MISMATCH,
      });
      expect(await problemOf(console_.signIn({ identity: { ...person('sub-amy', ''), email: undefined }, invitationTokenHash: tokenHash }))).toMatchObject({
        status: 403,
        detail: EMAIL_MISMATCH,
      });
      const refused = (await refusals('email_mismatch')).filter((r) => r.tenant_id === tenantId);
      expect(refused).toHaveLength(3);
      expect(refused[1]).toMatchObject({ actor_type: 'anonymous', actor_name: 'eve@example.com', source: '192.0.2.1' });
      expect(JSON.stringify(refused)).not.toContain(tokenHash);
      expect(await outbox(tenantId, 'console.sign-in-refused')).toHaveLength(3);
      // nothing was created, and the invitation still works for the right person
      expect(await ctx.sql.query('SELECT 1 FROM users WHERE subject = $1', ['sub-amy'])).toMatchObject({ rowCount: 0 });
      expect((await console_.signIn({ identity: person('sub-amy', 'amy@example.com'), invitationTokenHash: tokenHash })).principal.user?.role).toBe('OWNER');
    });

    it('refuses an expired invitation and an unknown one', async () => {
      const tenantId = await insertTenant(ctx.sql);
      const tokenHash = await invite(tenantId, 'late@example.com', 'ADMIN', -1000);
      expect(await problemOf(console_.signIn({ identity: person('sub-late', 'late@example.com'), invitationTokenHash: tokenHash }))).toMatchObject({
        status: 403,
        detail: INVITATION_INVALID,
      });
      expect((await refusals('invitation_invalid')).filter((r) => r.tenant_id === tenantId)).toHaveLength(1);
      expect(await problemOf(console_.signIn({ identity: person('sub-late', 'late@example.com'), invitationTokenHash: sha256Hex('nothing') }))).toMatchObject({
        status: 403,
        detail: INVITATION_INVALID,
      });
      expect(await ctx.sql.query('SELECT 1 FROM tenant_members WHERE tenant_id = $1', [tenantId])).toMatchObject({ rowCount: 0 });
    });
  });

  // ------------------------------------------------------------ returning people

  describe('a returning person', () => {
    it('is found by issuer and subject (profile refreshed), never by email alone', async () => {
      const { tenantId, subject, email } = await tenantWithOwner();
      const reply = await console_.signIn({ identity: person(subject, email, { givenName: 'Janet' }) });
      expect(reply.principal).toMatchObject({ tenantId, user: { role: 'OWNER', email } });
      expect((await ctx.sql.query('SELECT first_name FROM users WHERE subject = $1', [subject])).rows[0].first_name).toBe('Janet');
      // a new verified address is kept; an unverified one never replaces it (it names the person in the audit log)
      const moved = `moved-${email}`;
      expect((await console_.signIn({ identity: person(subject, moved) })).principal.user?.email).toBe(moved);
      expect((await console_.signIn({ identity: person(subject, 'ceo@example.com', { emailVerified: false }) })).principal.user?.email).toBe(moved);
      expect((await ctx.sql.query('SELECT email, email_verified FROM users WHERE subject = $1', [subject])).rows[0]).toEqual({
        email: moved,
        email_verified: true,
      });

      // the same email from another subject (or another issuer) is somebody else
      expect(await problemOf(console_.signIn({ identity: person('someone-else', email) }))).toMatchObject({ status: 403, detail: NOT_A_MEMBER });
      expect(await problemOf(console_.signIn({ identity: { ...person(subject, email), issuer: 'https://evil.example.com' } }))).toMatchObject({
        status: 403,
        detail: NOT_A_MEMBER,
      });
      expect((await refusals('not_a_member')).at(-1)).toMatchObject({
        actor_type: 'anonymous',
        actor_name: email,
        tenant_id: '00000000-0000-0000-0000-000000000000',
      });
    });

    it('signs in to the tenant named, else the most recently joined; a tenant they are not a member of is refused', async () => {
      const first = await tenantWithOwner();
      const second = await insertTenant(ctx.sql, {}, 'Second');
      await tenantWithOwnerIn(second);
      await console_.signIn({ identity: person(first.subject, first.email), invitationTokenHash: await invite(second, first.email, 'ADMIN') });

      expect((await console_.signIn({ identity: person(first.subject, first.email) })).principal).toMatchObject({ tenantId: second, user: { role: 'ADMIN' } });
      const named = await console_.signIn({ identity: person(first.subject, first.email), tenantId: first.tenantId });
      expect(named.principal).toMatchObject({ tenantId: first.tenantId, user: { role: 'OWNER' } });
      expect(named.tenants?.map((t) => t.id)).toEqual([second, first.tenantId]);

      const stranger = await insertTenant(ctx.sql);
      expect(await problemOf(console_.signIn({ identity: person(first.subject, first.email), tenantId: stranger }))).toMatchObject({
        status: 403,
        detail: NOT_A_MEMBER,
      });
      expect((await refusals('not_a_member')).filter((r) => r.tenant_id === stranger)).toMatchObject([{ actor_type: 'user', actor_name: first.email }]);
      expect(await outbox(stranger, 'console.sign-in-refused')).toMatchObject([{ data: { method: 'oidc', reason: 'not_a_member' } }]);
    });

    async function tenantWithOwnerIn(tenantId: string) {
      clock += 1_000;
      const subject = randomUUID();
      const email = `owner-${subject.slice(0, 8)}@example.com`;
      await console_.signIn({ identity: person(subject, email), invitationTokenHash: await invite(tenantId, email) });
    }

    it('a tenant that requires MFA refuses a sign-in without a second factor (amr), and accepts one with it', async () => {
      const { tenantId, subject, email } = await tenantWithOwner({ console_require_mfa: true });
      expect(await problemOf(console_.signIn({ identity: person(subject, email, { amr: ['pwd'] }) }))).toMatchObject({ status: 403, detail: MFA_REQUIRED });
      expect(await problemOf(console_.signIn({ identity: person(subject, email, { amr: undefined }) }))).toMatchObject({ status: 403, detail: MFA_REQUIRED });
      expect((await refusals('mfa_required')).filter((r) => r.tenant_id === tenantId)).toHaveLength(2);
      for (const amr of [['pwd', 'otp'], ['hwk'], ['mfa']]) {
        expect((await console_.signIn({ identity: person(subject, email, { amr }) })).principal.tenantId).toBe(tenantId);
      }
      // an invitation to such a tenant is not accepted without one either (and stays usable)
      const tokenHash = await invite(tenantId, 'new@example.com', 'READ_ONLY');
      expect(await problemOf(console_.signIn({ identity: person('sub-new', 'new@example.com'), invitationTokenHash: tokenHash }))).toMatchObject({
        status: 403,
        detail: MFA_REQUIRED,
      });
      expect(await ctx.sql.query('SELECT 1 FROM tenant_invitations WHERE token_hash = $1', [tokenHash])).toMatchObject({ rowCount: 1 });
    });

    it('a removed member is signed out at the next request, and cannot sign in again', async () => {
      const { tenantId, subject, email } = await tenantWithOwner();
      const open = await console_.signIn({ identity: person(subject, email) });
      await ctx.sql.query('DELETE FROM tenant_members WHERE tenant_id = $1', [tenantId]);
      expect(await console_.authenticate(sha256Hex(open.sessionId))).toEqual({ principal: null });
      expect(await sessionRow(open.sessionId)).toBeUndefined();
      expect(await problemOf(console_.signIn({ identity: person(subject, email) }))).toMatchObject({ status: 403, detail: NOT_A_MEMBER });
    });

    it("a role change applies at the next request; a suspended tenant's session is refused with its 403", async () => {
      const { tenantId, reply } = await tenantWithOwner();
      const dev = await console_.signIn({
        identity: person('sub-role', 'role@example.com'),
        invitationTokenHash: await invite(tenantId, 'role@example.com', 'DEVELOPER'),
      });
      await ctx.sql.query(`UPDATE tenant_members SET role = 'READ_ONLY' WHERE user_id = $1`, [dev.principal.applicationId]);
      expect(await principalOfSession(dev.sessionId)).toMatchObject({ permissions: [...ROLES.READ_ONLY.permissions], user: { role: 'READ_ONLY' } });
      await ctx.sql.query('UPDATE tenants SET suspended_at = now() WHERE id = $1', [tenantId]);
      expect(await problemOf(console_.authenticate(sha256Hex(reply.sessionId)))).toMatchObject({ status: 403, detail: expect.stringContaining('suspended') });
      expect(await problemOf(console_.signIn({ identity: person('sub-role', 'role@example.com') }))).toMatchObject({ status: 403 });
      expect((await refusals('tenant_suspended')).filter((r) => r.tenant_id === tenantId)).toHaveLength(1);
    });
  });

  // ------------------------------------------------------------ sessions

  describe('sessions', () => {
    it('end after the idle timeout; a request within it keeps them alive (last_seen_at written at most every 5 s)', async () => {
      const { reply } = await tenantWithOwner();
      const idHash = sha256Hex(reply.sessionId);
      const start = clock;
      clock = start + 1_000;
      expect((await console_.authenticate(idHash)).expiresAt).toBe(new Date(start + LIMITS.idleTimeoutMs).toISOString());
      expect((await sessionRow(reply.sessionId)).last_seen_at.getTime()).toBe(start);
      clock = start + 50_000;
      expect((await console_.authenticate(idHash)).expiresAt).toBe(new Date(start + 50_000 + LIMITS.idleTimeoutMs).toISOString());
      expect((await sessionRow(reply.sessionId)).last_seen_at.getTime()).toBe(start + 50_000);
      clock = start + 100_000;
      expect((await console_.authenticate(idHash)).principal).not.toBeNull();
      clock = start + 100_000 + LIMITS.idleTimeoutMs;
      expect(await console_.authenticate(idHash)).toEqual({ principal: null });
      expect(await sessionRow(reply.sessionId)).toBeUndefined();
    });

    it('end at their maximum age however active, never announced past it', async () => {
      const { reply } = await tenantWithOwner();
      const idHash = sha256Hex(reply.sessionId);
      const start = clock;
      clock = start + LIMITS.maxAgeMs - 30_000;
      await ctx.sql.query('UPDATE console_sessions SET last_seen_at = $1 WHERE id_hash = $2', [new Date(clock - 10_000), idHash]);
      expect((await console_.authenticate(idHash)).expiresAt).toBe(new Date(start + LIMITS.maxAgeMs).toISOString());
      clock = start + LIMITS.maxAgeMs;
      expect(await console_.authenticate(idHash)).toEqual({ principal: null });
      expect(await sessionRow(reply.sessionId)).toBeUndefined();
    });

    it('an unknown session authenticates nothing', async () => {
      expect(await console_.authenticate(sha256Hex('nope'))).toEqual({ principal: null });
      expect(await console_.signOut(sha256Hex('nope'))).toEqual({ ended: 0 });
    });

    it("past the per-person cap (all tenants) a sign-in ends the person's oldest session, announced", async () => {
      const { subject, email, reply: first } = await tenantWithOwner();
      const more = [];
      for (let i = 0; i < LIMITS.maxSessionsPerKey - 1; i++) {
        clock += 1_000;
        more.push(await console_.signIn({ identity: person(subject, email) }));
      }
      expect(await principalOfSession(first.sessionId)).not.toBeNull();
      bus.published.length = 0;
      clock += 1_000;
      const last = await console_.signIn({ identity: person(subject, email) });
      expect(await principalOfSession(first.sessionId)).toBeNull();
      for (const s of [...more, last]) expect(await principalOfSession(s.sessionId)).not.toBeNull();
      expect(bus.published).toEqual([{ subject: SUBJECTS.events.authInvalidated, payload: { consoleSessions: [sha256Hex(first.sessionId)] } }]);
      expect(await ctx.sql.query('SELECT 1 FROM console_sessions WHERE user_id = $1', [last.principal.applicationId])).toMatchObject({
        rowCount: LIMITS.maxSessionsPerKey,
      });
    });

    it('the cap holds per key too', async () => {
      const tenantId = await insertTenant(ctx.sql);
      const { key } = await keyOf(tenantId, 'management');
      const opened = [];
      for (let i = 0; i <= LIMITS.maxSessionsPerKey; i++) {
        clock += 1_000;
        opened.push(await console_.signIn({ keyHash: sha256Hex(key) }));
      }
      expect(await principalOfSession(opened[0]?.sessionId as string)).toBeNull();
      expect(await ctx.sql.query('SELECT 1 FROM console_sessions WHERE key_hash = $1', [sha256Hex(key)])).toMatchObject({ rowCount: LIMITS.maxSessionsPerKey });
    });

    it('sign-out ends one session; everywhere ends every session of the person (all tenants), announced after commit', async () => {
      const a = await tenantWithOwner();
      const b = await insertTenant(ctx.sql);
      const inB = await console_.signIn({ identity: person(a.subject, a.email), invitationTokenHash: await invite(b, a.email) });
      const again = await console_.signIn({ identity: person(a.subject, a.email), tenantId: a.tenantId });
      const someoneElse = await tenantWithOwner();

      bus.published.length = 0;
      expect(await console_.signOut(sha256Hex(again.sessionId))).toEqual({ ended: 1 });
      expect(bus.published).toEqual([{ subject: SUBJECTS.events.authInvalidated, payload: { consoleSessions: [sha256Hex(again.sessionId)] } }]);
      expect(await principalOfSession(again.sessionId)).toBeNull();
      expect(await principalOfSession(a.reply.sessionId)).not.toBeNull();

      bus.published.length = 0;
      expect(await console_.signOut(sha256Hex(inB.sessionId), true)).toEqual({ ended: 2 });
      expect((bus.published[0]?.payload as { consoleSessions: string[] }).consoleSessions.sort()).toEqual(
        [sha256Hex(a.reply.sessionId), sha256Hex(inB.sessionId)].sort(),
      );
      expect(await principalOfSession(a.reply.sessionId)).toBeNull();
      expect(await principalOfSession(someoneElse.reply.sessionId)).not.toBeNull();
    });

    it("sign-out everywhere with a key ends that key's sessions only", async () => {
      const tenantId = await insertTenant(ctx.sql);
      const one = await keyOf(tenantId, 'management');
      const two = await keyOf(tenantId, 'management');
      const s1 = await console_.signIn({ keyHash: sha256Hex(one.key) });
      const s2 = await console_.signIn({ keyHash: sha256Hex(one.key) });
      const other = await console_.signIn({ keyHash: sha256Hex(two.key) });
      expect(await console_.signOut(sha256Hex(s1.sessionId), true)).toEqual({ ended: 2 });
      expect(await principalOfSession(s2.sessionId)).toBeNull();
      expect(await principalOfSession(other.sessionId)).not.toBeNull();
    });

    it('ended sessions are deleted at the next sign-in (no timer)', async () => {
      const { reply, subject, email } = await tenantWithOwner();
      // only a few are deleted at each sign-in: here, the one of this test
      await ctx.sql.query('DELETE FROM console_sessions WHERE id_hash <> $1', [sha256Hex(reply.sessionId)]);
      clock += LIMITS.idleTimeoutMs + 1;
      await console_.signIn({ identity: person(subject, email) });
      expect(await sessionRow(reply.sessionId)).toBeUndefined();
    });
  });
});
