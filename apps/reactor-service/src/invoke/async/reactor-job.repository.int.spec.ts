import { randomUUID } from 'node:crypto';
import { newEvent, systemActor, type Principal } from '@coffer/contracts';
import { insertTenant, principalOf, startIntegration, type IntegrationContext } from '@coffer/testing/integration';
import { ReactorJobRepository, type ReactorJobRow } from './reactor-job.repository';

/** The job table's writes against PostgreSQL: each is one statement, so what belongs together commits together. */
describe('ReactorJobRepository (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let jobs: ReactorJobRepository;
  let tenant: string;
  let principal: Principal;

  beforeAll(async () => {
    ctx = await startIntegration({ providers: [ReactorJobRepository] });
    jobs = ctx.get(ReactorJobRepository);
    tenant = await insertTenant(ctx.sql);
    principal = principalOf(tenant, { permissions: ['token:use'] });
  });
  afterAll(() => ctx?.close());

  const event = (type: 'reactor.invoked' | 'reactor.completed' | 'reactor.failed') => newEvent(type, tenant, undefined, systemActor('test'), {});
  const sealed = (text: string) => ({ keyId: randomUUID(), ciphertext: Buffer.from(text) });
  const outboxOf = async (id: string) => (await ctx.sql.query('SELECT type FROM event_outbox WHERE id = $1', [id])).rows;
  const deliveriesOf = async (jobId: string) => (await ctx.sql.query('SELECT url, status FROM webhook_deliveries WHERE id = $1', [jobId])).rows;

  async function accepted(callbackUrl: string | null): Promise<{ id: string; invoked: string }> {
    const id = randomUUID();
    const invoked = event('reactor.invoked');
    await jobs.insert(
      tenant,
      { id, reactorId: randomUUID(), principal, argsCiphertext: Buffer.from('args'), argsKeyId: randomUUID(), callbackUrl, timeoutMs: 5000, traceId: 'tr' },
      [invoked],
    );
    return { id, invoked: invoked.id };
  }

  async function claimed(id: string): Promise<ReactorJobRow> {
    const rows = await jobs.claim(100);
    const job = rows.find((r) => r.id === id);
    if (!job) throw new Error(`job ${id} was not claimed`);
    return job;
  }

  it('accepts a job with its invoked event; the claim hands it out once, as stored, with its run counted', async () => {
    const { id, invoked } = await accepted(null);
    expect(await outboxOf(invoked)).toEqual([{ type: 'reactor.invoked' }]);
    const job = await claimed(id);
    expect(job).toMatchObject({ id, tenant_id: tenant, status: 'running', runs: 1, callback_url: null, principal, trace_id: 'tr' });
    expect(Buffer.from(job.args_ciphertext).toString()).toBe('args');
    expect((await jobs.claim(100)).some((r) => r.id === id)).toBe(false);
  });

  it('completes a callback job once: its outcome, its event and its delivery together; a run whose lease was taken over writes nothing', async () => {
    const { id } = await accepted('https://example.com/hook');
    const job = await claimed(id);
    const completed = event('reactor.completed');
    expect(await jobs.complete(job, 'succeeded', sealed('outcome'), sealed('body'), [completed])).toBe(true);
    expect(await outboxOf(completed.id)).toEqual([{ type: 'reactor.completed' }]);
    expect(await deliveriesOf(id)).toEqual([{ url: 'https://example.com/hook', status: 'pending' }]);
    const row = (await ctx.sql.query('SELECT status, outcome_ciphertext, completed_at FROM reactor_jobs WHERE id = $1', [id])).rows[0];
    expect(row.status).toBe('succeeded');
    expect(Buffer.from(row.outcome_ciphertext).toString()).toBe('outcome');
    expect(row.completed_at).toBeInstanceOf(Date);

    // the same run again (as a worker whose lease ran out would try): no second event, no second delivery
    const late = event('reactor.completed');
    expect(await jobs.complete(job, 'failed', sealed('late'), sealed('late'), [late])).toBe(false);
    expect(await outboxOf(late.id)).toEqual([]);
    expect((await ctx.sql.query('SELECT status FROM reactor_jobs WHERE id = $1', [id])).rows[0].status).toBe('succeeded');
  });

  it('completes a react-async job (no callback) with its event and no delivery', async () => {
    const { id } = await accepted(null);
    const job = await claimed(id);
    const failed = event('reactor.failed');
    expect(await jobs.complete(job, 'failed', sealed('outcome'), sealed('body'), [failed])).toBe(false);
    expect(await outboxOf(failed.id)).toEqual([{ type: 'reactor.failed' }]);
    expect(await deliveriesOf(id)).toEqual([]);
    expect((await ctx.sql.query('SELECT status FROM reactor_jobs WHERE id = $1', [id])).rows[0].status).toBe('failed');
  });
});
