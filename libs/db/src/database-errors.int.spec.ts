import pg from 'pg';
import { databaseProblem, sqlStateOf } from './database-errors';

/** the test tiers' PostgreSQL server (TEST_DATABASE_URL, as everywhere; CONTRIBUTING.md) */
const url = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

describe('database failures as problems', () => {
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: url, statement_timeout: 50, lock_timeout: 50 });
    await client.connect();
  });
  afterAll(() => client.end());

  it('a statement cancelled by statement_timeout is a 504', async () => {
    const err = await client.query('SELECT pg_sleep(1)').catch((e: unknown) => e);
    expect(sqlStateOf(err)).toBe('57014');
    expect(databaseProblem(err)).toMatchObject({ status: 504 });
  });

  it('a lock not granted within lock_timeout is a 503', async () => {
    const holder = new pg.Client({ connectionString: url });
    const waiter = new pg.Client({ connectionString: url, statement_timeout: 5_000, lock_timeout: 50 });
    await Promise.all([holder.connect(), waiter.connect()]);
    try {
      await holder.query('SELECT pg_advisory_lock(424242)');
      const err = await waiter.query('SELECT pg_advisory_lock(424242)').catch((e: unknown) => e);
      expect(sqlStateOf(err)).toBe('55P03');
      expect(databaseProblem(err)).toMatchObject({ status: 503 });
    } finally {
      await Promise.all([holder.end(), waiter.end()]);
    }
  });

  it('a write that reached a read-only server (a standby, a demoted primary during failover) is a 503', async () => {
    await client.query('BEGIN READ ONLY');
    const err = await client.query('CREATE TEMP TABLE coffer_ro_probe (x int)').catch((e: unknown) => e);
    await client.query('ROLLBACK');
    expect(sqlStateOf(err)).toBe('25006');
    expect(databaseProblem(err)).toMatchObject({ status: 503 });
    // the server shutting down after a crash of one of its backends
    expect(databaseProblem(Object.assign(new Error('crash'), { code: '57P02' }))).toMatchObject({ status: 503 });
  });

  it("reads the SQLSTATE Prisma's driver adapter wraps", () => {
    const prismaError = (code: string, meta?: unknown) => Object.assign(new Error('Raw query failed'), { name: 'PrismaClientKnownRequestError', code, meta });
    expect(databaseProblem(prismaError('P2010', { driverAdapterError: { cause: { kind: 'postgres', code: '57014' } } }))).toMatchObject({ status: 504 });
    expect(databaseProblem(prismaError('P2024'))).toMatchObject({ status: 503 });
    // a PL/pgSQL raise_exception (P0001) is not mistaken for a Prisma code, nor is it a database outage
    expect(databaseProblem(Object.assign(new Error('raised'), { code: 'P0001' }))).toBeUndefined();
  });

  it('a query on a pooled client whose connection already broke (a failover cut it) is a 503', async () => {
    const doomed = new pg.Client({ connectionString: url });
    await doomed.connect();
    doomed.on('error', () => undefined);
    const pid = (await doomed.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    const broken = new Promise((resolve) => doomed.once('end', resolve));
    await client.query('SELECT pg_terminate_backend($1)', [pid]);
    await broken;
    const after = await doomed.query('SELECT 1').catch((e: unknown) => e);
    expect((after as Error).message).toMatch(/not queryable/);
    expect(databaseProblem(after)).toMatchObject({ status: 503 });
    await doomed.end().catch(() => undefined);
  });

  it('anything else is not a database problem (a bug: 500)', () => {
    expect(databaseProblem(new Error('boom'))).toBeUndefined();
    expect(databaseProblem(Object.assign(new Error('unique'), { code: '23505' }))).toBeUndefined();
    expect(databaseProblem({ code: 'TIMEOUT' })).toBeUndefined();
  });
});
