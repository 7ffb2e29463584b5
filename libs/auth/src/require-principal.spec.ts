import { ProblemError, type Principal, type RpcEnvelope } from '@coffer/contracts';
import { requirePrincipal } from './require-principal';

const principal: Principal = { tenantId: 't', applicationId: 'a', applicationType: 'private', permissions: ['token:read'] };
const env = (p?: Principal): RpcEnvelope<unknown> => ({ principal: p, traceId: 'trace', body: {} }) as RpcEnvelope<unknown>;

function status(fn: () => unknown): number | 'ok' {
  try {
    fn();
    return 'ok';
  } catch (err) {
    return err instanceof ProblemError ? err.problem.status : -1;
  }
}

describe('requirePrincipal', () => {
  it('refuses a call without a principal (401), whatever it asks', () => {
    expect(status(() => requirePrincipal(env()))).toBe(401);
    expect(status(() => requirePrincipal(env(), 'token:read'))).toBe(401);
  });

  it('returns the principal when it holds the permission, or any one of several', () => {
    expect(requirePrincipal(env(principal), 'token:read')).toBe(principal);
    expect(requirePrincipal(env(principal), ['token:use', 'token:read'])).toBe(principal);
    expect(requirePrincipal(env(principal))).toBe(principal);
  });

  it('refuses a principal holding none of the permissions (403)', () => {
    expect(status(() => requirePrincipal(env(principal), 'token:delete'))).toBe(403);
    expect(status(() => requirePrincipal(env(principal), ['token:use', 'token:delete']))).toBe(403);
    expect(status(() => requirePrincipal(env({ ...principal, sessionId: 's', sessionPending: true }), 'token:read'))).toBe(403);
  });
});
