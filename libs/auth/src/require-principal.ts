import { ProblemError, type Principal, type RpcEnvelope } from '@coffer/contracts';
import { mayEver } from './access';

/**
 * The caller of a NATS handler, re-checked by the service (defence in depth: the gateway checked it already, but
 * formula `svc` calls and other services reach handlers without the gateway). No principal is a 401; with
 * `permissions`, holding none of them is a 403. Without, the caller only has to be authenticated.
 */
export function requirePrincipal(env: RpcEnvelope<unknown>, permissions?: string | readonly string[]): Principal {
  const p = env.principal;
  if (!p?.tenantId) throw new ProblemError(401, 'A valid API key is required');
  const anyOf = permissions === undefined ? [] : typeof permissions === 'string' ? [permissions] : permissions;
  if (anyOf.length && !anyOf.some((permission) => mayEver(p, permission))) throw new ProblemError(403, 'The API key does not grant access to this operation');
  return p;
}
