import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  CreateInvitationRequest,
  DEFAULT_INVITATION_ROLE,
  FieldErrors,
  INVITATION_STATUSES,
  INVITATION_TTL_HOURS,
  InvitationLookupMessage,
  actorOf,
  conflict,
  newEvent,
  notFound,
  offsetList,
  validateContract,
  type InvitationStatus,
  type InvitationView,
  type Page,
  type Principal,
} from '@coffer/contracts';
import { sha256Hex } from '@coffer/crypto';
import { deferUntilCommitted, isUniqueViolation } from '@coffer/db';
import { RecordedWrites, actedBy, caller, type AuditAct, asCaller } from '@coffer/operations';
import { TenantRepository } from '../tenants/tenant.repository';
import { InvitationRepository, type InvitationRow } from './invitation.repository';
import { InvitationMail } from './invitation-mail';
import { toInvitationView } from './invitation.view';

const TTL_MS = INVITATION_TTL_HOURS * 3_600_000;
const ALREADY_MEMBER = 'A member of the tenant already signs in with this email';
const ALREADY_INVITED = 'This email has a pending invitation: resend it or revoke it first';

/** The link's secret (32 random bytes, base64url) and what is stored of it (its SHA-256, hex). */
function newLinkSecret(): { secret: string; tokenHash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, tokenHash: sha256Hex(secret) };
}

/**
 * Invitations to a tenant (`/tenants/self/invitations`; docs/members.md). An invitation is a link mailed to one
 * address: only the SHA-256 of its secret is stored, it works for INVITATION_TTL_HOURS, and a resend replaces the
 * secret (the old link stops working) and extends the expiry. One invitation per email and tenant: a pending one is
 * a conflict (resend it), an expired one is replaced. The console sign-in accepts it (console/), deleting the row.
 *
 * Changes commit with their audit record and their event; the mail goes once they committed, and a mail that could
 * not be sent never fails the call. The secret is never logged, never in a view, an event or an audit record.
 */
@Injectable()
export class InvitationsService {
  /** the sends started and not yet finished (tests wait for them; nothing else does) */
  readonly sending = new Set<Promise<boolean>>();

  constructor(
    private readonly invitations: InvitationRepository,
    private readonly tenants: TenantRepository,
    private readonly mail: InvitationMail,
    private readonly writes: RecordedWrites,
  ) {}

  /** `POST /tenants/self/invitations` `{email, role?}` (role ADMIN by default). */
  async create(body: unknown): Promise<InvitationView> {
    const { principal, traceId } = asCaller();
    const req = validateContract(CreateInvitationRequest, body);
    const email = req.email;
    const role = req.role ?? DEFAULT_INVITATION_ROLE;
    const { secret, tokenHash } = newLinkSecret();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + TTL_MS);
    const actor = actorOf(principal);
    let created: { invitation: InvitationRow; tenantName: string };
    try {
      created = await this.writes.commit(
        async () => {
          if (await this.invitations.memberHasEmail(principal.tenantId, email)) throw conflict(ALREADY_MEMBER);
          const existing = await this.invitations.findByEmail(principal.tenantId, email);
          if (existing) {
            if (existing.expiresAt > now) throw conflict(ALREADY_INVITED);
            // an expired invitation is replaced: revoked, with its record and event, then made anew
            await this.writes.commit(
              () => this.invitations.delete(principal.tenantId, existing.id),
              () => ({
                events: [newEvent('tenant.invitation.deleted', principal.tenantId, traceId, actor, { invitation: toInvitationView(existing, now) })],
                audit: act(principal, traceId, 'delete', existing.id, { email: { old: existing.email } }),
              }),
            );
          }
          const invitation = await this.invitations.create({
            id: randomUUID(),
            tenantId: principal.tenantId,
            email,
            role,
            tokenHash,
            expiresAt,
            createdBy: principal.applicationId,
          });
          return { invitation, tenantName: await this.tenantName(principal.tenantId) };
        },
        ({ invitation }) => ({
          events: [newEvent('tenant.invitation.created', principal.tenantId, traceId, actor, { invitation: toInvitationView(invitation, now) })],
          audit: act(principal, traceId, 'create', invitation.id, {
            email: { new: email },
            role: { new: role },
            expires_at: { new: expiresAt.toISOString() },
            token: { redacted: true },
          }),
        }),
      );
    } catch (err) {
      // the same email invited by two calls at once (tenant_invitations_tenant_id_email_key)
      if (isUniqueViolation(err)) throw conflict(ALREADY_INVITED);
      throw err;
    }
    this.mailOnceCommitted(created.invitation, created.tenantName, secret);
    return toInvitationView(created.invitation);
  }

  async list(query: Record<string, unknown>): Promise<Page<InvitationView>> {
    const { tenantId } = caller();
    // one instant decides both which invitations count as expired in the filter and the status each one shows
    const now = new Date();
    return offsetList(
      query,
      statusFilter,
      (offset, size, status) => this.invitations.page(tenantId, offset, size, status, now),
      (row) => toInvitationView(row, now),
    );
  }

  async get(id: string): Promise<InvitationView> {
    const invitation = await this.invitations.find(caller().tenantId, id);
    if (!invitation) throw notFound('invitation');
    return toInvitationView(invitation);
  }

  /** `POST /tenants/self/invitations/{id}/resend`: a new link (the old one stops working), valid for the full TTL again. */
  async resend(id: string): Promise<InvitationView> {
    const { principal, traceId } = asCaller();
    const { secret, tokenHash } = newLinkSecret();
    const expiresAt = new Date(Date.now() + TTL_MS);
    const updated = await this.writes.commit(
      async () => {
        const existing = await this.invitations.find(principal.tenantId, id);
        if (!existing) throw notFound('invitation');
        if (await this.invitations.memberHasEmail(principal.tenantId, existing.email)) throw conflict(ALREADY_MEMBER);
        const invitation = await this.invitations.replaceSecret(principal.tenantId, id, tokenHash, expiresAt, principal.applicationId);
        if (!invitation) throw notFound('invitation');
        return { invitation, previousExpiry: existing.expiresAt, tenantName: await this.tenantName(principal.tenantId) };
      },
      ({ previousExpiry }) => ({
        audit: act(principal, traceId, 'resend', id, {
          expires_at: { old: previousExpiry.toISOString(), new: expiresAt.toISOString() },
          token: { redacted: true },
        }),
      }),
    );
    this.mailOnceCommitted(updated.invitation, updated.tenantName, secret);
    return toInvitationView(updated.invitation);
  }

  /** `DELETE /tenants/self/invitations/{id}`: revoked, its link stops working. */
  async delete(id: string): Promise<void> {
    const { principal, traceId } = asCaller();
    await this.writes.commit(
      async () => {
        const existing = await this.invitations.find(principal.tenantId, id);
        if (!existing || !(await this.invitations.delete(principal.tenantId, id))) throw notFound('invitation');
        return existing;
      },
      (existing) => ({
        events: [newEvent('tenant.invitation.deleted', principal.tenantId, traceId, actorOf(principal), { invitation: toInvitationView(existing) })],
        audit: act(principal, traceId, 'delete', id, { email: { old: existing.email } }),
      }),
    );
  }

  /** Before sign-in (the gateway's invitation page): what a pending link names, or null (unknown, used, expired). */
  async preview(body: unknown): Promise<{ tenant_name: string; email: string; role: string } | null> {
    const { tokenHash } = body instanceof InvitationLookupMessage ? body : validateContract(InvitationLookupMessage, body);
    const found = await this.invitations.preview(tokenHash);
    return found ? { tenant_name: found.tenantName, email: found.email, role: found.role } : null;
  }

  private async tenantName(tenantId: string): Promise<string> {
    return (await this.tenants.find(tenantId))?.name ?? 'a tenant';
  }

  /**
   * The mail, once the invitation committed: at once when this call's own transaction already did, else when the
   * enclosing one does (an idempotent write's, opened by the dispatcher), and never if it rolls back (a link that
   * would not work). Started, not waited for: the call answers whatever the relay does, and a failure never fails it.
   */
  private mailOnceCommitted(invitation: InvitationRow, tenantName: string, secret: string): void {
    const start = () => {
      const sending = this.mail.send({ email: invitation.email, role: invitation.role, expiresAt: invitation.expiresAt, tenantName, secret });
      this.sending.add(sending);
      void sending.finally(() => this.sending.delete(sending));
    };
    if (!deferUntilCommitted(start)) start();
  }
}

function act(principal: Principal, traceId: string | undefined, operation: string, entityId: string, changes: AuditAct['changes']): AuditAct {
  return { ...actedBy(principal, traceId), operation, entityType: 'tenant_invitation', entityId, changes };
}

/** `status`: PENDING or EXPIRED (any case; the last of repeated ones counts). */
function statusFilter(query: Record<string, unknown>, errors: FieldErrors): InvitationStatus | undefined {
  const raw = query['status'];
  if (raw === undefined) return undefined;
  const value = String(Array.isArray(raw) ? raw[raw.length - 1] : raw)
    .trim()
    .toUpperCase();
  if ((INVITATION_STATUSES as readonly string[]).includes(value)) return value as InvitationStatus;
  errors.add('status', `must be one of ${INVITATION_STATUSES.join(', ')}`);
  return undefined;
}
