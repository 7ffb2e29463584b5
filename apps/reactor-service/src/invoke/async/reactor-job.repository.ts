import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService, SqlPool, outboxInsert, tenantNotSuspended } from '@coffer/db';
import type { CofferEvent, Principal } from '@coffer/contracts';
import { reactorServiceConfig } from '../../config';

export interface ReactorJobRow {
  id: string;
  tenant_id: string;
  reactor_id: string;
  application_id: string;
  principal: Principal;
  args_ciphertext: Uint8Array;
  args_key_id: string;
  /** null: a react-async job (read back, never delivered) */
  callback_url: string | null;
  timeout_ms: number;
  trace_id: string | null;
  status: 'pending' | 'running' | 'succeeded' | 'failed';
  /** legacy plaintext outcome (rows completed before outcomes were sealed) */
  result: unknown;
  error: unknown;
  outcome_ciphertext: Uint8Array | null;
  outcome_key_id: string | null;
  runs: number;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
}

export interface Sealed {
  keyId: string;
  ciphertext: Buffer;
}

export interface NewJob {
  id: string;
  reactorId: string;
  principal: Principal;
  argsCiphertext: Buffer;
  argsKeyId: string;
  callbackUrl: string | null;
  timeoutMs: number;
  traceId: string;
}

/**
 * reactor_jobs (owned by reactor-service). A claim moves a due job to `running` with a lease a little longer than
 * its timeout; a worker that dies leaves the lease to expire and another worker runs the job again (at least once).
 * Completion stores the result, its event and the webhook delivery in one statement.
 */
@Injectable()
export class ReactorJobRepository {
  /** REACTOR_JOB_LEASE_SLACK_MS: how long past its timeout a running job stays leased before another worker may take it over */
  private readonly leaseSlackMs = reactorServiceConfig().reactorJobLeaseSlackMs;

  constructor(
    private readonly prisma: PrismaService,
    /** the writes and the claim every job makes run on the plain pool, prepared: one round trip each */
    private readonly sql: SqlPool,
  ) {}

  /** The job and its reactor.invoked event, in one statement (prepared): they commit together. */
  async insert(tenantId: string, j: NewJob, events: CofferEvent[] = []): Promise<void> {
    await this.sql.query(
      Prisma.sql`
        WITH j AS (
          INSERT INTO reactor_jobs (id, tenant_id, reactor_id, application_id, principal, args_ciphertext, args_key_id, callback_url, timeout_ms, trace_id)
          VALUES (${j.id}::uuid, ${tenantId}::uuid, ${j.reactorId}::uuid, ${j.principal.sessionId ?? j.principal.applicationId}::uuid,
            ${JSON.stringify(j.principal)}::jsonb, ${j.argsCiphertext}::bytea, ${j.argsKeyId}::uuid, ${j.callbackUrl}::text, ${j.timeoutMs}::int,
            ${j.traceId}::text)
          RETURNING id
        ), o AS (${outboxInsert(events, Prisma.raw('j'))})
        SELECT id FROM j`,
      'reactor_job_insert',
    );
  }

  /** Due jobs (new, or leased to a worker that died), oldest first; none of a suspended tenant (they wait until it is resumed). */
  claim(limit: number): Promise<ReactorJobRow[]> {
    return this.sql.query<ReactorJobRow>(
      Prisma.sql`
        UPDATE reactor_jobs j SET status = 'running', runs = j.runs + 1, started_at = now(),
          locked_until = now() + make_interval(secs => (j.timeout_ms + ${this.leaseSlackMs}::int) / 1000.0)
        WHERE j.id IN (
          SELECT id FROM reactor_jobs
          WHERE (status = 'pending' OR (status = 'running' AND locked_until < now())) AND ${tenantNotSuspended(Prisma.raw('reactor_jobs.tenant_id'))}
          ORDER BY created_at LIMIT ${limit}::int FOR UPDATE SKIP LOCKED
        )
        RETURNING j.*`,
      'reactor_job_claim',
    );
  }

  /**
   * Stores the outcome with its events (reactor.completed or reactor.failed) and queues its delivery (callback jobs),
   * in one statement (prepared), once: a run whose lease was taken over cannot complete twice. True when a delivery
   * was queued. Outcome and body arrive sealed (tenant data key): formula output never lands in plaintext.
   */
  async complete(job: ReactorJobRow, status: 'succeeded' | 'failed', outcome: Sealed, deliveryBody: Sealed, events: CofferEvent[] = []): Promise<boolean> {
    const [done] = await this.sql.query<{ completed: boolean; queued: boolean }>(
      Prisma.sql`
        WITH u AS (
          UPDATE reactor_jobs SET status = ${status}::text, result = NULL, error = NULL,
            outcome_ciphertext = ${outcome.ciphertext}::bytea, outcome_key_id = ${outcome.keyId}::uuid, completed_at = now(), locked_until = NULL
          WHERE id = ${job.id}::uuid AND tenant_id = ${job.tenant_id}::uuid AND status = 'running' AND runs = ${job.runs}::int
          RETURNING id, tenant_id, callback_url
        ), o AS (${outboxInsert(events, Prisma.raw('u'))}),
        d AS (
          INSERT INTO webhook_deliveries (id, tenant_id, url, body_ciphertext, body_key_id, status, attempts, next_attempt_at, created_at)
          SELECT u.id, u.tenant_id, u.callback_url, ${deliveryBody.ciphertext}::bytea, ${deliveryBody.keyId}::uuid, 'pending', 0, now(), now()
          FROM u WHERE u.callback_url IS NOT NULL
          ON CONFLICT (id) DO NOTHING
        )
        SELECT EXISTS (SELECT 1 FROM u) AS completed, EXISTS (SELECT 1 FROM u WHERE callback_url IS NOT NULL) AS queued`,
      'reactor_job_complete',
    );
    return done.completed && done.queued;
  }

  /** Gives a run back: the job is claimed again once `delayMs` has passed (its lease now ends then). */
  async postpone(job: ReactorJobRow, delayMs: number): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE reactor_jobs SET locked_until = now() + make_interval(secs => ${delayMs / 1000})
      WHERE id = ${job.id}::uuid AND tenant_id = ${job.tenant_id}::uuid AND status = 'running' AND runs = ${job.runs}`;
  }

  async find(tenantId: string, reactorId: string, id: string): Promise<ReactorJobRow | null> {
    const rows = await this.prisma.$queryRaw<ReactorJobRow[]>`
      SELECT * FROM reactor_jobs WHERE tenant_id = ${tenantId}::uuid AND reactor_id = ${reactorId}::uuid AND id = ${id}::uuid`;
    return rows[0] ?? null;
  }

  /**
   * How long until a job comes due, in ms by the database's clock: 0 or less when one is due already (a pending one,
   * or a running one whose lease ended); the end of the earliest lease otherwise (a run given back for later, or one
   * a dead process left); null when no job waits. A suspended tenant's jobs are left out (its resumption wakes the
   * workers).
   */
  async nextDueInMs(): Promise<number | null> {
    const [row] = await this.sql.query<{ ms: number | null }>(
      Prisma.sql`
        SELECT (extract(epoch FROM min(CASE WHEN status = 'pending' THEN now() ELSE locked_until END) - now()) * 1000)::float8 AS ms
        FROM reactor_jobs WHERE status IN ('pending', 'running') AND ${tenantNotSuspended(Prisma.raw('reactor_jobs.tenant_id'))}`,
      'reactor_job_next_due',
    );
    return row?.ms === null || row?.ms === undefined ? null : Number(row.ms);
  }

  async pendingCount(): Promise<number> {
    return this.prisma.reactorJob.count({ where: { status: { in: ['pending', 'running'] } } });
  }
}
