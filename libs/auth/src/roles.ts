import type { MemberRole } from '@coffer/contracts';
import { ALL_MANAGEMENT_PERMISSIONS } from './permissions';

/**
 * What each member role may do (docs/members.md, "Roles"). People act as management principals: no role reads token
 * data, whatever its permissions (a person in the console configures the vault; applications use the data).
 */
const EVERYTHING = [...ALL_MANAGEMENT_PERMISSIONS];
const ALL_BUT_OWNERSHIP = EVERYTHING.filter((p) => p !== 'tenant:owner:transfer');

/** applications, reactors, proxies and webhooks, read and write; the tenant, its log and its members read-only */
const DEVELOPER = EVERYTHING.filter(
  (p) => /^(application|reactor|proxy|webhook):/.test(p) || ['tenant:read', 'log:read', 'tenant:member:read', 'tenant:invitation:read'].includes(p),
);

const READ_ONLY = EVERYTHING.filter((p) => p.endsWith(':read'));

export const ROLES: Record<MemberRole, { description: string; permissions: readonly string[] }> = {
  OWNER: { description: 'Everything, and the only one who may hand the tenant to another member', permissions: EVERYTHING },
  ADMIN: { description: 'Everything but transferring ownership; may not change or remove the owner', permissions: ALL_BUT_OWNERSHIP },
  DEVELOPER: {
    description: 'Applications, reactors, proxies and webhooks; reads the tenant, its log and its members',
    permissions: DEVELOPER,
  },
  READ_ONLY: { description: 'Reads everything a management key may read; changes nothing', permissions: READ_ONLY },
};

export function roleOf(name: string): { description: string; permissions: readonly string[] } | undefined {
  return Object.prototype.hasOwnProperty.call(ROLES, name) ? ROLES[name as MemberRole] : undefined;
}

/** The member roles for `GET /roles`. */
export function roleCatalog(): { name: MemberRole; description: string; permissions: string[] }[] {
  return (Object.keys(ROLES) as MemberRole[]).map((name) => ({ name, description: ROLES[name].description, permissions: [...ROLES[name].permissions] }));
}
