import { Prisma } from '@coffer/db';
import type { Grants, Principal } from '@coffer/contracts';

/**
 * The access decision of libs/auth expressed as SQL, so lists and searches filter (and count) in the database
 * instead of paging over rows the caller cannot see. Results are still checked row by row with decideTokenAccess.
 * A session's predicate is ANDed with its authorizer's (invariant 3: a session never exceeds its authorizer).
 */
export function accessPredicate(principal: Principal, permission: string): Prisma.Sql {
  if (principal.sessionPending || principal.applicationType === 'management') return Prisma.sql`false`;
  const own = grantsPredicate(principal, permission);
  if (!principal.sessionId) return own;
  if (!principal.authorizer) return Prisma.sql`false`;
  return Prisma.sql`(${own} AND ${grantsPredicate(principal.authorizer, permission)})`;
}

function grantsPredicate(grants: Grants, permission: string): Prisma.Sql {
  if (!grants.rules?.length) return grants.permissions.includes(permission) ? Prisma.sql`true` : Prisma.sql`false`;
  const rules = [...grants.rules].sort((a, b) => a.priority - b.priority);
  const branches = rules.map((rule) => {
    const allowed = rule.permissions.includes(permission) ? Prisma.sql`true` : Prisma.sql`false`;
    let match: Prisma.Sql;
    if (rule.container !== undefined) match = Prisma.sql`starts_with(container, ${rule.container.toLowerCase()})`;
    else if (rule.conditions?.length)
      match = Prisma.join(
        rule.conditions.map((c) => {
          const column = c.attribute === 'id' ? Prisma.sql`id` : Prisma.sql`container`;
          const value = c.attribute === 'container' ? c.value.toLowerCase() : c.value;
          return c.operator === 'equals' ? Prisma.sql`${column} = ${value}` : Prisma.sql`starts_with(${column}, ${value})`;
        }),
        ' AND ',
      );
    else match = Prisma.sql`false`;
    return Prisma.sql`WHEN ${match} THEN ${allowed}`;
  });
  return Prisma.sql`(CASE ${Prisma.join(branches, ' ')} ELSE false END)`;
}

/**
 * Whether the caller's access to `permission` is the same for every token (no rules: it has the permission or not),
 * and which: true or false. undefined when rules make it depend on the token (then only accessPredicate tells).
 * Mirrors accessPredicate: where this says true, accessPredicate is `true` for every row.
 */
export function unconditionalAccess(principal: Principal, permission: string): boolean | undefined {
  if (principal.sessionPending || principal.applicationType === 'management') return false;
  const own = grantsUnconditionally(principal, permission);
  if (!principal.sessionId || own === false) return own;
  if (!principal.authorizer) return false;
  const authorizer = grantsUnconditionally(principal.authorizer, permission);
  if (authorizer === false) return false;
  return own === true && authorizer === true ? true : undefined;
}

function grantsUnconditionally(grants: Grants, permission: string): boolean | undefined {
  if (!grants.rules?.length) return grants.permissions.includes(permission);
  return undefined;
}
