import type { Principal } from '@coffer/contracts';
import type { TokenRepository, TokenRow } from '../token.repository';
import { TokenReads } from './token-reads';

const principal: Principal = { tenantId: 't1', applicationId: 'a1', applicationType: 'private', permissions: ['token:read'] };
const row = (id: string) => ({ tenant_id: 't1', id, container: '/general/' }) as unknown as TokenRow;

/** A repository holding tokens a, b and c, counting the statements it is asked to run. */
function fakeRepository(fail: { failEach?: boolean; failId?: string } = {}) {
  const statements: string[] = [];
  const known = new Set(['a', 'b', 'c']);
  const repo = {
    async findAudited(_tenant: string, id: string) {
      statements.push(`findAudited ${id}`);
      if (id === fail.failId) throw new Error('invalid input');
      return known.has(id) ? { ...row(id), audited: true } : null;
    },
    async findEach(keys: Array<{ tenantId: string; id: string; audit?: unknown }>) {
      statements.push(`findEach ${keys.map((k) => k.id).join(',')}`);
      if (fail.failEach) throw new Error('invalid input');
      return keys.map((k) => (known.has(k.id) ? { ...row(k.id), audited: k.audit !== undefined } : null));
    },
  };
  return { repo: repo as unknown as TokenRepository, statements };
}

describe('TokenReads', () => {
  it('a read that arrives alone is one statement that also writes its audit event', async () => {
    const { repo, statements } = fakeRepository();
    const found = await new TokenReads(repo).find(principal, 'trace', 'a');
    expect(found).toEqual({ row: expect.objectContaining({ id: 'a' }), audited: true });
    expect(statements).toEqual(['findAudited a']);
  });

  it('reads that arrive in one event-loop iteration share one statement and get their own rows, in order', async () => {
    const { repo, statements } = fakeRepository();
    const reads = new TokenReads(repo);
    const found = await Promise.all(['c', 'missing', 'a', 'a'].map((id) => reads.find(principal, 'trace', id)));
    expect(found.map((f) => f.row?.id ?? null)).toEqual(['c', null, 'a', 'a']);
    // the caller may read every token (no rules): the shared statement wrote the events of the rows it found
    expect(found.map((f) => f.audited)).toEqual([true, false, true, true]);
    expect(statements).toEqual(['findEach c,missing,a,a']);
    await reads.find(principal, 'trace', 'b');
    expect(statements).toEqual(['findEach c,missing,a,a', 'findAudited b']);
  });

  it('leaves the events of callers whose rules decide per token to the use case', async () => {
    const { repo } = fakeRepository();
    const reads = new TokenReads(repo);
    const ruled: Principal = { ...principal, rules: [{ priority: 1, container: '/', transform: 'reveal', permissions: ['token:read'] }] };
    const found = await Promise.all([reads.find(ruled, 't', 'a'), reads.find(principal, 't', 'b')]);
    expect(found.map((f) => f.audited)).toEqual([false, true]);
  });

  it('when the shared statement fails, each read is tried on its own, and only a read whose own statement fails gets the error', async () => {
    const { repo, statements } = fakeRepository({ failEach: true, failId: 'poison' });
    const reads = new TokenReads(repo);
    const results = await Promise.allSettled([reads.find(principal, 't', 'a'), reads.find(principal, 't', 'poison'), reads.find(principal, 't', 'missing')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[0] as PromiseFulfilledResult<{ row: TokenRow | null }>).value.row?.id).toBe('a');
    expect((results[2] as PromiseFulfilledResult<{ row: TokenRow | null }>).value.row).toBeNull();
    expect(statements).toEqual(['findEach a,poison,missing', 'findAudited a', 'findAudited poison', 'findAudited missing']);
  });
});
