/**
 * Issue 27 (the console's test runs show a formula's logs): `capture_logs` on a synchronous POST /reactors/{id}/react
 * returns what the formula printed, with the result or with the problem when it fails; never for an asynchronous run,
 * never stored for an idempotent replay.
 */
import { api, createTenant, type TestTenant } from '@coffer/testing';

jest.setTimeout(60_000);

const LOGGING = `module.exports = async function (req) {
  console.log('charging', req.args.amount);
  console.warn('slow processor');
  if (req.args.fail) throw new Error('declined');
  return { raw: { ok: true } };
};`;

describe('reactor test runs with capture_logs', () => {
  let tenant: TestTenant;
  let key: string;
  let reactorId: string;

  beforeAll(async () => {
    tenant = await createTenant('reactor-logs');
    key = (await tenant.app('private', { permissions: ['token:use'] })).key;
    const created = await api('POST', '/reactors', { key: tenant.managementKey, body: { name: 'logging', code: LOGGING } });
    expect(created.status).toBe(201);
    reactorId = created.body.id;
  });

  const react = (body: unknown, headers: Record<string, string> = {}) => api('POST', `/reactors/${reactorId}/react`, { key, body, headers });

  it('returns the console output with the result; without capture_logs there is none', async () => {
    const res = await react({ args: { amount: 12 }, capture_logs: true });
    expect(res.status).toBe(200);
    expect(res.body.raw).toEqual({ ok: true });
    expect(res.body.logs).toEqual(['[log] charging 12', '[warn] slow processor']);
    const plain = await react({ args: { amount: 12 } });
    expect(plain.body).toEqual({ raw: { ok: true } });
  });

  it("returns the logs on the formula's failure problem", async () => {
    const res = await react({ args: { amount: 5, fail: true }, capture_logs: true });
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body.logs).toEqual(expect.arrayContaining(['[log] charging 5', '[warn] slow processor']));
    const plain = await react({ args: { amount: 5, fail: true } });
    expect(plain.body.logs).toBeUndefined();
  });

  it('refuses capture_logs on an asynchronous run and a non-boolean value (400)', async () => {
    const async = await react({ args: {}, capture_logs: true, callback_url: 'https://hooks.example.com/x' });
    expect(async.status).toBe(400);
    expect(async.body.errors.capture_logs).toBeDefined();
    expect((await react({ args: {}, capture_logs: 'yes' })).status).toBe(400);
  });

  it('an idempotent replay answers the result without the first run’s logs', async () => {
    const headers = { 'SVC-IDEMPOTENCY-KEY': `logs-${Date.now()}` };
    const first = await react({ args: { amount: 1 }, capture_logs: true }, headers);
    expect(first.body.logs).toHaveLength(2);
    const again = await react({ args: { amount: 1 }, capture_logs: true }, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get('svc-idempotent-replay')).toBe('true');
    expect(again.body).toEqual({ raw: { ok: true } });
  });
});
