import type { AccessRule, Principal, RuleCondition, Transform } from '@coffer/contracts';
import { PERMISSIONS } from './permissions';

export interface TokenRef {
  id: string;
  container: string;
}

export type AccessDecision = { allowed: true; transform: Transform } | { allowed: false };

const DENY: AccessDecision = { allowed: false };

/**
 * The one access decision for every token operation in every service (deny by default).
 * - permissions: they hold for every container, with the implicit transform (reading with token:use held reveals).
 * - rules: ascending priority, the first rule whose container is a prefix of the token's container (or whose
 *   conditions all hold) decides: allowed iff it lists the permission, with its transform.
 * - a pending session and a management application never get token data.
 */
export function decideTokenAccess(principal: Principal, permission: string, token: TokenRef): AccessDecision {
  if (principal.sessionPending || principal.applicationType === 'management') return DENY;
  if (principal.rules?.length) {
    const rule = firstMatchingRule(principal.rules, token);
    if (!rule || !rule.permissions.includes(permission)) return DENY;
    return { allowed: true, transform: rule.transform };
  }
  if (!principal.permissions.includes(permission)) return DENY;
  return { allowed: true, transform: implicitTransform(principal.permissions, permission) };
}

/** For routes: can this principal perform `permission` on at least some token? (the per-token check follows) */
export function mayEver(principal: Principal, permission: string): boolean {
  if (principal.sessionPending) return false;
  if (principal.rules?.length) return principal.rules.some((r) => r.permissions.includes(permission));
  return principal.permissions.includes(permission);
}

export function firstMatchingRule(rules: AccessRule[], token: TokenRef): AccessRule | undefined {
  return [...rules].sort((a, b) => a.priority - b.priority).find((rule) => ruleMatches(rule, token));
}

function ruleMatches(rule: AccessRule, token: TokenRef): boolean {
  if (rule.container !== undefined) return token.container.startsWith(rule.container.toLowerCase());
  if (rule.conditions?.length) return rule.conditions.every((c) => conditionHolds(c, token));
  return false;
}

function conditionHolds(c: RuleCondition, token: TokenRef): boolean {
  const actual = c.attribute === 'id' ? token.id : token.container;
  const expected = c.attribute === 'container' ? c.value.toLowerCase() : c.value;
  return c.operator === 'equals' ? actual === expected : actual.startsWith(expected);
}

function implicitTransform(held: string[], permission: string): Transform {
  if (permission === 'token:read' || permission === 'token:search') {
    // a caller that may use the data gains nothing from a mask on read
    return held.includes('token:use') ? 'reveal' : 'mask';
  }
  return PERMISSIONS[permission]?.transform ?? 'redact';
}
