import { Injectable } from '@nestjs/common';
import { RATE_LIMIT_MAX_WINDOW_MS, type RateLimitLeaseMessage, type RateLimitLeaseReply } from '@coffer/contracts';
import { PrismaService } from '@coffer/db';

/** Rows older than two windows of the longest limit are no longer read (a lease reads this window and the previous). */
export const RATE_LIMIT_ROW_TTL_MS = 2 * RATE_LIMIT_MAX_WINDOW_MS;
const SWEEP_BATCH = 5_000;

interface LeaseRow {
  before: number;
  after: number;
  cap: number;
  previous: number;
  start: number;
  now_ms: number;
}

/**
 * The gateway's rate limits, shared by its replicas (docs/operations.md, "Rate limits"): rate_limit_windows holds the
 * permits granted per subject and fixed window. A lease is one statement on the database's clock: it locks the
 * window's row, reads the previous window's grants, and grants at most what the sliding estimate leaves,
 * `floor(limit - previous × remaining share of the previous window) - granted`. Concurrent leases of one subject queue
 * on the row lock, so a window's grants never pass the limit, whichever replica asks.
 */
@Injectable()
export class RateLimitWindows {
  constructor(private readonly prisma: PrismaService) {}

  async lease(msg: RateLimitLeaseMessage): Promise<RateLimitLeaseReply> {
    // the first lease of a window inserts its row; two first leases racing: the loser's insert does nothing, and it asks again
    for (let attempt = 0; ; attempt++) {
      const row = await this.leaseOnce(msg);
      if (row) return replyOf(row, msg);
      if (attempt >= 2) throw new Error('rate limit lease: the window row kept changing');
    }
  }

  private async leaseOnce({ subject, limit, windowMs, want, fixed }: RateLimitLeaseMessage): Promise<LeaseRow | undefined> {
    const rows = await this.prisma.$queryRaw<LeaseRow[]>`
      WITH clock AS (
        SELECT now_ms, now_ms - now_ms % ${windowMs}::bigint AS start
        FROM (SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint AS now_ms) t
      ),
      cap AS (
        SELECT clock.start, clock.now_ms, coalesce(p.granted, 0) * ${fixed ? 0 : 1}::int AS previous,
          floor(${limit}::int - coalesce(p.granted, 0) * ${fixed ? 0 : 1}::int * (1 - (clock.now_ms - clock.start)::float8 / ${windowMs}::int))::int AS cap
        FROM clock
        LEFT JOIN rate_limit_windows p ON p.subject = ${subject} AND p.window_start = clock.start - ${windowMs}::bigint
      ),
      old AS (
        SELECT r.granted FROM rate_limit_windows r, clock
        WHERE r.subject = ${subject} AND r.window_start = clock.start
        FOR UPDATE OF r
      ),
      upd AS (
        UPDATE rate_limit_windows r SET granted = r.granted + LEAST(${want}::int, GREATEST(0, cap.cap - r.granted))
        FROM old, cap
        WHERE r.subject = ${subject} AND r.window_start = cap.start
        RETURNING old.granted AS before, r.granted AS after
      ),
      ins AS (
        INSERT INTO rate_limit_windows (subject, window_start, granted)
        SELECT ${subject}, cap.start, LEAST(${want}::int, GREATEST(0, cap.cap)) FROM cap
        WHERE NOT EXISTS (SELECT 1 FROM old)
        ON CONFLICT (subject, window_start) DO NOTHING
        RETURNING 0 AS before, granted AS after
      )
      SELECT s.before::int AS before, s.after::int AS after, cap.cap, cap.previous, cap.start::float8 AS start, cap.now_ms::float8 AS now_ms
      FROM (SELECT * FROM upd UNION ALL SELECT * FROM ins) s, cap`;
    return rows[0];
  }

  /** Deletes the rows no lease reads any more (older than two windows of the longest limit), in batches. */
  async sweep(): Promise<number> {
    let total = 0;
    for (;;) {
      const gone = await this.prisma.$executeRaw`
        DELETE FROM rate_limit_windows WHERE (subject, window_start) IN (
          SELECT subject, window_start FROM rate_limit_windows
          WHERE window_start < floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint - ${RATE_LIMIT_ROW_TTL_MS}::bigint
          LIMIT ${SWEEP_BATCH} FOR UPDATE SKIP LOCKED
        )`;
      total += gone;
      if (gone < SWEEP_BATCH) return total;
    }
  }
}

function replyOf(row: LeaseRow, { limit, windowMs }: RateLimitLeaseMessage): RateLimitLeaseReply {
  const start = Number(row.start);
  const now = Number(row.now_ms);
  const after = Number(row.after);
  const previous = Number(row.previous);
  const remaining = Math.max(0, Number(row.cap) - after);
  const windowEndsInMs = Math.max(0, start + windowMs - now);
  // the estimate grows as the previous window's share shrinks: limit - previous × (1 - elapsed / window) ≥ after + 1
  let nextPermitInMs = 0;
  if (remaining === 0) {
    const elapsedNeeded = previous > 0 ? Math.ceil(windowMs * (1 - (limit - after - 1) / previous)) : windowMs;
    nextPermitInMs = Math.min(windowEndsInMs, Math.max(1, start + elapsedNeeded - now));
  }
  return {
    granted: Math.max(0, after - Number(row.before)),
    windowStart: start,
    remaining,
    retryAfterSeconds: Math.max(1, Math.ceil(windowEndsInMs / 1000)),
    windowEndsInMs,
    nextPermitInMs,
  };
}
