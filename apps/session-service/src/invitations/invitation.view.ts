import { withStamps, type InvitationView, type MemberRole } from '@coffer/contracts';
import type { InvitationRow } from './invitation.repository';

/** An invitation as the API shows it: its status from its expiry, never its link's secret nor the secret's hash. */
export function toInvitationView(i: InvitationRow, now = new Date()): InvitationView {
  return withStamps<InvitationView>(
    {
      id: i.id,
      tenant_id: i.tenantId,
      email: i.email,
      role: i.role as MemberRole,
      status: i.expiresAt.getTime() > now.getTime() ? 'PENDING' : 'EXPIRED',
      expires_at: i.expiresAt.toISOString(),
      created_at: i.createdAt.toISOString(),
    },
    i,
  );
}
