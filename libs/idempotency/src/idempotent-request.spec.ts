import { ProblemError, type Principal, type RpcEnvelope } from '@coffer/contracts';
import { idempotentRequestOf } from './idempotent-request';

const principal = { tenantId: 't-1', applicationId: 'app-1', applicationType: 'private', permissions: [] } as unknown as Principal;
const env = (body: unknown, extra: Partial<RpcEnvelope> = {}): RpcEnvelope => ({ principal, traceId: 'trace', body, idempotencyKey: 'k', ...extra });

describe('idempotentRequestOf', () => {
  it('is undefined without a key', () => {
    expect(idempotentRequestOf('token.create', env({}, { idempotencyKey: undefined }))).toBeUndefined();
  });

  it('scopes the key to the tenant and the caller (a session before its application)', () => {
    expect(idempotentRequestOf('r', env({}))).toMatchObject({ tenantId: 't-1', ownerId: 'app-1', key: 'k', route: 'r' });
    const session = { ...principal, sessionId: 'session-1' } as Principal;
    expect(idempotentRequestOf('r', env({}, { principal: session }))?.ownerId).toBe('session-1');
  });

  it('hashes the operation and the canonical body: key order does not matter, values and operations do', () => {
    const hash = (route: string, body: unknown) => idempotentRequestOf(route, env(body))?.requestHash;
    expect(hash('r', { a: 1, b: { c: [1, 2], d: null } })).toBe(hash('r', { b: { d: null, c: [1, 2] }, a: 1 }));
    expect(hash('r', { a: 1 })).not.toBe(hash('r', { a: 2 }));
    expect(hash('r', { a: [1, 2] })).not.toBe(hash('r', { a: [2, 1] }));
    expect(hash('r', { a: 1 })).not.toBe(hash('other', { a: 1 }));
  });

  it('hashes as the recorded requests were hashed (a key retried across an upgrade still matches its request)', () => {
    const recorded = idempotentRequestOf('tokens.create', {
      principal: { tenantId: 't1', applicationId: 'a1' } as Principal,
      traceId: 't',
      idempotencyKey: 'k',
      body: { data: 'Zoë€', type: 'token' },
    });
    expect(recorded?.requestHash).toBe('5MyWjZZYTTC09Ohh-czqsxj48FIx2sPYWVRSts1Kxi4');
  });

  it('refuses keys over 255 characters', () => {
    expect(() => idempotentRequestOf('r', env({}, { idempotencyKey: 'k'.repeat(256) }))).toThrow(ProblemError);
  });
});
