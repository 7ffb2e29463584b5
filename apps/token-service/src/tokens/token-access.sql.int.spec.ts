import fc from 'fast-check';
import pg from 'pg';
import { Prisma } from '@coffer/db';
import { decideTokenAccess } from '@coffer/auth';
import type { AccessRule, Grants, Principal } from '@coffer/contracts';
import { accessPredicate } from './token-access.sql';

/**
 * accessPredicate is the SQL form of decideTokenAccess: lists filter with it, and a read by id writes its audit event
 * only where it holds. Any disagreement would hide a token from a list or audit a read that was refused, so the two are
 * compared on generated principals and tokens, with the predicate evaluated by PostgreSQL itself (no table needed).
 */
const PG_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PERMISSIONS = ['token:read', 'token:use', 'token:create', 'token:search'];

const fragment = fc.constantFrom('/', '/pci/', '/PCI/', '/pii/', '/pci/high/', 'tok_', 'tok_a', '', 'x');
const condition = fc.record({
  attribute: fc.constantFrom('id' as const, 'container' as const),
  operator: fc.constantFrom('equals' as const, 'starts_with' as const),
  value: fragment,
});
const rule: fc.Arbitrary<AccessRule> = fc.record(
  {
    priority: fc.integer({ min: 0, max: 3 }),
    container: fragment,
    conditions: fc.array(condition, { maxLength: 2 }),
    transform: fc.constantFrom('reveal' as const, 'mask' as const, 'redact' as const),
    permissions: fc.subarray(PERMISSIONS),
  },
  { requiredKeys: ['priority', 'transform', 'permissions'] },
);
const grants: fc.Arbitrary<Grants> = fc.record(
  { permissions: fc.subarray(PERMISSIONS), rules: fc.array(rule, { maxLength: 3 }) },
  { requiredKeys: ['permissions'] },
);
const principal: fc.Arbitrary<Principal> = fc
  .record({
    own: grants,
    type: fc.constantFrom('private' as const, 'public' as const, 'management' as const),
    session: fc.constantFrom('none', 'pending', 'authorized', 'orphaned'),
    authorizer: grants,
  })
  .map(({ own, type, session, authorizer }) => ({
    tenantId: '00000000-0000-4000-8000-000000000000',
    applicationId: '00000000-0000-4000-8000-000000000001',
    applicationType: type,
    ...own,
    ...(session === 'none' ? {} : { sessionId: 's' }),
    ...(session === 'pending' ? { sessionPending: true } : {}),
    ...(session === 'authorized' ? { authorizer: { ...authorizer, applicationId: '00000000-0000-4000-8000-000000000002' } } : {}),
  }));
const token = fc.record({
  id: fc.constantFrom('tok_a1', 'tok_b2', 'x9', '/pci/'),
  container: fc.constantFrom('/', '/pci/', '/pci/high/', '/pii/', '/general/'),
});

describe('accessPredicate (SQL) agrees with decideTokenAccess', () => {
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
  });
  afterAll(() => client.end());

  it.each(['token:read', 'token:search', 'token:use'])('for %s', async (permission) => {
    await fc.assert(
      fc.asyncProperty(principal, token, async (p, t) => {
        const predicate = accessPredicate(p, permission);
        const sql = Prisma.sql`SELECT ${predicate} AS allowed FROM (VALUES (${t.id}::text, ${t.container}::text)) AS row(id, container)`;
        const { rows } = await client.query({ text: sql.text, values: sql.values as unknown[] });
        expect(rows[0].allowed).toBe(decideTokenAccess(p, permission, t).allowed);
      }),
      { numRuns: 1000 },
    );
  });
});
