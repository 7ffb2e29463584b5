import { FieldErrors, TRANSFORMS, type AccessRule, type ApplicationType } from '@coffer/contracts';
import { PERMISSIONS, isTokenPermission } from './permissions';

export const CONTAINER_PATTERN = /^\/([A-Za-z0-9_-]+\/)*$/;

export interface GrantOptions {
  /** sessions may use `conditions` and are limited to the authorizer's own token permissions */
  session?: { authorizerPermissions: string[] };
}

/**
 * Validates permissions or rules for an application of `type` (or for a session), adding every problem to
 * `errors` by field path. Returns the normalised rules (containers lower-cased).
 */
export function validateGrants(
  type: ApplicationType,
  permissions: unknown,
  rules: unknown,
  errors: FieldErrors,
  options: GrantOptions = {},
): { permissions: string[]; rules?: AccessRule[] } {
  const perms = Array.isArray(permissions) ? permissions : [];
  const ruleList = Array.isArray(rules) ? rules : [];
  if (permissions !== undefined && permissions !== null && !Array.isArray(permissions)) errors.add('permissions', 'must be an array of permission names');
  if (rules !== undefined && rules !== null && !Array.isArray(rules)) errors.add('rules', 'must be an array of rules');
  if (perms.length && ruleList.length) errors.add('rules', 'an application has either permissions or rules, not both');
  if (type === 'management' && ruleList.length) errors.add('rules', 'management applications take permissions only');

  perms.forEach((p, i) => checkPermission(p, `permissions[${i}]`, type, errors, options));

  const priorities = new Set<number>();
  const normalised: AccessRule[] = [];
  ruleList.forEach((raw, i) => {
    const path = `rules[${i}]`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      errors.add(path, 'must be an object');
      return;
    }
    const r = raw as Record<string, unknown>;
    if (r['description'] !== undefined && r['description'] !== null && typeof r['description'] !== 'string')
      errors.add(`${path}.description`, 'must be a string');
    if (typeof r['priority'] !== 'number' || !Number.isInteger(r['priority'])) errors.add(`${path}.priority`, 'must be an integer');
    else if (priorities.has(r['priority'])) errors.add(`${path}.priority`, 'must be unique among the rules');
    else priorities.add(r['priority']);
    if (!TRANSFORMS.includes(r['transform'] as never)) errors.add(`${path}.transform`, 'must be one of redact, mask, reveal');
    if (!Array.isArray(r['permissions']) || r['permissions'].length === 0) errors.add(`${path}.permissions`, 'must be a non-empty array of permission names');
    else (r['permissions'] as unknown[]).forEach((p, j) => checkPermission(p, `${path}.permissions[${j}]`, type, errors, options));

    const hasContainer = r['container'] !== undefined && r['container'] !== null;
    const hasConditions = r['conditions'] !== undefined && r['conditions'] !== null;
    if (hasContainer === hasConditions) errors.add(path, 'must have exactly one of container or conditions');
    if (hasContainer && (typeof r['container'] !== 'string' || !CONTAINER_PATTERN.test(r['container'])))
      errors.add(`${path}.container`, 'must be a path like /pci/high/');
    if (hasConditions) {
      if (!options.session) errors.add(`${path}.conditions`, 'conditions are only allowed for sessions');
      else if (!Array.isArray(r['conditions']) || !r['conditions'].length) errors.add(`${path}.conditions`, 'must be a non-empty array');
      else
        (r['conditions'] as unknown[]).forEach((c, j) => {
          const cp = `${path}.conditions[${j}]`;
          const cond = (c ?? {}) as Record<string, unknown>;
          if (!['id', 'container'].includes(cond['attribute'] as string)) errors.add(`${cp}.attribute`, 'must be id or container');
          if (!['equals', 'starts_with'].includes(cond['operator'] as string)) errors.add(`${cp}.operator`, 'must be equals or starts_with');
          if (typeof cond['value'] !== 'string' || !cond['value']) errors.add(`${cp}.value`, 'must be a non-empty string');
        });
    }
    const rule: AccessRule = {
      priority: r['priority'] as number,
      transform: r['transform'] as AccessRule['transform'],
      permissions: (r['permissions'] as string[]) ?? [],
    };
    if (typeof r['description'] === 'string') rule.description = r['description'];
    if (hasContainer && typeof r['container'] === 'string') rule.container = r['container'].toLowerCase();
    if (hasConditions) rule.conditions = r['conditions'] as AccessRule['conditions'];
    normalised.push(rule);
  });
  return { permissions: [...new Set(perms as string[])], rules: ruleList.length ? normalised : undefined };
}

function checkPermission(p: unknown, path: string, type: ApplicationType, errors: FieldErrors, options: GrantOptions) {
  if (typeof p !== 'string' || !PERMISSIONS[p]) {
    errors.add(path, 'is not a known permission');
    return;
  }
  if (options.session) {
    if (!isTokenPermission(p)) errors.add(path, 'sessions may only be granted token permissions');
    else if (!options.session.authorizerPermissions.includes(p)) errors.add(path, 'the authorizing application does not hold this permission');
    return;
  }
  if (!PERMISSIONS[p].types.includes(type)) errors.add(path, `is not allowed for ${type} applications`);
}
