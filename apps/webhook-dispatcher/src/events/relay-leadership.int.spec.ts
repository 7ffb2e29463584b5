import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@coffer/testing/integration';
import { RelayLeadership } from './relay-leadership';

/**
 * The relay's leadership against PostgreSQL: two replicas (two RelayLeadership instances, each with its own session)
 * on one database. What is asserted is who holds the session-level advisory lock — as `held`, as the `onLead`
 * callbacks, and as PostgreSQL's own pg_locks — never which calls were made: one leads at a time; the other waits
 * inside PostgreSQL and takes over when the leader's session ends (released, or its connection killed); a replica
 * that lost its connection comes back as a follower and leads again when its turn comes; a released replica never
 * leads again and leaves no session behind.
 */
describe('RelayLeadership (PostgreSQL, two replicas)', () => {
  let db: TestDatabase;
  let sql: pg.Pool;
  const started: RelayLeadership[] = [];

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  async function within(ms: number, check: () => boolean | Promise<boolean>): Promise<number> {
    const begun = Date.now();
    while (Date.now() - begun < ms) {
      if (await check()) return Date.now() - begun;
      await sleep(20);
    }
    throw new Error(`not within ${ms} ms`);
  }

  /** A replica contending for the lock, and how many times it became the relay. */
  function replica(): { leadership: RelayLeadership; leads: () => number } {
    const leadership = new RelayLeadership();
    let leads = 0;
    leadership.start(() => leads++);
    started.push(leadership);
    return { leadership, leads: () => leads };
  }

  /** The relay sessions' advisory locks as PostgreSQL sees them: who holds it, who waits for it. */
  async function relayLocks(): Promise<{ holders: number[]; waiters: number[]; sessions: number }> {
    const locks = await sql.query<{ pid: number; granted: boolean }>(
      `SELECT l.pid, l.granted FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND a.application_name = 'webhook-dispatcher relay' AND a.datname = current_database()`,
    );
    const sessions = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'webhook-dispatcher relay' AND datname = current_database()`,
    );
    return {
      holders: locks.rows.filter((r) => r.granted).map((r) => r.pid),
      waiters: locks.rows.filter((r) => !r.granted).map((r) => r.pid),
      sessions: sessions.rows[0].n,
    };
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    // RelayLeadership opens its own connection from DATABASE_URL (poolConfig)
    process.env['DATABASE_URL'] = db.url;
    sql = new pg.Pool({ connectionString: db.url, max: 2 });
    sql.on('error', () => undefined);
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((l) => l.release()));
    // every session of the released replicas is gone before the next test starts
    await within(3_000, async () => (await relayLocks()).sessions === 0);
  });
  afterAll(async () => {
    await sql?.end();
    await db?.drop();
  });

  it('lets exactly one replica lead; the other waits for the lock inside PostgreSQL', async () => {
    const a = replica();
    await within(3_000, () => a.leadership.held);
    const b = replica();
    await within(3_000, async () => (await relayLocks()).waiters.length === 1);
    await sleep(300);
    expect(a.leadership.held).toBe(true);
    expect(b.leadership.held).toBe(false);
    expect([a.leads(), b.leads()]).toEqual([1, 0]);
    const locks = await relayLocks();
    expect(locks.holders).toHaveLength(1);
    expect(locks.waiters).toHaveLength(1);
    expect(locks.sessions).toBe(2);
  });

  it('hands over on release with never two leaders at once, and the released replica never leads again', async () => {
    const a = replica();
    await within(3_000, () => a.leadership.held);
    const b = replica();
    await within(3_000, async () => (await relayLocks()).waiters.length === 1);

    // sampled every millisecond during the hand-over: never two leaders at once
    let both = false;
    let sampling = true;
    const sampler = (async () => {
      for (; sampling; await new Promise((r) => setTimeout(r, 1))) both ||= a.leadership.held && b.leadership.held;
    })();
    try {
      await a.leadership.release();
      const ms = await within(3_000, () => b.leadership.held);
      expect(ms).toBeLessThan(3_000);
    } finally {
      sampling = false;
      await sampler;
    }
    expect(both).toBe(false);
    expect(b.leads()).toBe(1);
    // the lock is the follower's now, and the released replica has no session left that could take it back
    const locks = await relayLocks();
    expect(locks.holders).toHaveLength(1);
    expect(locks.waiters).toHaveLength(0);
    expect(locks.sessions).toBe(1);
    await sleep(500);
    expect(a.leadership.held).toBe(false);
    expect(a.leads()).toBe(1);

    // the last leader shutting down leaves the lock free: a replica started later leads at once
    await b.leadership.release();
    expect(b.leadership.held).toBe(false);
    await within(3_000, async () => (await relayLocks()).sessions === 0);
    const c = replica();
    await within(3_000, () => c.leadership.held);
    expect(c.leads()).toBe(1);
  });

  it('a leader whose connection is killed gives way: the follower takes over, and the old leader returns as a follower', async () => {
    const a = replica();
    await within(3_000, () => a.leadership.held);
    const b = replica();
    await within(3_000, async () => (await relayLocks()).waiters.length === 1);
    const [leaderPid] = (await relayLocks()).holders;

    // the leader's session ends under it (a failover, a network cut noticed by the server)
    await sql.query('SELECT pg_terminate_backend($1)', [leaderPid]);
    await within(3_000, () => b.leadership.held && !a.leadership.held);
    expect(b.leads()).toBe(1);

    // the old leader reconnects (after its first pause, 250 ms) and waits for the lock as a follower
    await within(3_000, async () => {
      const locks = await relayLocks();
      return locks.holders.length === 1 && locks.waiters.length === 1 && !locks.holders.includes(leaderPid);
    });
    expect(a.leadership.held).toBe(false);
    expect(a.leads()).toBe(1);

    // and it becomes the relay again, onLead run once more, when the new leader shuts down
    await b.leadership.release();
    await within(3_000, () => a.leadership.held);
    expect(a.leads()).toBe(2);
    expect((await relayLocks()).holders).toHaveLength(1);
  });

  it('a follower whose waiting connection is killed contends again, without taking the lock from the leader', async () => {
    const a = replica();
    await within(3_000, () => a.leadership.held);
    const b = replica();
    await within(3_000, async () => (await relayLocks()).waiters.length === 1);
    const [waiterPid] = (await relayLocks()).waiters;

    await sql.query('SELECT pg_terminate_backend($1)', [waiterPid]);
    await within(3_000, async () => {
      const locks = await relayLocks();
      return locks.waiters.length === 1 && !locks.waiters.includes(waiterPid);
    });
    expect(a.leadership.held).toBe(true);
    expect(b.leadership.held).toBe(false);
    expect([a.leads(), b.leads()]).toEqual([1, 0]);

    await a.leadership.release();
    await within(3_000, () => b.leadership.held);
    expect(b.leads()).toBe(1);
  });

  it('a released follower stops waiting: its session ends, and it does not lead when the leader lets go', async () => {
    const a = replica();
    await within(3_000, () => a.leadership.held);
    const b = replica();
    await within(3_000, async () => (await relayLocks()).waiters.length === 1);

    // its backend was blocked in pg_advisory_lock, reading nothing from the closed socket: it must notice and end
    await b.leadership.release();
    await within(3_000, async () => {
      const locks = await relayLocks();
      return locks.waiters.length === 0 && locks.sessions === 1;
    });
    await a.leadership.release();
    await within(3_000, async () => (await relayLocks()).sessions === 0);
    await sleep(500);
    expect(b.leadership.held).toBe(false);
    expect(b.leads()).toBe(0);
  });
});
