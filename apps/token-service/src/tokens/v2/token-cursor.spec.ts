import { createHmac } from 'node:crypto';
import { ProblemError } from '@coffer/contracts';
import type { TokenVault } from '../token-vault';
import { TokenCursors, type CursorScope } from './token-cursor';

/** A vault whose index key differs per tenant, as the real keyring's does. */
function vault(): TokenVault {
  return {
    keyring: { digester: async (tenantId: string) => (value: string) => createHmac('sha256', `index key of ${tenantId}`).update(value).digest('hex') },
  } as unknown as TokenVault;
}

const scope: CursorScope = { operation: 'list', filter: { metadata: { batch: 'a' } } };
const position = { at: '2026-11-24T03:03:15.123456Z', id: 'token-1' };

async function refused(p: Promise<unknown>): Promise<ProblemError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProblemError);
  expect((err as ProblemError).status).toBe(400);
  return err as ProblemError;
}

describe('TokenCursors', () => {
  const cursors = new TokenCursors(vault());

  it('round-trips a position; empty or absent start is the first page', async () => {
    const next = await cursors.seal('t1', scope, position);
    expect(await cursors.open('t1', scope, next)).toEqual(position);
    expect(await cursors.open('t1', scope, '')).toBeNull();
    expect(await cursors.open('t1', scope, undefined)).toBeNull();
  });

  it('is opaque: neither the id nor the date can be read from it', async () => {
    const next = await cursors.seal('t1', scope, position);
    const bytes = Buffer.from(next, 'base64url').toString('latin1');
    expect(bytes).not.toContain('token-1');
    expect(bytes).not.toContain('2026');
  });

  it('refuses another tenant, another query, a changed byte, garbage and oversized input with a 400 on start', async () => {
    const next = await cursors.seal('t1', scope, position);
    await refused(cursors.open('t2', scope, next));
    await refused(cursors.open('t1', { operation: 'list', filter: { metadata: { batch: 'b' } } }, next));
    await refused(cursors.open('t1', { operation: 'search', filter: scope.filter }, next));
    const flipped = next.slice(0, 10) + (next[10] === 'A' ? 'B' : 'A') + next.slice(11);
    await refused(cursors.open('t1', scope, flipped));
    const err = await refused(cursors.open('t1', scope, 'not a cursor!'));
    expect(err.problem.errors).toHaveProperty('start');
    await refused(cursors.open('t1', scope, 'A'.repeat(5000)));
    await refused(cursors.open('t1', scope, Buffer.from(JSON.stringify([position.at, position.id])).toString('base64url')));
  });
});
