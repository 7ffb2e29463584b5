import { Injectable } from '@nestjs/common';
import { EventOutbox, Prisma, PrismaService, tenantNotSuspended } from '@coffer/db';
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
 * Completion stores the result and queues the webhook delivery in one transaction (the outbox).
 */
@Injectable()
export class ReactorJobRepository {
  /** REACTOR_JOB_LEASE_SLACK_MS: how long past its timeout a running job stays leased before another worker may take it over */
  private readonly leaseSlackMs = reactorServiceConfig().reactorJobLeaseSlackMs;

  constructor(
    private readonly prisma: PrismaService,
    private readonly outbox: EventOutbox,
  ) {}

  /** The job and its reactor.invoked event, in one transaction. */
  async insert(tenantId: string, j: NewJob, events: CofferEvent[] = []): Promise<void> {
    await this.prisma.transactional(async () => {
      await this.insertJob(tenantId, j);
      await this.outbox.record(events);
    });
  }

  private async insertJob(tenantId: string, j: NewJob): Promise<void> {
    await this.prisma.reactorJob.create({
      data: {
        id: j.id,
        tenantId,
        reactorId: j.reactorId,
        applicationId: j.principal.sessionId ?? j.principal.applicationId,
        principal: j.principal as unknown as Prisma.InputJsonValue,
        argsCiphertext: new Uint8Array(j.argsCiphertext),
        argsKeyId: j.argsKeyId,
        callbackUrl: j.callbackUrl,
        timeoutMs: j.timeoutMs,
        traceId: j.traceId,
      },
    });
  }

  /** Due jobs (new, or leased to a worker that died), oldest first; none of a suspended tenant (they wait until it is resumed). */
  claim(limit: number): Promise<ReactorJobRow[]> {
    return this.prisma.$queryRaw<ReactorJobRow[]>`
      UPDATE reactor_jobs j SET status = 'running', runs = j.runs + 1, started_at = now(),
        locked_until = now() + make_interval(secs => (j.timeout_ms + ${this.leaseSlackMs}) / 1000.0)
      WHERE j.id IN (
        SELECT id FROM reactor_jobs
        WHERE (status = 'pending' OR (status = 'running' AND locked_until < now())) AND ${tenantNotSuspended(Prisma.raw('reactor_jobs.tenant_id'))}
        ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
      )
      RETURNING j.*`;
  }

  /**
   * Stores the outcome and queues its delivery (callback jobs), once: a run whose lease was taken over cannot
   * complete twice. True when a delivery was queued. Outcome and body arrive sealed (tenant data key): formula
   * output never lands in plaintext.
   */
  /** The outcome, its events (reactor.completed or reactor.failed) and the callback's delivery, in one transaction. */
  async complete(job: ReactorJobRow, status: 'succeeded' | 'failed', outcome: Sealed, deliveryBody: Sealed, events: CofferEvent[] = []): Promise<boolean> {
    return this.prisma.transactional(async () => {
      const n = await this.prisma.$executeRaw`
        UPDATE reactor_jobs SET status = ${status}, result = NULL, error = NULL,
          outcome_ciphertext = ${outcome.ciphertext}, outcome_key_id = ${outcome.keyId}::uuid, completed_at = now(), locked_until = NULL
        WHERE id = ${job.id}::uuid AND tenant_id = ${job.tenant_id}::uuid AND status = 'running' AND runs = ${job.runs}`;
      if (n !== 1) return false;
      await this.outbox.record(events);
      if (job.callback_url === null) return false;
      await this.prisma.$executeRaw`
        INSERT INTO webhook_deliveries (id, tenant_id, url, body_ciphertext, body_key_id, status, attempts, next_attempt_at, created_at)
        VALUES (${job.id}::uuid, ${job.tenant_id}::uuid, ${job.callback_url}, ${deliveryBody.ciphertext}, ${deliveryBody.keyId}::uuid, 'pending', 0, now(), now())
        ON CONFLICT (id) DO NOTHING`;
      return true;
    });
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
    const [row] = await this.prisma.$queryRaw<Array<{ ms: number | null }>>`
      SELECT (extract(epoch FROM min(CASE WHEN status = 'pending' THEN now() ELSE locked_until END) - now()) * 1000)::float8 AS ms
      FROM reactor_jobs WHERE status IN ('pending', 'running') AND ${tenantNotSuspended(Prisma.raw('reactor_jobs.tenant_id'))}`;
    return row?.ms === null || row?.ms === undefined ? null : Number(row.ms);
  }

  async pendingCount(): Promise<number> {
    return this.prisma.reactorJob.count({ where: { status: { in: ['pending', 'running'] } } });
  }
}
