import type { Principal } from '@coffer/contracts';
import { FieldErrors } from '@coffer/contracts';
import { decideTokenAccess, mayEver, mayReveal, writeReplyTransform } from './access';
import { validateGrants } from './grants';

const base = { tenantId: 't', applicationId: 'a', applicationType: 'private' } as const;
const card = { id: 'c1', container: '/pci/high/' };

describe('decideTokenAccess', () => {
  it.each([
    [['token:read'], 'token:read', { allowed: true, transform: 'mask' }],
    [['token:read', 'token:use'], 'token:read', { allowed: true, transform: 'reveal' }],
    [['token:use'], 'token:use', { allowed: true, transform: 'reveal' }],
    [['token:create'], 'token:create', { allowed: true, transform: 'mask' }],
    [['token:create'], 'token:read', { allowed: false }],
    [[], 'token:read', { allowed: false }],
  ])('permissions %j asking %s', (permissions, permission, expected) => {
    expect(decideTokenAccess({ ...base, permissions } as Principal, permission, card)).toEqual(expected);
  });

  it('rules: ascending priority, first container-prefix match decides', () => {
    const p: Principal = {
      ...base,
      permissions: [],
      rules: [
        { priority: 2, container: '/pci/', transform: 'reveal', permissions: ['token:read'] },
        { priority: 1, container: '/pci/high/', transform: 'mask', permissions: ['token:read'] },
        { priority: 3, container: '/', transform: 'redact', permissions: ['token:use'] },
      ],
    };
    expect(decideTokenAccess(p, 'token:read', card)).toEqual({ allowed: true, transform: 'mask' });
    expect(decideTokenAccess(p, 'token:read', { id: 'x', container: '/pci/low/' })).toEqual({ allowed: true, transform: 'reveal' });
    expect(decideTokenAccess(p, 'token:read', { id: 'x', container: '/pii/' })).toEqual({ allowed: false });
    expect(decideTokenAccess(p, 'token:use', { id: 'x', container: '/pii/' })).toEqual({ allowed: true, transform: 'redact' });
  });

  it('conditions are ANDed; equals and starts_with on id and container', () => {
    const p: Principal = {
      ...base,
      permissions: [],
      rules: [
        {
          priority: 1,
          transform: 'reveal',
          permissions: ['token:read'],
          conditions: [
            { attribute: 'container', operator: 'starts_with', value: '/PCI/' },
            { attribute: 'id', operator: 'equals', value: 'c1' },
          ],
        },
      ],
    };
    expect(decideTokenAccess(p, 'token:read', card).allowed).toBe(true);
    expect(decideTokenAccess(p, 'token:read', { id: 'c2', container: '/pci/high/' }).allowed).toBe(false);
  });

  it('pending sessions and management applications never get token data', () => {
    expect(decideTokenAccess({ ...base, permissions: ['token:read'], sessionPending: true } as Principal, 'token:read', card).allowed).toBe(false);
    expect(decideTokenAccess({ ...base, applicationType: 'management', permissions: ['token:read'] } as Principal, 'token:read', card).allowed).toBe(false);
    expect(mayEver({ ...base, permissions: ['token:read'], sessionPending: true } as Principal, 'token:read')).toBe(false);
  });
});

describe('validateGrants', () => {
  it('rejects permissions outside the application type and reports paths', () => {
    const errors = new FieldErrors();
    validateGrants('public', ['token:read', 'token:create', 'reactor:read'], undefined, errors);
    expect(Object.keys(errors.toRecord()).sort()).toEqual(['permissions[0]', 'permissions[2]']);
  });

  it('sessions: only token permissions the authorizer holds; conditions allowed', () => {
    const errors = new FieldErrors();
    const res = validateGrants('private', ['token:read', 'token:delete'], undefined, errors, { session: { authorizerPermissions: ['token:read'] } });
    expect(Object.keys(errors.toRecord())).toEqual(['permissions[1]']);
    expect(res.permissions).toEqual(['token:read', 'token:delete']);
  });

  it('normalises containers to lower case', () => {
    const errors = new FieldErrors();
    const res = validateGrants('private', undefined, [{ priority: 1, container: '/PCI/', transform: 'mask', permissions: ['token:read'] }], errors);
    expect(errors.empty).toBe(true);
    expect(res.rules?.[0].container).toBe('/pci/');
  });
});

describe('sessions are capped by their authorizer (invariant 3)', () => {
  const session = (grants: Partial<Principal>, authorizer?: Principal['authorizer']): Principal => ({
    ...base,
    applicationType: 'public',
    permissions: [],
    sessionId: 's1',
    ...grants,
    ...(authorizer ? { authorizer } : {}),
  });
  const onlyA = {
    applicationId: 'p',
    permissions: [],
    rules: [{ priority: 1, container: '/a/', transform: 'reveal' as const, permissions: ['token:read', 'token:use'] }],
  };

  it('denies where the authorizer is denied, whatever the session holds', () => {
    const s = session({ permissions: ['token:read', 'token:use'] }, onlyA);
    expect(decideTokenAccess(s, 'token:read', { id: 'x', container: '/b/' })).toEqual({ allowed: false });
    expect(decideTokenAccess(s, 'token:read', { id: 'x', container: '/a/' })).toEqual({ allowed: true, transform: 'reveal' });
    const byCondition = session(
      { rules: [{ priority: 1, conditions: [{ attribute: 'id', operator: 'equals', value: 'x' }], transform: 'reveal', permissions: ['token:use'] }] },
      onlyA,
    );
    expect(decideTokenAccess(byCondition, 'token:use', { id: 'x', container: '/b/' })).toEqual({ allowed: false });
  });

  it('takes the lower transform of session and authorizer', () => {
    const masker = { applicationId: 'p', permissions: ['token:read'] };
    const s = session({ rules: [{ priority: 1, container: '/', transform: 'reveal', permissions: ['token:read'] }] }, masker);
    expect(decideTokenAccess(s, 'token:read', card)).toEqual({ allowed: true, transform: 'mask' });
    expect(mayReveal(s, card)).toBe(false);
  });

  it('an authorized session without an authorizer may do nothing (fail closed)', () => {
    const s = session({ permissions: ['token:read'] });
    expect(decideTokenAccess(s, 'token:read', card)).toEqual({ allowed: false });
    expect(mayEver(s, 'token:read')).toBe(false);
  });
});

describe('mayReveal and the reply to a write (invariants 1 and 2)', () => {
  it('reveal needs token:use, or token:read with the reveal transform', () => {
    expect(mayReveal({ ...base, permissions: ['token:update', 'token:read'] }, card)).toBe(false);
    expect(mayReveal({ ...base, permissions: ['token:update', 'token:use'] }, card)).toBe(true);
    expect(mayReveal({ ...base, applicationType: 'public', permissions: ['token:update', 'token:create'] }, card)).toBe(false);
    const rules: Principal = { ...base, permissions: [], rules: [{ priority: 1, container: '/', transform: 'reveal', permissions: ['token:read'] }] };
    expect(mayReveal(rules, card)).toBe(true);
  });

  it('a write reply is at most mask unless the caller may reveal', () => {
    const revealRuleWriteOnly: Principal = {
      ...base,
      applicationType: 'public',
      permissions: [],
      rules: [{ priority: 1, container: '/', transform: 'reveal', permissions: ['token:create', 'token:update'] }],
    };
    expect(writeReplyTransform(revealRuleWriteOnly, 'token:update', card)).toBe('mask');
    const revealer: Principal = {
      ...base,
      permissions: [],
      rules: [{ priority: 1, container: '/', transform: 'reveal', permissions: ['token:create', 'token:use'] }],
    };
    expect(writeReplyTransform(revealer, 'token:create', card)).toBe('reveal');
    expect(writeReplyTransform({ ...base, permissions: ['token:create', 'token:use'] }, 'token:create', card)).toBe('mask');
  });
});
