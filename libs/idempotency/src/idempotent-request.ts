import { hash } from 'node:crypto';
import { configure } from 'safe-stable-stringify';
import { IDEMPOTENCY_KEY_MAX_LENGTH, ProblemError, type RpcEnvelope } from '@coffer/contracts';

/** Key order does not make two requests different; the JSON limits were checked before this runs. */
const canonicalJson = configure({ deterministic: true, bigint: false, circularValue: Error });

/** One idempotent request as the ledger records it. */
export interface IdempotentRequest {
  tenantId: string;
  /** the caller: a session's own id, else the application's (docs/api-reference.md: keys are per application) */
  ownerId: string;
  key: string;
  /** the operation (its NATS subject), so one key cannot stand for two different operations */
  route: string;
  /** SHA-256 of the operation and its canonical body: a repeat must be the same request */
  requestHash: string;
}

/**
 * The idempotent request an envelope describes, or undefined when it carries no key. `body` is what the service
 * acts on (path parameters included), so a retry to another id with the same key is a different request.
 */
export function idempotentRequestOf(route: string, env: RpcEnvelope<unknown>): IdempotentRequest | undefined {
  const key = env.idempotencyKey;
  const principal = env.principal;
  if (key === undefined || key === '' || !principal?.tenantId) return undefined;
  if (typeof key !== 'string' || key.length > IDEMPOTENCY_KEY_MAX_LENGTH)
    throw new ProblemError(400, `The idempotency key must be a string of at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`);
  const requestHash = hash('sha256', `${route}\n${canonicalJson(env.body ?? null) ?? 'null'}`, 'base64url');
  return { tenantId: principal.tenantId, ownerId: principal.sessionId ?? principal.applicationId, key, route, requestHash };
}
