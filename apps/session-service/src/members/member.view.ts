import { withStamps, type MemberRole, type MemberView, type UserView } from '@coffer/contracts';
import type { MemberWithUser } from './member.repository';

/** The mirrored service's member: the user (its identity provider's issuer as `provider`), both creation names. */
export function toMemberView(m: MemberWithUser): MemberView {
  const user: UserView = { id: m.userId, email: m.user?.email ?? '' };
  if (m.user?.firstName) user.first_name = m.user.firstName;
  if (m.user?.lastName) user.last_name = m.user.lastName;
  if (m.user?.picture) user.picture = m.user.picture;
  if (m.user?.issuer) user.provider = m.user.issuer;
  const created = m.createdAt.toISOString();
  return withStamps<MemberView>({ id: m.id, tenant_id: m.tenantId, user, role: m.role as MemberRole, created_at: created, created_date: created }, m);
}
