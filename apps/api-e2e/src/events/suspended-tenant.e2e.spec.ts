/**
 * Issue 34: a suspended tenant's background work pauses — its queued asynchronous reactor jobs are not run, its
 * webhook deliveries (new ones and retries) not attempted — and stays queued, not failed, until the operator resumes
 * the tenant; then it all runs (docs/operations.md, "Suspending a tenant").
 */
import { api, createTenant } from '@coffer/testing';
import { adminJson, database } from '../keys/support';
import { formulaCode, makeReactor } from '../reactors/support';
import { Receiver, eventually } from './support';

jest.setTimeout(120_000);

/** REACTOR_JOB_CONCURRENCY's default: this many hung jobs keep the next one queued */
const JOB_SLOTS = 4;

describe('a suspended tenant', () => {
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await new Receiver().start();
  });
  afterAll(() => receiver.stop());

  it('keeps its async reactor jobs and webhook deliveries queued while suspended, and runs them once resumed', async () => {
    const tenant = await createTenant('suspended-work');
    const hook = await api('POST', '/webhooks', {
      key: tenant.managementKey,
      body: { name: 'paused', url: receiver.url, events: ['token.created', 'reactor.completed', 'reactor.failed'] },
    });
    expect(hook.status).toBe(201);
    const user = await tenant.app('private', { permissions: ['token:create', 'token:use'] });
    const hung = await makeReactor(tenant.managementKey, { code: formulaCode('await new Promise(() => {});') });
    const quick = await makeReactor(tenant.managementKey, { code: formulaCode('return { raw: { ok: true } };') });

    // a delivery with a retry due while the tenant is suspended: the receiver asks for it 8 s later
    receiver.status = 503;
    receiver.headers = { 'retry-after': '8' };
    const token = await api('POST', '/tokens', { key: user.key, body: { type: 'token', data: 'retried' } });
    expect(token.status).toBe(201);
    const ofToken = (r: { body: string }) => r.body.includes(token.body.id);
    await eventually(async () => (receiver.received.some(ofToken) ? true : undefined));
    receiver.status = 204;
    receiver.headers = {};

    // every job slot busy with a run that hangs until its 10 s timeout, so the next job waits queued
    const hungJobs: string[] = [];
    for (let i = 0; i < JOB_SLOTS; i++) {
      const r = await api('POST', `/reactors/${hung.reactorId}/react-async`, { key: user.key, body: { args: {} } });
      expect(r.status).toBe(202);
      hungJobs.push(r.body.id);
    }
    const queued = await api('POST', `/reactors/${quick.reactorId}/react-async`, { key: user.key, body: { args: {} } });
    expect(queued.status).toBe(202);

    expect(await adminJson<{ status: string }>('tenants', 'suspend', tenant.tenantId)).toMatchObject({ status: 'suspended' });
    const heard = receiver.received.length;
    const db = await database();
    try {
      const statusOf = async (id: string) => (await db.query('SELECT status FROM reactor_jobs WHERE id = $1', [id])).rows[0]?.status as string;
      // the hung runs end (timed out), their slots are free, yet the queued job stays queued, and neither their
      // reactor.failed events nor the token's retry (due meanwhile) reach the receiver
      const allFailed = async () =>
        (await db.query(`SELECT count(*)::int AS n FROM reactor_jobs WHERE id = ANY ($1) AND status = 'failed'`, [hungJobs])).rows[0].n;
      await eventually(async () => ((await allFailed()) === JOB_SLOTS ? true : undefined), 30_000);
      await new Promise((r) => setTimeout(r, 2_500));
      expect(await statusOf(queued.body.id)).toBe('pending');
      expect(receiver.received.length).toBe(heard);
      const waiting = await db.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = $1 AND status = 'pending'`, [tenant.tenantId]);
      expect(waiting.rows[0].n).toBeGreaterThanOrEqual(1 + JOB_SLOTS);
    } finally {
      await db.end();
      await adminJson('tenants', 'resume', tenant.tenantId);
    }

    // resumed: the job runs, and every delivery arrives (the retry with the first attempt's webhook-id)
    const result = await eventually(async () => {
      const r = await api('GET', `/reactors/${quick.reactorId}/results/${queued.body.id}`, { key: user.key });
      return r.status === 200 && r.body.status === 'completed' ? r.body : undefined;
    }, 20_000);
    expect(result.result).toEqual({ raw: { ok: true } });
    const completed = await receiver.waitForEvent('reactor.completed', (e) => e.event.data.invocation?.id === queued.body.id);
    expect(completed.event.data.reactor).toEqual({ id: quick.reactorId });
    for (const id of hungJobs) await receiver.waitForEvent('reactor.failed', (e) => e.event.data.invocation?.id === id);
    await eventually(async () => (receiver.received.filter(ofToken).length >= 2 ? true : undefined), 20_000);
    const attempts = receiver.received.filter(ofToken);
    expect(new Set(attempts.map((r) => r.headers['webhook-id'])).size).toBe(1);
  });
});
