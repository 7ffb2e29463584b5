import type { MemberRole, MemberView } from '@coffer/contracts';
import type { MemberRow, UserRow } from './console.repository';

/**
 * A member as the API shows it (contracts MemberView), for the tenant.member.created event of an accepted invitation.
 * The members API (apps/session-service/src/members/) was being written at the same time and had no mapper to reuse
 * yet: once it has one, this should give way to it so both events and responses stay the same shape.
 */
export function memberViewOf(member: MemberRow, user: UserRow): MemberView {
  const view: MemberView = {
    id: member.id,
    tenant_id: member.tenantId,
    user: {
      id: user.id,
      email: user.email,
      ...(user.firstName ? { first_name: user.firstName } : {}),
      ...(user.lastName ? { last_name: user.lastName } : {}),
      ...(user.picture ? { picture: user.picture } : {}),
      provider: user.issuer,
    },
    role: member.role as MemberRole,
    created_at: member.createdAt.toISOString(),
    created_date: member.createdAt.toISOString(),
  };
  if (member.createdBy) view.created_by = member.createdBy;
  if (member.modifiedBy) view.modified_by = member.modifiedBy;
  if (member.modifiedAt) view.modified_at = member.modifiedAt.toISOString();
  return view;
}
