import type { AccessRule, Grants, Principal, RuleCondition, Transform } from '@coffer/contracts';
import { PERMISSIONS } from './permissions';

export interface TokenRef {
  id: string;
  container: string;
}

export type AccessDecision = { allowed: true; transform: Transform } | { allowed: false };

const DENY: AccessDecision = { allowed: false };
const RANK: Record<Transform, number> = { redact: 0, mask: 1, reveal: 2 };

/** The less revealing of two transforms (redact < mask < reveal). */
export function lowerTransform(a: Transform, b: Transform): Transform {
  return RANK[a] <= RANK[b] ? a : b;
}

/**
 * The one access decision for every token operation in every service (deny by default).
 * - permissions: they hold for every container, with the implicit transform (reading with token:use held reveals).
 * - rules: ascending priority, the first rule whose container is a prefix of the token's container (or whose
 *   conditions all hold) decides: allowed iff it lists the permission, with its transform.
 * - a pending session and a management application never get token data.
 * - an authorized session is capped by its authorizer's current grants, per token: both must allow, and the lower
 *   transform wins (a session can never see more than the application that authorized it).
 */
export function decideTokenAccess(principal: Principal, permission: string, token: TokenRef): AccessDecision {
  if (principal.sessionPending || principal.applicationType === 'management') return DENY;
  const own = decideByGrants(principal, permission, token);
  if (!principal.sessionId || !own.allowed) return own;
  if (!principal.authorizer) return DENY;
  const cap = decideByGrants(principal.authorizer, permission, token);
  if (!cap.allowed) return DENY;
  return { allowed: true, transform: lowerTransform(own.transform, cap.transform) };
}

/**
 * May the principal see this token's plaintext by any route? (token:use, or token:read with the reveal transform —
 * exactly what detokenize accepts). Changing what others see of a token (its mask, container, fingerprint
 * expression or search indexes) needs this, and the reply to a write never reveals without it.
 */
export function mayReveal(principal: Principal, token: TokenRef): boolean {
  if (decideTokenAccess(principal, 'token:use', token).allowed) return true;
  const read = decideTokenAccess(principal, 'token:read', token);
  return read.allowed && read.transform === 'reveal';
}

/**
 * The transform of the reply to a caller's own write (create, update): the write permission's decision (conventions
 * §6: token:create/token:update imply mask), never above mask unless the caller may reveal the token anyway.
 */
export function writeReplyTransform(principal: Principal, permission: 'token:create' | 'token:update', token: TokenRef): Transform {
  const write = decideTokenAccess(principal, permission, token);
  if (!write.allowed) return 'redact';
  return mayReveal(principal, token) ? write.transform : lowerTransform(write.transform, 'mask');
}

/** For routes: can this principal perform `permission` on at least some token? (the per-token check follows) */
export function mayEver(principal: Principal, permission: string): boolean {
  if (principal.sessionPending) return false;
  if (!grantsMention(principal, permission)) return false;
  if (!principal.sessionId) return true;
  return !!principal.authorizer && grantsMention(principal.authorizer, permission);
}

function grantsMention(grants: Grants, permission: string): boolean {
  if (grants.rules?.length) return grants.rules.some((r) => r.permissions.includes(permission));
  return grants.permissions.includes(permission);
}

function decideByGrants(grants: Grants, permission: string, token: TokenRef): AccessDecision {
  if (grants.rules?.length) {
    const rule = firstMatchingRule(grants.rules, token);
    if (!rule || !rule.permissions.includes(permission)) return DENY;
    return { allowed: true, transform: rule.transform };
  }
  if (!grants.permissions.includes(permission)) return DENY;
  return { allowed: true, transform: implicitTransform(grants.permissions, permission) };
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
