import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  ProblemError,
  SUBJECTS,
  actorOf,
  newEvent,
  type Actor,
  type ConsoleAuthenticateReply,
  type ConsoleSignInMessage,
  type ConsoleSignInReply,
  type Principal,
  type TenantSettings,
  type VerifiedIdentity,
} from '@coffer/contracts';
import { roleOf } from '@coffer/auth';
import { PrismaService, Prisma } from '@coffer/db';
import { EventBus } from '@coffer/bus';
import { RecordedWrites, currentTraceId } from '@coffer/operations';
import { sessionServiceConfig } from '../config';
import { AuthenticateService } from '../authenticate/authenticate.service';
import { ApplicationKeyRepository } from '../applications/application-key.repository';
import { TenantRepository } from '../tenants/tenant.repository';
import { ConsoleRepository, type ConsoleSessionRow, type InvitationRow, type Membership, type UserProfile, type UserRow } from './console.repository';
import { toMemberView } from '../members/member.view';
import { MemberRepository } from '../members/member.repository';

/** The console sessions' limits (config.ts: CONSOLE_IDLE_TIMEOUT_MS, CONSOLE_SESSION_MAX_AGE_MS, CONSOLE_MAX_SESSIONS_PER_KEY). */
export interface ConsoleSessionLimits {
  idleTimeoutMs: number;
  maxAgeMs: number;
  /** live sessions of one key or one person (all tenants): past it the oldest ends */
  maxSessionsPerKey: number;
}

/** Injection tokens: the limits (default: the configuration) and the clock (default: Date.now), replaced by tests. */
export const CONSOLE_SESSION_LIMITS = 'CONSOLE_SESSION_LIMITS';
export const CONSOLE_CLOCK = 'CONSOLE_CLOCK';

export const KEY_INVALID = 'The API key is invalid or expired';
export const KEY_KIND = 'Sign in with the key of a management or private application (not a public key or a session key)';
export const KEY_SIGN_IN_OFF = 'Signing in with a management key is turned off for this tenant: sign in with single sign-on';
export const INVITATION_INVALID = 'The invitation is invalid or has expired';
export const EMAIL_MISMATCH = 'Sign in with the verified email address the invitation was sent to';
export const NOT_A_MEMBER = 'You are not a member of any tenant here: ask an administrator for an invitation';
export const MFA_REQUIRED = 'This tenant requires multi-factor authentication: sign in again with a second factor';

/** amr values (RFC 8176) that stand for a second factor */
const SECOND_FACTORS = new Set(['mfa', 'otp', 'hwk', 'sms', 'swk', 'fpt', 'face', 'iris', 'retina']);
/** last_seen_at is written only when older than this: a page's burst of calls costs one write */
const TOUCH_AFTER_MS = 5_000;
/** ended sessions deleted at each sign-in */
const SWEEP_BATCH = 20;

type Method = 'oidc' | 'key';
type Owner = { userId: string } | { keyHash: string };

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** A refusal, recorded (audit, and the tenant's event when the tenant is known) before it is thrown. */
interface Refusal {
  status: number;
  detail: string;
  /** a short code: the audit record's entity id (GET /logs?entity_type=console_session&entity_id=mfa_required) */
  reason: string;
  method: Method;
  actor: Actor;
  tenantId?: string;
}

/** Thrown inside the acceptance's transaction when another sign-in consumed the invitation first. */
class InvitationGone extends Error {}

/**
 * Console sign-in (docs/members.md): a person whose ID token the gateway verified, or a break-glass management or
 * private key, gets a server-side session (any gateway replica serves it). Only SHA-256 hashes of the session's
 * cookie and CSRF token are stored. A person acts with the permissions of their member role in one tenant; a key
 * session acts as the key, resolved afresh on every authenticate (revoking the key ends it). Every refusal is
 * recorded with who tried and why (never a secret); every sign-in too.
 */
@Injectable()
export class ConsoleSignInService {
  private readonly limits: ConsoleSessionLimits;
  private readonly now: () => number;

  constructor(
    private readonly repo: ConsoleRepository,
    private readonly auth: AuthenticateService,
    private readonly keys: ApplicationKeyRepository,
    private readonly tenants: TenantRepository,
    private readonly members: MemberRepository,
    private readonly prisma: PrismaService,
    private readonly writes: RecordedWrites,
    private readonly events: EventBus,
    @Optional() @Inject(CONSOLE_SESSION_LIMITS) limits?: ConsoleSessionLimits,
    @Optional() @Inject(CONSOLE_CLOCK) clock?: () => number,
  ) {
    this.limits = limits ?? configuredLimits();
    this.now = clock ?? Date.now;
  }

  // ------------------------------------------------------------ sign-in

  /** No caller (access none: the credential is in the message); the operation's trace id goes to what it records. */
  async signIn(msg: ConsoleSignInMessage): Promise<ConsoleSignInReply> {
    const traceId = currentTraceId();
    if (!msg.keyHash === !msg.identity) throw new ProblemError(400, 'Sign in with either a key (keyHash) or an identity, not both or neither');
    await this.sweep();
    return msg.keyHash ? this.signInWithKey(msg.keyHash, msg.source, traceId) : this.signInAsPerson(msg, msg.identity as VerifiedIdentity, traceId);
  }

  private async signInWithKey(keyHash: string, source: string | undefined, traceId: string | undefined): Promise<ConsoleSignInReply> {
    const refuse = (r: Omit<Refusal, 'method'>) => this.refuse({ ...r, method: 'key' }, source, traceId);
    let principal: Principal | null;
    try {
      principal = (await this.auth.authenticate(keyHash)).principal;
    } catch (err) {
      // a suspended tenant's key: its 403 as on any call, recorded in the tenant's log
      if (err instanceof ProblemError && err.problem.status === 403) {
        const app = await this.keys.findApplicationByKeyHash(keyHash);
        await this.record(
          {
            status: 403,
            detail: err.problem.detail ?? '',
            reason: 'tenant_suspended',
            method: 'key',
            ...(app ? { tenantId: app.tenantId } : {}),
            actor: keyActor(app?.id, source),
          },
          source,
          traceId,
        );
      }
      throw err;
    }
    // an unknown key is a guess anyone can make for free: no row of its own here (a flood of them would write one
    // each); the gateway counts it with the other refused keys, one audit row per client address and minute
    if (!principal) throw new ProblemError(401, KEY_INVALID);
    const actor = actorOf(principal);
    if (principal.sessionId || principal.applicationType === 'public')
      return refuse({ status: 403, detail: KEY_KIND, reason: 'key_not_allowed', actor, tenantId: principal.tenantId });
    const tenant = await this.tenants.find(principal.tenantId);
    if (!keySignInAllowed(tenant?.settings))
      return refuse({ status: 403, detail: KEY_SIGN_IN_OFF, reason: 'key_sign_in_off', actor, tenantId: principal.tenantId });

    const opened = await this.prisma.transactional(() =>
      this.openSession({ tenantId: principal.tenantId, owner: { keyHash }, actor, method: 'key', source, traceId }),
    );
    return { sessionId: opened.sessionId, csrf: opened.csrf, principal };
  }

  private async signInAsPerson(msg: ConsoleSignInMessage, identity: VerifiedIdentity, traceId: string | undefined): Promise<ConsoleSignInReply> {
    const email = identity.email?.trim().toLowerCase();
    const known = await this.repo.findUser(identity.issuer, identity.subject);
    const actor: Actor = known ? userActor(known) : { id: email ?? 'unknown', type: 'anonymous', ...(email ? { name: email } : {}) };
    const refuse = (r: Omit<Refusal, 'method' | 'actor'>) => this.refuse({ ...r, method: 'oidc', actor }, msg.source, traceId);
    // an address the provider has not verified never replaces the one kept (it names the person in the audit log)
    const profile: UserProfile = {
      ...(email && identity.emailVerified ? { email, emailVerified: true } : {}),
      ...(identity.givenName !== undefined ? { firstName: identity.givenName } : {}),
      ...(identity.familyName !== undefined ? { lastName: identity.familyName } : {}),
      ...(identity.picture !== undefined ? { picture: identity.picture } : {}),
    };

    if (msg.invitationTokenHash) {
      const invitation = await this.repo.findInvitation(msg.invitationTokenHash);
      const at = this.now();
      const tenant = invitation ? await this.tenants.find(invitation.tenantId) : null;
      if (!invitation || invitation.expiresAt.getTime() <= at || !tenant || tenant.deletedAt)
        return refuse({
          status: 403,
          detail: INVITATION_INVALID,
          reason: 'invitation_invalid',
          ...(tenant && !tenant.deletedAt ? { tenantId: tenant.id } : {}),
        });
      if (!identity.emailVerified || !email || email !== invitation.email)
        return refuse({ status: 403, detail: EMAIL_MISMATCH, reason: 'email_mismatch', tenantId: invitation.tenantId });
      await this.refuseIfSuspended(tenant.suspendedAt, { reason: 'tenant_suspended', method: 'oidc', actor, tenantId: tenant.id }, msg.source, traceId);
      if (!mfaSatisfied(tenant.settings, identity.amr)) return refuse({ status: 403, detail: MFA_REQUIRED, reason: 'mfa_required', tenantId: tenant.id });
      try {
        return await this.prisma.transactional(() => this.accept(invitation, identity, { ...profile, email, emailVerified: true }, msg.source, traceId));
      } catch (err) {
        if (err instanceof InvitationGone)
          return refuse({ status: 403, detail: INVITATION_INVALID, reason: 'invitation_invalid', tenantId: invitation.tenantId });
        throw err;
      }
    }

    // a returning person: by issuer and subject only (an email alone never finds anyone)
    const memberships = known ? await this.repo.memberships(known.id) : [];
    const chosen = msg.tenantId ? memberships.find((m) => m.tenantId === msg.tenantId) : memberships[0];
    if (!known || !chosen) {
      const named = msg.tenantId ? await this.tenants.find(msg.tenantId) : null;
      return refuse({ status: 403, detail: NOT_A_MEMBER, reason: 'not_a_member', ...(named && !named.deletedAt ? { tenantId: named.id } : {}) });
    }
    await this.refuseIfSuspended(chosen.suspendedAt, { reason: 'tenant_suspended', method: 'oidc', actor, tenantId: chosen.tenantId }, msg.source, traceId);
    if (!mfaSatisfied(chosen.settings, identity.amr)) return refuse({ status: 403, detail: MFA_REQUIRED, reason: 'mfa_required', tenantId: chosen.tenantId });
    return this.prisma.transactional(async () => {
      const user = await this.repo.updateUser(known.id, profile, new Date(this.now()));
      const opened = await this.openSession({
        tenantId: chosen.tenantId,
        owner: { userId: user.id },
        actor: userActor(user),
        method: 'oidc',
        source: msg.source,
        traceId,
      });
      return {
        sessionId: opened.sessionId,
        csrf: opened.csrf,
        principal: personPrincipal(user.id, user.email, chosen.memberId, chosen.tenantId, chosen.role),
        tenants: tenantsOf(memberships),
      };
    });
  }

  /**
   * Accepts an invitation (inside the caller's transaction): the user of (issuer, subject) created or refreshed, a
   * membership with the invitation's role (OWNER when the tenant has none yet: how a new tenant gets its first owner),
   * unless the person already is a member; the invitation deleted either way (single use); then the session.
   */
  private async accept(
    invitation: InvitationRow,
    identity: VerifiedIdentity,
    profile: UserProfile & { email: string; emailVerified: boolean },
    source: string | undefined,
    traceId: string | undefined,
  ): Promise<ConsoleSignInReply> {
    const at = new Date(this.now());
    if (!(await this.repo.consumeInvitation(invitation.id))) throw new InvitationGone();
    const user = await this.repo.upsertUser(randomUUID(), identity.issuer, identity.subject, profile, at);
    const actor = userActor(user);
    // who the owner is, decided behind the lock every ownership change of the tenant takes (members.service transfer)
    await this.members.lockOwnership(invitation.tenantId);
    let member = await this.repo.findMember(invitation.tenantId, user.id);
    if (!member) {
      const role = (await this.repo.hasOwner(invitation.tenantId)) ? invitation.role : 'OWNER';
      member = await this.writes.commit(
        () =>
          this.repo.createMember({ id: randomUUID(), tenantId: invitation.tenantId, userId: user.id, role, createdBy: invitation.createdBy, createdAt: at }),
        (created) => ({
          events: [newEvent('tenant.member.created', invitation.tenantId, traceId, actor, { member: toMemberView({ ...created, user }) })],
          audit: {
            tenantId: invitation.tenantId,
            actor,
            ...(traceId ? { traceId } : {}),
            operation: 'create',
            entityType: 'tenant_member',
            entityId: created.id,
            changes: { user_id: { new: user.id }, email: { new: user.email }, role: { new: role }, invitation_id: { new: invitation.id } },
          },
        }),
      );
    }
    const opened = await this.openSession({ tenantId: invitation.tenantId, owner: { userId: user.id }, actor, method: 'oidc', source, traceId });
    return {
      sessionId: opened.sessionId,
      csrf: opened.csrf,
      principal: personPrincipal(user.id, user.email, member.id, member.tenantId, member.role),
      tenants: tenantsOf(await this.repo.memberships(user.id)),
    };
  }

  /**
   * A new session (inside the caller's transaction): the owner's oldest sessions past the cap end, then the row (hashes
   * only), its audit record and its console.signed-in event. The ended sessions are announced once committed.
   */
  private async openSession(s: {
    tenantId: string;
    owner: Owner;
    actor: Actor;
    method: Method;
    source: string | undefined;
    traceId: string | undefined;
  }): Promise<{ sessionId: string; csrf: string }> {
    const sessionId = randomBytes(32).toString('base64url');
    const csrf = randomBytes(32).toString('base64url');
    const at = this.now();
    const ended = await this.writes.commit(
      async () => {
        const ended = await this.repo.endOldest(s.owner, this.limits.maxSessionsPerKey - 1);
        await this.repo.createSession({
          idHash: sha256(sessionId),
          csrfHash: sha256(csrf),
          tenantId: s.tenantId,
          ...s.owner,
          createdAt: new Date(at),
          expiresAt: new Date(at + this.limits.maxAgeMs),
        });
        return ended;
      },
      () => ({
        events: [newEvent('console.signed-in', s.tenantId, s.traceId, s.actor, { method: s.method })],
        audit: {
          tenantId: s.tenantId,
          actor: s.actor,
          ...(s.traceId ? { traceId: s.traceId } : {}),
          ...(s.source ? { source: s.source } : {}),
          operation: 'sign-in',
          entityType: 'console_session',
          entityId: randomUUID(),
          changes: { method: { new: s.method } },
        },
      }),
    );
    if (ended.length) await this.events.publish(SUBJECTS.events.authInvalidated, { consoleSessions: ended });
    return { sessionId, csrf };
  }

  // ------------------------------------------------------------ authenticate, sign-out

  /**
   * The principal of a console session's cookie (its SHA-256), or null when it is unknown or has ended (idle, too old,
   * its key revoked, its membership removed, its tenant deleted: the row is deleted then). A suspended tenant's
   * session is refused with the tenant's 403, as its keys are.
   */
  async authenticate(idHash: string): Promise<ConsoleAuthenticateReply> {
    const row = await this.repo.findSession(idHash);
    if (!row) return { principal: null };
    const at = this.now();
    if (row.expiresAt.getTime() <= at || row.lastSeenAt.getTime() + this.limits.idleTimeoutMs <= at) return this.end(row);
    const principal = row.userId ? await this.personOf(row, row.userId) : await this.keyOf(row.keyHash);
    if (!principal) return this.end(row);
    let lastSeen = row.lastSeenAt.getTime();
    if (at - lastSeen >= TOUCH_AFTER_MS) {
      await this.repo.touchSession(row.idHash, new Date(at));
      lastSeen = at;
    }
    return {
      principal,
      csrfHash: row.csrfHash,
      expiresAt: new Date(Math.min(row.expiresAt.getTime(), lastSeen + this.limits.idleTimeoutMs)).toISOString(),
    };
  }

  /** Ends this session, or with `everywhere` every console session of its person (all tenants) or its key. */
  async signOut(idHash: string, everywhere = false): Promise<{ ended: number }> {
    const row = await this.repo.findSession(idHash);
    if (!row) return { ended: 0 };
    const owner: Owner | undefined = row.userId ? { userId: row.userId } : row.keyHash ? { keyHash: row.keyHash } : undefined;
    const ended = await this.prisma.transactional(async () => {
      const gone = await this.repo.deleteSessions(everywhere && owner ? await this.repo.sessionsOf(owner) : [row.idHash]);
      // announced once committed: every gateway replica drops what it cached of them
      if (gone.length) await this.events.publish(SUBJECTS.events.authInvalidated, { consoleSessions: gone });
      return gone;
    });
    return { ended: ended.length };
  }

  private async personOf(row: ConsoleSessionRow, userId: string): Promise<Principal | null> {
    const member = await this.repo.sessionMember(row.tenantId, userId);
    if (!member || member.deletedAt) return null;
    if (member.suspendedAt) await this.auth.standing(row.tenantId); // throws the tenant's 403
    return personPrincipal(userId, member.email, member.memberId, row.tenantId, member.role);
  }

  private async keyOf(keyHash: string | null): Promise<Principal | null> {
    if (!keyHash) return null;
    const { principal } = await this.auth.authenticate(keyHash);
    if (!principal || principal.sessionId || principal.applicationType === 'public') return null;
    // turning key sign-in off ends the key sessions already open
    const tenant = await this.tenants.find(principal.tenantId);
    return keySignInAllowed(tenant?.settings) ? principal : null;
  }

  private async end(row: ConsoleSessionRow): Promise<ConsoleAuthenticateReply> {
    await this.repo.deleteSessions([row.idHash]);
    return { principal: null };
  }

  // ------------------------------------------------------------ refusals, clean-up

  private async refuse(r: Refusal, source: string | undefined, traceId: string | undefined): Promise<never> {
    await this.record(r, source, traceId);
    throw new ProblemError(r.status, r.detail);
  }

  private async refuseIfSuspended(
    suspendedAt: Date | null,
    r: Omit<Refusal, 'status' | 'detail'>,
    source: string | undefined,
    traceId: string | undefined,
  ): Promise<void> {
    if (!suspendedAt || !r.tenantId) return;
    try {
      await this.auth.standing(r.tenantId);
    } catch (err) {
      if (err instanceof ProblemError) await this.record({ ...r, status: err.problem.status, detail: err.problem.detail ?? '' }, source, traceId);
      throw err;
    }
  }

  /** The audit record of a refusal (the global log when no tenant is known) and, in a known tenant, its event. */
  private async record(r: Refusal, source: string | undefined, traceId: string | undefined): Promise<void> {
    await this.writes.record({
      events: r.tenantId ? [newEvent('console.sign-in-refused', r.tenantId, traceId, r.actor, { method: r.method, reason: r.reason })] : [],
      audit: {
        tenantId: r.tenantId ?? null,
        actor: r.actor,
        ...(traceId ? { traceId } : {}),
        ...(source ? { source } : {}),
        operation: 'sign-in-refused',
        entityType: 'console_session',
        entityId: r.reason,
        changes: { method: { new: r.method }, reason: { new: r.detail } },
      },
    });
  }

  /** Deletes a few ended sessions (absolute or idle end): at each sign-in, so no timer is needed. */
  private async sweep(): Promise<void> {
    const at = this.now();
    await this.repo.deleteEnded(new Date(at), new Date(at - this.limits.idleTimeoutMs), SWEEP_BATCH);
  }
}

function configuredLimits(): ConsoleSessionLimits {
  const c = sessionServiceConfig();
  return { idleTimeoutMs: c.consoleIdleTimeoutMs, maxAgeMs: c.consoleSessionMaxAgeMs, maxSessionsPerKey: c.consoleMaxSessionsPerKey };
}

function settingsOf(settings: Prisma.JsonValue | undefined): Partial<TenantSettings> {
  return settings && typeof settings === 'object' && !Array.isArray(settings) ? (settings as Partial<TenantSettings>) : {};
}

/** console_key_sign_in: absent = true */
function keySignInAllowed(settings: Prisma.JsonValue | undefined): boolean {
  return settingsOf(settings).console_key_sign_in !== false;
}

/** console_require_mfa (absent = false), or the token names a second factor */
function mfaSatisfied(settings: Prisma.JsonValue | undefined, amr: string[] | undefined): boolean {
  return settingsOf(settings).console_require_mfa !== true || (amr ?? []).some((m) => SECOND_FACTORS.has(m));
}

function userActor(user: UserRow): Actor {
  return { id: user.id, type: 'user', name: user.email };
}

/** A key that is unknown (or whose tenant is not): named by the address it came from. */
function keyActor(applicationId: string | undefined, source: string | undefined): Actor {
  return applicationId ? { id: applicationId, type: 'application' } : { id: source ?? 'unknown', type: 'anonymous' };
}

/** A person acts as a management principal with the permissions of their member role (docs/members.md). */
function personPrincipal(userId: string, email: string, memberId: string, tenantId: string, role: string): Principal {
  return {
    tenantId,
    applicationId: userId,
    applicationType: 'management',
    permissions: [...(roleOf(role)?.permissions ?? [])],
    user: { id: userId, email, memberId, role },
  };
}

function tenantsOf(memberships: Membership[]): { id: string; name: string; role: string }[] {
  return memberships.map((m) => ({ id: m.tenantId, name: m.tenantName, role: m.role }));
}
