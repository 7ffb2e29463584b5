import { Prisma } from '@coffer/db';
import type { Principal } from '@coffer/contracts';

/**
 * The access decision of libs/auth expressed as SQL, so lists and searches filter (and count) in the database
 * instead of paging over rows the caller cannot see. Results are still checked row by row with decideTokenAccess.
 */
export function accessPredicate(principal: Principal, permission: string): Prisma.Sql {
  if (principal.sessionPending || principal.applicationType === 'management') return Prisma.sql`false`;
  if (!principal.rules?.length) return principal.permissions.includes(permission) ? Prisma.sql`true` : Prisma.sql`false`;
  const rules = [...principal.rules].sort((a, b) => a.priority - b.priority);
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
