import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { EventOutbox } from './event-outbox';
import { PrismaService } from './prisma.service';
import { SqlPool } from './sql-pool';

/**
 * The outbox against a real PostgreSQL (a throwaway database with the event_outbox table of the migration): an event
 * commits with its unit of work and vanishes with its rollback; outside a unit of work it is refused.
 */
const ADMIN_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `coffer_outbox_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
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

const committed = () => admin(async (c) => (await c.query('SELECT id, tenant_id, type, event FROM event_outbox ORDER BY seq')).rows, databaseUrl);

jest.setTimeout(60_000);

let prisma: PrismaService;
let sql: SqlPool;
let outbox: EventOutbox;
const tenant = randomUUID();
const event = (type: string) => ({ id: randomUUID(), type, tenant_id: tenant, timestamp: new Date().toISOString(), data: { token: { id: 't' } } });

beforeAll(async () => {
  await admin((c) => c.query(`CREATE DATABASE "${dbName}"`));
  await admin(async (c) => {
    await c.query(`CREATE TABLE event_outbox (seq BIGSERIAL PRIMARY KEY, id uuid NOT NULL, tenant_id uuid NOT NULL, type text NOT NULL, event jsonb NOT NULL, traceparent text,
      created_at timestamptz(3) NOT NULL DEFAULT now())`);
  }, databaseUrl);
  process.env['DATABASE_URL'] = databaseUrl;
  prisma = new PrismaService();
  sql = new SqlPool();
  outbox = new EventOutbox(sql);
});

afterAll(async () => {
  await sql?.onApplicationShutdown();
  await prisma?.$disconnect();
  await admin((c) => c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`));
});

beforeEach(() => admin((c) => c.query('DELETE FROM event_outbox'), databaseUrl));

it('commits the events of a unit of work with it, in order, as written', async () => {
  const a = event('token.created');
  const b = event('token.deleted');
  await prisma.transactional(async () => {
    await outbox.record([a]);
    await outbox.record([b]);
    expect(await committed()).toEqual([]); // not visible before the commit
  });
  const rows = await committed();
  expect(rows.map((r) => r.id)).toEqual([a.id, b.id]);
  expect(rows[0]).toEqual({ id: a.id, tenant_id: tenant, type: 'token.created', event: a });
});

it('leaves no event of a unit of work that rolls back', async () => {
  await expect(
    prisma.transactional(async () => {
      await outbox.record([event('application.created')]);
      throw new Error('the change failed');
    }),
  ).rejects.toThrow('the change failed');
  expect(await committed()).toEqual([]);
});

it('refuses to write outside a unit of work (there is no change to join)', async () => {
  await expect(outbox.record([event('token.created')])).rejects.toThrow(/inside PrismaService.transactional/);
  expect(await committed()).toEqual([]);
});

it('writes events that are a write of their own in one statement: all of them, outside any unit of work', async () => {
  const a = event('reactor.invoked');
  const b = event('reactor.completed');
  await outbox.recordAlone([a, b]);
  expect((await committed()).map((r) => r.id)).toEqual([a.id, b.id]);
});

it('keeps quotes, backslashes and unicode of the event intact', async () => {
  const e = { ...event('token.created'), data: { token: { id: 'x', metadata: { note: 'a "quoted" \\ back\\slash, ünïcødé, {}' } } } };
  await prisma.transactional(() => outbox.record([e]));
  expect((await committed())[0].event).toEqual(e);
});
