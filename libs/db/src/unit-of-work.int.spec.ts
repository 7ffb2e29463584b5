import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { ProblemError } from '@coffer/contracts';
import { Prisma } from './generated/prisma/client';
import { deferUntilCommitted, inTransaction } from './after-commit';
import { PrismaService } from './prisma.service';
import { SqlPool } from './sql-pool';

/**
 * The unit of work against a real PostgreSQL: a throwaway database per run, with the one table (tenants, as the
 * schema defines it) the Prisma model writes need and a plain table for the raw-SQL writes.
 */
const ADMIN_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `coffer_uow_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
const databaseUrl = (() => {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${dbName}`;
  return u.toString();
})();

async function admin<T>(work: (c: pg.Client) => Promise<T>, url = ADMIN_URL): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

/** What another connection (committed data only) sees. */
const committed = (sql: string, values: unknown[] = []) => admin(async (c) => (await c.query(sql, values)).rows, databaseUrl);

let prisma: PrismaService;
let sql: SqlPool;

beforeAll(async () => {
  await admin((c) => c.query(`CREATE DATABASE "${dbName}"`));
  await admin(async (c) => {
    await c.query(`CREATE TABLE tenants (id uuid PRIMARY KEY, name text NOT NULL, settings jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz(3) NOT NULL DEFAULT now(), modified_at timestamptz(3), suspended_at timestamptz(3), deleted_at timestamptz(3))`);
    await c.query(`CREATE TABLE notes (id text PRIMARY KEY, body text NOT NULL)`);
  }, databaseUrl);
  process.env['DATABASE_URL'] = databaseUrl;
  prisma = new PrismaService();
  sql = new SqlPool();
});

afterAll(async () => {
  await sql?.onApplicationShutdown();
  await prisma?.onModuleDestroy();
  await admin((c) => c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`));
});

const note = (id: string, body = 'x') => sql.query(Prisma.sql`INSERT INTO notes (id, body) VALUES (${id}, ${body}) RETURNING id`);
const tenant = (id: string) => prisma.tenant.create({ data: { id, name: `t-${id.slice(0, 8)}` } });
const txid = async (via: 'prisma' | 'sql') =>
  String(
    via === 'prisma'
      ? (await prisma.$queryRaw<Array<{ x: bigint }>>`SELECT txid_current() AS x`)[0].x
      : (await sql.query<{ x: string }>(Prisma.sql`SELECT txid_current() AS x`))[0].x,
  );

describe('PrismaService.transactional: the unit of work', () => {
  it('runs Prisma model writes, Prisma raw queries and SqlPool statements in one transaction', async () => {
    const ids = await prisma.transactional(async () => {
      expect(inTransaction()).toBe(true);
      return [
        await txid('prisma'),
        await txid('sql'),
        await sql.withinDeadline(performance.now() + 5_000, async (q) => String((await q<{ x: string }>(Prisma.sql`SELECT txid_current() AS x`))[0].x)),
      ];
    });
    expect(new Set(ids).size).toBe(1);
    expect(inTransaction()).toBe(false);
  });

  it('a raw query through SqlPool sees the Prisma writes the transaction has not committed yet; other connections do not', async () => {
    const id = randomUUID();
    await prisma.transactional(async () => {
      await tenant(id);
      expect(await sql.query(Prisma.sql`SELECT id FROM tenants WHERE id = ${id}::uuid`)).toHaveLength(1);
      expect(await committed('SELECT id FROM tenants WHERE id = $1', [id])).toHaveLength(0);
    });
    expect(await committed('SELECT id FROM tenants WHERE id = $1', [id])).toHaveLength(1);
  });

  it('a rollback undoes the Prisma writes and the raw-SQL writes alike', async () => {
    const id = randomUUID();
    await expect(
      prisma.transactional(async () => {
        await tenant(id);
        await note(id);
        await prisma.$executeRaw`UPDATE notes SET body = 'changed' WHERE id = ${id}`;
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await committed('SELECT id FROM tenants WHERE id = $1', [id])).toHaveLength(0);
    expect(await committed('SELECT id FROM notes WHERE id = $1', [id])).toHaveLength(0);
  });

  it('a nested transaction joins the outer one: its writes commit or roll back with the outer', async () => {
    const kept = randomUUID();
    const dropped = randomUUID();
    await prisma.transactional(async () => {
      const outer = await txid('sql');
      await prisma.transactional(async () => {
        expect(await txid('prisma')).toBe(outer);
        await note(kept);
      });
      // not committed on its own: only the outer commit publishes it
      expect(await committed('SELECT id FROM notes WHERE id = $1', [kept])).toHaveLength(0);
    });
    expect(await committed('SELECT id FROM notes WHERE id = $1', [kept])).toHaveLength(1);

    await expect(
      prisma.transactional(async () => {
        await prisma.transactional(() => note(dropped));
        throw new Error('outer fails');
      }),
    ).rejects.toThrow('outer fails');
    expect(await committed('SELECT id FROM notes WHERE id = $1', [dropped])).toHaveLength(0);
  });

  it('a nested transaction that fails rolls back only its own part (a savepoint); the outer one stays usable', async () => {
    const id = randomUUID();
    await prisma.transactional(async () => {
      await note(id, 'first');
      await expect(prisma.transactional(() => note(id, 'duplicate key'))).rejects.toBeDefined();
      await prisma.$executeRaw`UPDATE notes SET body = 'after' WHERE id = ${id}`;
    });
    expect(await committed('SELECT body FROM notes WHERE id = $1', [id])).toEqual([{ body: 'after' }]);
  });

  it('runs after-commit effects only once committed, and never after a rollback', async () => {
    const id = randomUUID();
    const seen: unknown[][] = [];
    await prisma.transactional(async () => {
      await tenant(id);
      deferUntilCommitted(async () => seen.push(await committed('SELECT id FROM tenants WHERE id = $1', [id])));
      expect(seen).toHaveLength(0);
    });
    expect(seen).toEqual([[{ id }]]);

    const effect = jest.fn();
    await expect(
      prisma.transactional(async () => {
        deferUntilCommitted(effect);
        await note(randomUUID());
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(effect).not.toHaveBeenCalled();
    // outside a unit of work there is nothing to wait for: the caller runs the effect now
    expect(deferUntilCommitted(effect)).toBe(false);
  });

  it('outside a unit of work SqlPool uses its own pool: each statement commits on its own', async () => {
    const id = randomUUID();
    await note(id);
    expect(await committed('SELECT id FROM notes WHERE id = $1', [id])).toHaveLength(1);
    expect(await txid('sql')).not.toBe(await txid('sql'));
  });

  it('takes the isolation level asked for', async () => {
    const level = await prisma.transactional(async () => (await sql.query<{ transaction_isolation: string }>(Prisma.sql`SHOW transaction_isolation`))[0], {
      isolation: 'Serializable',
    });
    expect(level.transaction_isolation).toBe('serializable');
  });

  it('with a deadline, PostgreSQL cancels the statements when it passes, and the caller gets a 504', async () => {
    const started = performance.now();
    const err = await prisma.transactional(() => sql.query(Prisma.sql`SELECT pg_sleep(5)`), { deadline: performance.now() + 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProblemError);
    expect((err as ProblemError).problem.status).toBe(504);
    expect(performance.now() - started).toBeLessThan(2_000);
    // a deadline already (nearly) passed does not open a transaction at all
    await expect(prisma.transactional(async () => 1, { deadline: performance.now() + 10 })).rejects.toMatchObject({ problem: { status: 504 } });
    // the pool-wide timeout is back for the next transaction on that connection
    const timeout = await prisma.transactional(async () => (await sql.query<{ statement_timeout: string }>(Prisma.sql`SHOW statement_timeout`))[0]);
    expect(timeout.statement_timeout).toBe('30s');
  });
});
