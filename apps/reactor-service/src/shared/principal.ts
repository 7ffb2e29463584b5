import { ProblemError, type Principal, type RpcEnvelope } from '@coffer/contracts';
import { mayEver } from '@coffer/auth';

/** Defence in depth: the service re-checks the permission the gateway already checked. */
export function requirePrincipal(env: RpcEnvelope<unknown>, permission?: string): Principal {
  const p = env.principal;
  if (!p?.tenantId) throw new ProblemError(401, 'A valid API key is required');
  if (permission && !mayEver(p, permission)) throw new ProblemError(403, 'The API key does not grant access to this operation');
  return p;
}
