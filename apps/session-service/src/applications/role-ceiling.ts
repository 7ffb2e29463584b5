import { ProblemError, type Principal } from '@coffer/contracts';

/**
 * A person may not make a management credential stronger than their role (docs/members.md, "Roles"): the management
 * permissions of an application they create or change, or whose key they create or regenerate, must be among their
 * own. Otherwise a DEVELOPER could mint a key of the tenant's first management application, or give one
 * tenant:update, and act beyond the role. Keys are not limited this way (they act as the mirrored service's do).
 */
export function assertWithinRole(principal: Principal, type: string, permissions: readonly string[] | undefined): void {
  if (!principal.user || type !== 'management') return;
  const held = new Set(principal.permissions);
  const beyond = (permissions ?? []).filter((p) => !held.has(p));
  if (beyond.length)
    throw new ProblemError(403, `Your role (${principal.user.role}) may not give a management application what it does not hold: ${beyond.join(', ')}`);
}
