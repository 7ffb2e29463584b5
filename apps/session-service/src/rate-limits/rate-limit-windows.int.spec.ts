import { EventBus } from '@coffer/bus';
import { AuditTrail, RecordedWrites } from '@coffer/operations';
import { recordingEventBus, startIntegration, type IntegrationContext } from '@coffer/testing/integration';
import { SessionRepository } from '../sessions/session.repository';
import { SessionsService } from '../sessions/sessions.service';
import { RateLimitWindows } from './rate-limit-windows';

const HOUR = 3_600_000;

/** The gateway's shared rate limits against PostgreSQL: leases from many replicas at once, the sliding estimate, the sweep. */
describe('RateLimitWindows (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let windows: RateLimitWindows;
  let subjectNo = 0;
  const subject = () => `a:int-${process.pid}-${++subjectNo}`;
  const stored = async (s: string) =>
    (await ctx.sql.query('SELECT window_start::float8 AS start, granted FROM rate_limit_windows WHERE subject = $1 ORDER BY window_start', [s])).rows as Array<{
      start: number;
      granted: number;
    }>;

  beforeAll(async () => {
    ctx = await startIntegration({ providers: [RateLimitWindows, SessionRepository, SessionsService, EventBus, AuditTrail, RecordedWrites] }, [
      { provide: EventBus, useValue: recordingEventBus() },
    ]);
    windows = ctx.get(RateLimitWindows);
  });
  afterAll(() => ctx?.close());

  it('grants at most `want`, then what the limit leaves, then nothing; the window is a multiple of its length', async () => {
    const s = subject();
    const first = await windows.lease({ subject: s, limit: 10, windowMs: HOUR, want: 4 });
    expect(first).toMatchObject({ granted: 4, remaining: 6, nextPermitInMs: 0 });
    expect(first.windowStart % HOUR).toBe(0);
    expect(first.windowEndsInMs).toBeGreaterThan(0);
    expect(first.retryAfterSeconds).toBe(Math.max(1, Math.ceil(first.windowEndsInMs / 1000)));
    expect(await windows.lease({ subject: s, limit: 10, windowMs: HOUR, want: 100 })).toMatchObject({ granted: 6, remaining: 0 });
    const refused = await windows.lease({ subject: s, limit: 10, windowMs: HOUR, want: 1 });
    expect(refused).toMatchObject({ granted: 0, remaining: 0 });
    // nothing of the previous window: nothing frees up before this one ends
    expect(refused.nextPermitInMs).toBe(refused.windowEndsInMs);
    expect(await stored(s)).toEqual([{ start: first.windowStart, granted: 10 }]);
  });

  it('never grants more than the limit, however many replicas ask at once (first leases of a window racing too)', async () => {
    for (const want of [1, 3, 7]) {
      const s = subject();
      const replies = await Promise.all(Array.from({ length: 40 }, () => windows.lease({ subject: s, limit: 25, windowMs: HOUR, want })));
      expect(replies.reduce((n, r) => n + r.granted, 0)).toBe(25);
      expect(replies.every((r) => r.granted <= want)).toBe(true);
      expect((await stored(s))[0].granted).toBe(25);
    }
  });

  it("weighs the previous window's grants by the share of it still inside the sliding window", async () => {
    const s = subject();
    const windowMs = HOUR;
    const probe = await windows.lease({ subject: s, limit: 1000, windowMs, want: 1 });
    await ctx.sql.query('INSERT INTO rate_limit_windows (subject, window_start, granted) VALUES ($1, $2, 800)', [s, probe.windowStart - windowMs]);
    const reply = await windows.lease({ subject: s, limit: 1000, windowMs, want: 1000 });
    expect(reply.windowStart).toBe(probe.windowStart);
    const now = reply.windowStart + windowMs - reply.windowEndsInMs;
    const cap = Math.floor(1000 - 800 * (1 - (now - reply.windowStart) / windowMs));
    // the clock moved by at most a few ms between the statement and its reply's rounding
    expect(Math.abs(reply.granted - (cap - 1))).toBeLessThanOrEqual(1);
    expect(reply.remaining).toBe(0);
    // the estimate frees a permit as the previous window's share shrinks: well before the window ends
    expect(reply.nextPermitInMs).toBeGreaterThan(0);
    expect(reply.nextPermitInMs).toBeLessThan(reply.windowEndsInMs);
  });

  it('fixed windows (the console sign-ins) do not count the previous window', async () => {
    const s = subject();
    const probe = await windows.lease({ subject: s, limit: 10, windowMs: HOUR, want: 1, fixed: true });
    await ctx.sql.query('INSERT INTO rate_limit_windows (subject, window_start, granted) VALUES ($1, $2, 10)', [s, probe.windowStart - HOUR]);
    expect(await windows.lease({ subject: s, limit: 10, windowMs: HOUR, want: 100, fixed: true })).toMatchObject({ granted: 9, remaining: 0 });
  });

  it("the sessions' periodic sweep deletes windows older than two hours, and keeps the rest", async () => {
    const s = subject();
    const now = Date.now();
    const old = now - 3 * HOUR - (now % HOUR);
    const recent = now - (now % 10_000);
    await ctx.sql.query('INSERT INTO rate_limit_windows (subject, window_start, granted) VALUES ($1, $2, 5), ($1, $3, 7)', [s, old, recent]);
    await ctx.get(SessionsService).sweep();
    expect(await stored(s)).toEqual([{ start: recent, granted: 7 }]);
  });
});
