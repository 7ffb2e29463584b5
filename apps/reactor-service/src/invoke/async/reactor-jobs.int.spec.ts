import { randomUUID } from 'node:crypto';
import { ProblemError, type Principal } from '@coffer/contracts';
import { EventBus } from '@coffer/bus';
import { caller, currentTraceId, withActingContext } from '@coffer/operations';
import { insertTenant, startIntegration, type IntegrationContext } from '@coffer/testing/integration';
import { ApplicationDirectory } from '../../reactors/application-directory';
import { ReactReplies } from '../react-replies';
import { ReactorRunner } from '../reactor-runner';
import { ReactorSandbox } from '../reactor-sandbox';
import { JOBS_WAKE_SUBJECT, ReactorJobs } from './reactor-jobs';
import { ReactorJobRepository } from './reactor-job.repository';

// the safety sweep an hour away: whatever the workers do within seconds here, a wake-up or a due time made them do
process.env['REACTOR_JOB_POLL_INTERVAL_MS'] = '3600000';

/**
 * What runs the asynchronous job workers (issue 35: no polling), against PostgreSQL: the NATS message of an accepted
 * job, the end of a postponed run's lease, and a suspended tenant's resumption — each within a second or two, with
 * the safety sweep an hour away. The formula itself is out of the picture (a fake runner).
 */
describe('ReactorJobs wake-ups (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let jobs: ReactorJobs;
  let tenant: string;
  let principal: Principal;
  const subscribed = new Map<string, () => void>();
  const published: string[] = [];
  // the bus delivers nothing by itself: a test calls the subscribed handler to stand for the message arriving
  const bus = {
    subscribe: async (subject: string, handler: () => void) => void subscribed.set(subject, handler),
    publish: async (subject: string) => void published.push(subject),
  };
  /** what the runner does at the next prepare: throw (a backing service down) or not */
  const failures: unknown[] = [];
  /** who the runner's two halves ran as (the operation's caller and trace id of their acting context) */
  const ranAs: Array<{ step: string; applicationId: string; traceId: string | undefined }> = [];
  const runner = {
    prepare: async () => {
      ranAs.push({ step: 'prepare', applicationId: caller().applicationId, traceId: currentTraceId() });
      const failure = failures.shift();
      if (failure) throw failure;
      return {};
    },
    runRecorded: async () => {
      ranAs.push({ step: 'run', applicationId: caller().applicationId, traceId: currentTraceId() });
      return { response: { raw: { ok: true } }, shown: [], writer: null };
    },
  };

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  async function within(ms: number, check: () => boolean | Promise<boolean>): Promise<number> {
    const started = Date.now();
    while (Date.now() - started < ms) {
      if (await check()) return Date.now() - started;
      await sleep(20);
    }
    throw new Error(`not within ${ms} ms`);
  }
  const status = async (id: string) => (await ctx.sql.query('SELECT status FROM reactor_jobs WHERE id = $1', [id])).rows[0]?.status as string;
  /** a job accepted as `principal`, in the acting context of its react-async operation */
  const accept = async (traceId = randomUUID()) => (await withActingContext({ principal, traceId }, () => jobs.accept(randomUUID(), {}, null, 5_000))).id;

  beforeAll(async () => {
    ctx = await startIntegration(
      { providers: [ReactorJobs, ReactorJobRepository, ReactorRunner, EventBus, ReactReplies, ApplicationDirectory, ReactorSandbox] },
      [
        { provide: EventBus, useValue: bus },
        { provide: ReactorRunner, useValue: runner },
        { provide: ReactReplies, useValue: {} },
        { provide: ApplicationDirectory, useValue: { principalOf: async () => principal } },
        { provide: ReactorSandbox, useValue: { closed: false } },
      ],
    );
    jobs = ctx.get(ReactorJobs);
    tenant = await insertTenant(ctx.sql);
    principal = { tenantId: tenant, applicationId: randomUUID(), applicationType: 'private', permissions: ['token:use'] };
    // the workers looked once at start and found nothing: from now on they sleep until woken
    await sleep(300);
  });
  afterAll(() => ctx?.close());

  it("runs an accepted job when the job's NATS message arrives", async () => {
    const id = await accept();
    expect(published).toContain(JOBS_WAKE_SUBJECT);
    await sleep(300);
    expect(await status(id)).toBe('pending');
    subscribed.get(JOBS_WAKE_SUBJECT)?.();
    await within(3_000, async () => (await status(id)) === 'succeeded');
  });

  it('runs a job as the principal stored with it and in its trace, whoever woke the workers', async () => {
    const traceId = randomUUID();
    const id = await accept(traceId);
    ranAs.length = 0;
    // the wake-up arrives while another tenant's operation is current: the job does not run as that caller
    const other = { tenantId: randomUUID(), applicationId: randomUUID(), applicationType: 'private' as const, permissions: ['token:use'] };
    withActingContext({ principal: other, traceId: 'another operation' }, () => subscribed.get(JOBS_WAKE_SUBJECT)?.());
    await within(3_000, async () => (await status(id)) === 'succeeded');
    expect(ranAs).toEqual([
      { step: 'prepare', applicationId: principal.applicationId, traceId },
      { step: 'run', applicationId: principal.applicationId, traceId },
    ]);
  });

  it('runs a postponed job again when its lease ends, woken by nothing', async () => {
    // a backing service was down: the run is given back for a second (RETRY_BASE_MS × runs)
    failures.push(new ProblemError(503, 'token-service is unavailable'));
    const id = await accept();
    subscribed.get(JOBS_WAKE_SUBJECT)?.();
    await within(3_000, async () => (await ctx.sql.query('SELECT runs FROM reactor_jobs WHERE id = $1', [id])).rows[0].runs === 1);
    const ms = await within(5_000, async () => (await status(id)) === 'succeeded');
    expect(ms).toBeGreaterThanOrEqual(500);
  });

  it("runs a suspended tenant's job as soon as the tenant is resumed", async () => {
    await ctx.sql.query('UPDATE tenants SET suspended_at = now() WHERE id = $1', [tenant]);
    const id = await accept();
    subscribed.get(JOBS_WAKE_SUBJECT)?.();
    await sleep(1_000);
    expect(await status(id)).toBe('pending');
    await ctx.sql.query('UPDATE tenants SET suspended_at = NULL WHERE id = $1', [tenant]);
    await within(3_000, async () => (await status(id)) === 'succeeded');
  });
});
