import { Injectable } from '@nestjs/common';
import {
  FieldErrors,
  MAX_LIST_FILTER_VALUES,
  SUBJECTS,
  TransferOwnerRequest,
  UpdateMemberRequest,
  actorOf,
  conflict,
  forbidden,
  isUuid,
  newEvent,
  notFound,
  offsetList,
  validateContract,
  type MemberView,
  type Page,
  type Principal,
} from '@coffer/contracts';
import { EventBus } from '@coffer/bus';
import { sqlStateOf } from '@coffer/db';
import { RecordedWrites, actedBy, caller, type AuditAct, type ChangeRecord, asCaller } from '@coffer/operations';
import { MemberRepository, type MemberFilter, type MemberWithUser } from './member.repository';
import { toMemberView } from './member.view';

export const OWNER_PROTECTED = 'The owner cannot be removed or demoted: transfer ownership first';

/**
 * The members of a tenant (`/tenants/self/members`, `/tenants/self/owner`; docs/members.md). Rules:
 *
 * - the OWNER is never changed nor removed here (409): ownership moves only by a transfer, which demotes the old
 *   owner to ADMIN and promotes the new one in one transaction;
 * - a person may change their own role or remove themselves (leave the tenant), unless they are the owner: nothing
 *   is gained by refusing it (an ADMIN already holds every permission a role can give, and a member who may not
 *   update or delete members cannot call these at all), and the owner rule keeps the tenant from losing its owner;
 * - a transfer is made by the owner in person, or by a management key with tenant:owner:transfer (break-glass: a tenant
 *   whose owner left the company); any other person is refused (403), whatever their role.
 *
 * Every change commits with its audit record and its event; once committed, the gateway is told to drop the
 * person's cached principals in the tenant (`auth.invalidated` with `userId`).
 */
@Injectable()
export class MembersService {
  constructor(
    private readonly members: MemberRepository,
    private readonly events: EventBus,
    private readonly writes: RecordedWrites,
  ) {}

  async list(query: Record<string, unknown>): Promise<Page<MemberView>> {
    const { tenantId } = caller();
    return offsetList(query, listFilter, (offset, size, filter) => this.members.page(tenantId, offset, size, filter), toMemberView);
  }

  async get(id: string): Promise<MemberView> {
    const member = await this.members.find(caller().tenantId, id);
    if (!member) throw notFound('member');
    return toMemberView(member);
  }

  /** `PUT /tenants/self/members/{id}` `{role}`: an assignable role (ADMIN, DEVELOPER, READ_ONLY), never the owner's. */
  async update(id: string, body: unknown): Promise<MemberView> {
    const { principal, traceId } = asCaller();
    const req = validateContract(UpdateMemberRequest, body);
    const { member, before } = await this.writes.commit(
      async () => {
        const existing = await this.members.find(principal.tenantId, id);
        if (!existing) throw notFound('member');
        if (existing.role === 'OWNER') throw conflict(OWNER_PROTECTED);
        if (existing.role === req.role) return { member: existing, before: null };
        const updated = await this.members.setRoleUnlessOwner(principal.tenantId, id, req.role, principal.applicationId);
        // a transfer to this member committed between the read and the update, or the member was removed
        if (!updated) throw (await this.members.find(principal.tenantId, id)) ? conflict(OWNER_PROTECTED) : notFound('member');
        return { member: updated, before: existing };
      },
      // the same role again changes nothing: nothing to announce or audit
      ({ member, before }): ChangeRecord =>
        before
          ? {
              events: [newEvent('tenant.member.updated', principal.tenantId, traceId, actorOf(principal), { member: toMemberView(member) })],
              audit: act(principal, traceId, 'update', member.id, { role: { old: before.role, new: member.role } }),
            }
          : {},
    );
    if (before) await this.invalidate(principal.tenantId, member.userId);
    return toMemberView(member);
  }

  /** `DELETE /tenants/self/members/{id}`: the membership and the person's console sessions in the tenant end. */
  async delete(id: string): Promise<void> {
    const { principal, traceId } = asCaller();
    const removed = await this.writes.commit(
      async () => {
        const existing = await this.members.find(principal.tenantId, id);
        if (!existing) throw notFound('member');
        if (existing.role === 'OWNER') throw conflict(OWNER_PROTECTED);
        if (!(await this.members.deleteUnlessOwner(principal.tenantId, id))) {
          throw (await this.members.find(principal.tenantId, id)) ? conflict(OWNER_PROTECTED) : notFound('member');
        }
        await this.members.deleteConsoleSessions(principal.tenantId, existing.userId);
        return existing;
      },
      (existing) => ({
        events: [newEvent('tenant.member.deleted', principal.tenantId, traceId, actorOf(principal), { member: toMemberView(existing) })],
        audit: act(principal, traceId, 'delete', existing.id, { user_id: { old: existing.userId }, role: { old: existing.role } }),
      }),
    );
    await this.invalidate(principal.tenantId, removed.userId);
  }

  /** `GET /tenants/self/owner`: 404 while the tenant has none (no one signed in to it yet). */
  async owner(): Promise<MemberView> {
    const owner = await this.members.findOwner(caller().tenantId);
    if (!owner) throw notFound('owner');
    return toMemberView(owner);
  }

  /**
   * `PUT /tenants/self/owner` `{member_id}`: in one transaction the owner becomes ADMIN and the member OWNER. The
   * member already the owner is returned unchanged. Ownership changes of a tenant are serialised (an advisory lock),
   * so two transfers at once cannot both see the same owner.
   */
  async transferOwner(body: unknown): Promise<MemberView> {
    const { principal, traceId } = asCaller();
    const req = body instanceof TransferOwnerRequest ? body : validateContract(TransferOwnerRequest, body);
    let result: Transfer;
    try {
      result = await this.writes.commit(
        async (): Promise<Transfer> => {
          await this.members.lockOwnership(principal.tenantId);
          const current = await this.members.findOwner(principal.tenantId);
          if (principal.user && current?.userId !== principal.user.id) throw forbidden('Only the owner may transfer the ownership of the tenant');
          const target = await this.members.find(principal.tenantId, req.member_id);
          if (!target) throw notFound('member');
          if (target.role === 'OWNER') return { owner: target, previous: null, changed: false };
          const previous = current ? await this.members.setRole(principal.tenantId, current.id, 'ADMIN', principal.applicationId) : null;
          const owner = await this.members.setRole(principal.tenantId, target.id, 'OWNER', principal.applicationId);
          if (!owner) throw notFound('member');
          return { owner, previous, changed: true, formerRole: target.role, formerOwnerId: current?.id };
        },
        (t) => (t.changed ? transferRecord(principal, traceId, t) : {}),
      );
    } catch (err) {
      // the first owner made by a console sign-in at the same moment (tenant_members_owner_key)
      if (sqlStateOf(err) === '23505' || (err as { code?: unknown }).code === 'P2002') throw conflict('The ownership of the tenant changed meanwhile: retry');
      throw err;
    }
    if (result.changed) {
      await this.invalidate(principal.tenantId, result.owner.userId);
      if (result.previous) await this.invalidate(principal.tenantId, result.previous.userId);
    }
    return toMemberView(result.owner);
  }

  /** Drops the person's cached principals (API calls and console sessions) in the tenant. */
  private invalidate(tenantId: string, userId: string): Promise<void> {
    return this.events.publish(SUBJECTS.events.authInvalidated, { tenantId, userId });
  }
}

/** An ownership transfer: the new owner, the one it replaced (ADMIN now), and what the new owner was before. */
interface Transfer {
  owner: MemberWithUser;
  previous: MemberWithUser | null;
  changed: boolean;
  formerRole?: string;
  formerOwnerId?: string;
}

/** The tenant.owner.transferred event and the audit records of a transfer that changed something. */
function transferRecord(principal: Principal, traceId: string | undefined, t: Transfer): ChangeRecord {
  const data: Record<string, unknown> = { member: toMemberView(t.owner) };
  if (t.previous) data['previous_owner'] = toMemberView(t.previous);
  const acts: AuditAct[] = [];
  if (t.previous) acts.push(act(principal, traceId, 'update', t.previous.id, { role: { old: 'OWNER', new: 'ADMIN' } }));
  acts.push(
    act(principal, traceId, 'transfer', t.owner.id, {
      role: { old: t.formerRole, new: 'OWNER' },
      ...(t.formerOwnerId ? { previous_owner: { old: t.formerOwnerId } } : {}),
    }),
  );
  return { events: [newEvent('tenant.owner.transferred', principal.tenantId, traceId, actorOf(principal), data)], audit: acts };
}

/** An audit record of a member change, naming the tenant and the actor (the operation's context names them too). */
function act(principal: Principal, traceId: string | undefined, operation: string, entityId: string, changes: AuditAct['changes']): AuditAct {
  return { ...actedBy(principal, traceId), operation, entityType: 'tenant_member', entityId, changes };
}

/** `user_id` (repeatable; a value that is no UUID cannot exist and matches nothing). */
function listFilter(query: Record<string, unknown>, errors: FieldErrors): MemberFilter {
  const v = query['user_id'];
  if (v === undefined) return {};
  const values = (Array.isArray(v) ? v : [v]).map(String);
  if (values.length > MAX_LIST_FILTER_VALUES) errors.add('user_id', `must be given at most ${MAX_LIST_FILTER_VALUES} times`);
  return { userIds: values.filter((id) => isUuid(id)) };
}
