/**
 * Issue 13: reactors that carry their own `code` (what `@basis-theory/node-sdk` creates), PATCH /reactors/{id},
 * PUT with code, POST /reactors/{id}/react-async and its results — with the argument rules, sandbox, encrypted
 * configuration and errors of formula reactors, which keep working as before.
 */
import { BasisTheoryClient } from '@basis-theory/node-sdk';
import { Client } from 'pg';
import { VISA, api, control, createTenant, gatewayUrl, type TestTenant } from '@coffer/testing';
import { formulaCode, makeReactor } from './support';

jest.setTimeout(120_000);

const ECHO = formulaCode('return { raw: { args: req.args, configuration: req.configuration, svc: req.svc !== null } };');
const MERGE_PATCH = 'application/merge-patch+json';

describe('reactors with their own code', () => {
  let tenant: TestTenant;
  let mk: string;
  let key: string;
  let appId: string;
  let db: Client;

  beforeAll(async () => {
    tenant = await createTenant('reactors-code');
    mk = tenant.managementKey;
    const app = await tenant.app('private', { permissions: ['token:create', 'token:read', 'token:use'] });
    key = app.key;
    appId = app.id;
    db = new Client({ connectionString: process.env['COFFER_E2E_DATABASE_URL'] });
    await db.connect();
  });
  afterAll(() => db.end());

  const create = (body: Record<string, unknown>) => api('POST', '/reactors', { key: mk, body });
  const react = (id: string, body: unknown, k = key) => api('POST', `/reactors/${id}/react`, { key: k, body });

  it('creates a reactor from code: the reply carries code and configuration, no formula; the configuration is encrypted at rest', async () => {
    const res = await create({
      name: 'code reactor',
      code: ECHO,
      configuration: { SERVICE_API_KEY: 'key_very_secret_1234', RETRIES: 3 },
      application: { id: appId },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      tenant_id: tenant.tenantId,
      name: 'code reactor',
      code: ECHO,
      configuration: { SERVICE_API_KEY: 'key_very_secret_1234', RETRIES: 3 },
      application: { id: appId },
      created_by: expect.any(String),
      created_at: expect.any(String),
    });
    expect((await api('GET', `/reactors/${res.body.id}`, { key: mk })).body).toEqual(res.body);
    const listed = await api('GET', `/reactors?id=${res.body.id}`, { key: mk });
    expect(listed.body.data).toEqual([res.body]);
    const row = await db.query('SELECT code, formula_id, configuration_ciphertext FROM reactors WHERE id = $1', [res.body.id]);
    expect(row.rows[0].code).toBe(ECHO);
    expect(row.rows[0].formula_id).toBeNull();
    expect(Buffer.from(row.rows[0].configuration_ciphertext).toString('latin1')).not.toContain('key_very_secret_1234');
  });

  it('runs like a formula reactor: detokenized args, configuration, svc, tokenize; token:use required', async () => {
    const card = await api('POST', '/tokens', { key, body: { type: 'card', data: { number: VISA, expiration_month: 1, expiration_year: 2031 } } });
    const r = await create({
      name: 'runner',
      code: formulaCode(`
        const created = await req.svc.tokens.create({ type: 'token', data: req.args.card.number.slice(-4) });
        return { raw: { last4: req.args.card.number.slice(-4), key: req.configuration.KEY, via: created.id ? 'svc' : 'none' },
                 tokenize: { bin: { type: 'token', data: req.args.card.number.slice(0, 6) } } };`),
      configuration: { KEY: 'k-1' },
      application: { id: appId },
    });
    expect(r.status).toBe(201);
    const res = await react(r.body.id, { args: { card: `{{ ${card.body.id} }}` } });
    expect(res.status).toBe(200);
    expect(res.body.raw).toEqual({ last4: '4242', key: 'k-1', via: 'svc' });
    expect(res.body.tokens.bin.id).toEqual(expect.any(String));
    // any args reach the code (no request parameters); runtime node-bt may be named
    const plain = await create({ name: 'echo', code: ECHO, runtime: { image: 'node-bt' } });
    expect(plain.body.runtime).toEqual({ image: 'node-bt' });
    expect(plain.body).not.toHaveProperty('application');
    const echoed = await react(plain.body.id, { args: { anything: { nested: [1, 2] } } });
    expect(echoed.body.raw).toEqual({ args: { anything: { nested: [1, 2] } }, configuration: {}, svc: false });
    const reader = (await tenant.app('private', { permissions: ['token:read'] })).key;
    expect((await react(plain.body.id, { args: {} }, reader)).status).toBe(403);
    expect((await react(plain.body.id, { args: {} }, mk)).status).toBe(403);
  });

  it('fails like a formula reactor: thrown errors, code that does not load, unknown tokens', async () => {
    const throwing = await create({
      name: 't',
      code: "const { BadRequestError } = require('@coffer/reactor-runtime'); module.exports = async () => { throw new BadRequestError({ card: ['declined'] }); };",
    });
    const bad = await react(throwing.body.id, {});
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ status: 400, errors: { card: ['declined'] } });
    const broken = await create({ name: 'b', code: 'module.exports = async function (req) { return {' });
    expect(broken.status).toBe(201);
    expect((await react(broken.body.id, {})).status).toBe(422);
    const runtime = await create({ name: 'r', code: formulaCode("throw new Error('boom with a secret');") });
    const failed = await react(runtime.body.id, {});
    expect(failed.status).toBe(500);
    expect(failed.text).not.toContain('secret');
    const echo = await create({ name: 'e', code: ECHO });
    expect((await react(echo.body.id, { args: { x: '{{ 00000000-0000-4000-8000-000000000000 }}' } })).status).toBe(400);
  });

  it('create refuses what it cannot honour with 400s naming the fields', async () => {
    const { formulaId } = await makeReactor(mk, { code: ECHO });
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ name: 'both', code: ECHO, formula: { id: formulaId }, configuration: {} }, ['code', 'formula']],
      [{ name: 'neither', configuration: {} }, ['formula']],
      [{ name: 'x', code: '' }, ['code']],
      [{ name: 'x', code: 'x'.repeat(50_001) }, ['code']],
      [{ name: 'x', code: 42 }, ['code']],
      [{ name: 'x', code: ECHO, runtime: { image: 'node22' } }, ['runtime.image']],
      [{ name: 'x', code: ECHO, runtime: { image: 'node-bt', dependencies: { lodash: '4.17.21' } } }, ['runtime.dependencies']],
      [{ name: 'x', code: ECHO, runtime: { permissions: ['token:read'] } }, ['runtime.permissions']],
      [{ name: 'x', code: ECHO, runtime: { warm_concurrency: 2 } }, ['runtime.warm_concurrency']],
      [{ name: 'x', code: ECHO, runtime: 'node-bt' }, ['runtime']],
      [{ name: 'x', code: ECHO, configuration: { nested: { no: 1 } } }, ['configuration.nested']],
      [{ name: 'x', code: ECHO, application: { id: 'not-a-uuid' } }, ['application.id']],
      [{ name: 'x', formula: { id: formulaId }, configuration: {}, runtime: { image: 'node-bt' } }, ['runtime']],
    ];
    for (const [body, fields] of cases) {
      const res = await create(body);
      expect({ body: Object.keys(body), status: res.status, fields: Object.keys(res.body.errors ?? {}).sort() }).toEqual({
        body: Object.keys(body),
        status: 400,
        fields,
      });
    }
    expect((await create({ name: 'x', code: ECHO, application: { id: '00000000-0000-4000-8000-000000000000' } })).status).toBe(404);
    const mgmt = await api('GET', '/applications', { key: mk });
    const mgmtId = mgmt.body.data.find((a: { type: string }) => a.type === 'management').id;
    expect((await create({ name: 'x', code: ECHO, application: { id: mgmtId } })).status).toBe(400);
  });

  it('PUT honours code (and refuses code on a formula reactor)', async () => {
    const r = await create({ name: 'put me', code: formulaCode('return { raw: { v: 1 } };'), configuration: { A: 'a' } });
    const put = await api('PUT', `/reactors/${r.body.id}`, {
      key: mk,
      body: { name: 'put', code: formulaCode('return { raw: { v: 2, a: req.configuration.A } };'), configuration: { A: 'b' } },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: 'put', configuration: { A: 'b' }, modified_by: expect.any(String), modified_at: expect.any(String) });
    expect((await react(r.body.id, {})).body.raw).toEqual({ v: 2, a: 'b' });
    expect((await api('PUT', `/reactors/${r.body.id}`, { key: mk, body: { name: 'no code', configuration: {} } })).status).toBe(400);
    const { reactorId } = await makeReactor(mk, { code: ECHO });
    const refused = await api('PUT', `/reactors/${reactorId}`, { key: mk, body: { name: 'f', configuration: {}, code: ECHO } });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.errors)).toEqual(['code']);
  });

  it('PATCH merges name, configuration, application and code; the rest stays', async () => {
    const r = await create({ name: 'patch me', code: ECHO, configuration: { A: 'a', B: 'b' }, application: { id: appId } });
    const patch = (body: unknown, contentType = MERGE_PATCH) => api('PATCH', `/reactors/${r.body.id}`, { key: mk, body, contentType });
    const renamed = await patch({ name: 'patched' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'patched', code: ECHO, configuration: { A: 'a', B: 'b' }, application: { id: appId } });
    const merged = await patch({ configuration: { B: null, C: 'c' } }, 'application/json');
    expect(merged.body.configuration).toEqual({ A: 'a', C: 'c' });
    const detached = await patch({ application: null, code: formulaCode('return { raw: { patched: true, c: req.configuration.C } };') });
    expect(detached.body).not.toHaveProperty('application');
    expect((await react(r.body.id, {})).body.raw).toEqual({ patched: true, c: 'c' });
    expect((await api('GET', `/reactors/${r.body.id}`, { key: mk })).body).toEqual(detached.body);
    // what PUT refuses, PATCH refuses; the wrong content type is 415; unknown reactors 404
    expect((await patch({ code: '' })).status).toBe(400);
    expect((await patch({ configuration: { X: { deep: true } } })).status).toBe(400);
    expect((await patch({ formula: { id: r.body.id } })).status).toBe(400);
    expect((await patch('name=x', 'text/plain')).status).toBe(415);
    expect((await api('PATCH', '/reactors/00000000-0000-4000-8000-000000000000', { key: mk, body: { name: 'x' }, contentType: MERGE_PATCH })).status).toBe(404);
    expect((await api('PATCH', `/reactors/${r.body.id}`, { key, body: { name: 'x' }, contentType: MERGE_PATCH })).status).toBe(403);
    // a formula reactor: the merged configuration must still satisfy the formula's contract
    const { reactorId } = await makeReactor(mk, { code: ECHO, configuration: [{ name: 'KEY', type: 'string' }] }, { configuration: { KEY: 'k' } });
    const f = await api('PATCH', `/reactors/${reactorId}`, { key: mk, body: { name: 'formula patched' }, contentType: MERGE_PATCH });
    expect(f.status).toBe(200);
    expect(f.body).toMatchObject({ name: 'formula patched', configuration: { KEY: 'k' }, formula: { id: expect.any(String) } });
    const broken = await api('PATCH', `/reactors/${reactorId}`, { key: mk, body: { configuration: { KEY: null } }, contentType: MERGE_PATCH });
    expect(broken.status).toBe(400);
    expect(broken.body.errors).toHaveProperty(['configuration.KEY']);
    expect((await api('PATCH', `/reactors/${reactorId}`, { key: mk, body: { code: ECHO }, contentType: MERGE_PATCH })).status).toBe(400);
  });

  const poll = async (reactorId: string, requestId: string, k = key) => {
    for (let i = 0; i < 200; i++) {
      const res = await api('GET', `/reactors/${reactorId}/results/${requestId}`, { key: k });
      if (res.status !== 200 || res.body.status !== 'pending') return res;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the job did not finish');
  };

  it('react-async: 202 with the request id, then the result reads pending → completed (or failed)', async () => {
    const card = await api('POST', '/tokens', { key, body: { type: 'card_number', data: VISA } });
    const r = await create({ name: 'async', code: formulaCode('return { raw: { n: req.args.n, last4: req.args.card.slice(-4) } };') });
    const accepted = await api('POST', `/reactors/${r.body.id}/react-async`, { key, body: { args: { n: 1, card: `{{ ${card.body.id} }}` } } });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ asyncReactorRequestId: expect.any(String), id: accepted.body.asyncReactorRequestId, status: 'pending' });
    const done = await poll(r.body.id, accepted.body.id);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({
      id: accepted.body.id,
      status: 'completed',
      result: { raw: { n: 1, last4: '4242' } },
      created_at: expect.any(String),
      completed_at: expect.any(String),
    });
    // management with reactor:read may read it; another application may not know it exists
    expect((await api('GET', `/reactors/${r.body.id}/results/${accepted.body.id}`, { key: mk })).body.status).toBe('completed');
    const other = (await tenant.app('private', { permissions: ['token:use'] })).key;
    expect((await api('GET', `/reactors/${r.body.id}/results/${accepted.body.id}`, { key: other })).status).toBe(404);

    const failing = await create({
      name: 'async fail',
      code: "const { BadRequestError } = require('@coffer/reactor-runtime'); module.exports = async () => { throw new BadRequestError('nope'); };",
    });
    const job = await api('POST', `/reactors/${failing.body.id}/react-async`, { key, body: { args: {} } });
    const failed = await poll(failing.body.id, job.body.id);
    expect(failed.body).toMatchObject({ status: 'failed', error: { status: 400, errors: { error: ['nope'] } } });
  });

  it('react-async jobs are durable: kill -9 of reactor-service loses none of them', async () => {
    const r = await create({ name: 'slow', code: formulaCode('await new Promise((r) => setTimeout(r, 300)); return { raw: { n: req.args.n } };') });
    const accepted: string[] = [];
    try {
      for (let n = 0; n < 4; n++) {
        const res = await api('POST', `/reactors/${r.body.id}/react-async`, { key, body: { args: { n } } });
        expect(res.status).toBe(202);
        accepted.push(res.body.asyncReactorRequestId);
      }
      await control('stop', 'reactor-service', 'SIGKILL');
    } finally {
      await control('start', 'reactor-service');
    }
    // a job that was running when the process died is claimed again once its lease (timeout + slack) passes
    const results = [];
    for (const id of accepted) {
      let res = await api('GET', `/reactors/${r.body.id}/results/${id}`, { key });
      for (let i = 0; i < 600 && (res.body?.status === 'pending' || res.status === 503 || res.status === 504); i++) {
        await new Promise((done) => setTimeout(done, 50));
        res = await api('GET', `/reactors/${r.body.id}/results/${id}`, { key });
      }
      results.push(res.body);
    }
    expect(results.map((b) => [b.status, b.result])).toEqual([0, 1, 2, 3].map((n) => ['completed', { raw: { n } }]));
  }, 90_000);

  it('react-async checks synchronously: unknown tokens, argument rules, callback_url, timeout_ms, permission', async () => {
    const echo = await create({ name: 'echo', code: ECHO });
    const post = (id: string, body: unknown, k = key) => api('POST', `/reactors/${id}/react-async`, { key: k, body });
    expect((await post(echo.body.id, { args: { x: '{{ 00000000-0000-4000-8000-000000000000 }}' } })).status).toBe(400);
    const { reactorId } = await makeReactor(mk, { code: ECHO, request_parameters: [{ name: 'amount', type: 'number' }] });
    const cast = await post(reactorId, { args: { amount: 'ten' } });
    expect(cast.status).toBe(400);
    expect(cast.body.errors).toHaveProperty(['args.amount']);
    const formulaJob = await post(reactorId, { args: { amount: '10', extra: 'dropped' } });
    expect(formulaJob.status).toBe(202);
    expect((await poll(reactorId, formulaJob.body.id)).body.result).toEqual({ raw: { args: { amount: 10 }, configuration: {}, svc: false } });
    const withCallback = await post(echo.body.id, { args: {}, callback_url: 'http://127.0.0.1:9/hook' });
    expect(withCallback.status).toBe(400);
    expect(withCallback.body.errors).toHaveProperty('callback_url');
    expect((await post(echo.body.id, { timeout_ms: 5 })).status).toBe(400);
    expect((await post('00000000-0000-4000-8000-000000000000', {})).status).toBe(404);
    expect((await post(echo.body.id, {}, mk)).status).toBe(403);
    // an empty body is an invocation without args
    expect((await post(echo.body.id, undefined)).status).toBe(202);
  });

  it('formula reactors keep working: their view shows the formula and no code', async () => {
    const { reactorId } = await makeReactor(mk, { code: formulaCode('return { raw: { formula: true } };') });
    expect((await react(reactorId, {})).body).toEqual({ raw: { formula: true } });
    const view = await api('GET', `/reactors/${reactorId}`, { key: mk });
    expect(view.body.formula.id).toEqual(expect.any(String));
    expect(view.body).not.toHaveProperty('code');
  });

  it('the node SDK drives code reactors end to end (create, get, update, patch, react, reactAsync, results.get)', async () => {
    const management = new BasisTheoryClient({ apiKey: mk, environment: gatewayUrl() });
    const client = new BasisTheoryClient({ apiKey: key, environment: gatewayUrl() });
    const reactor = await management.reactors.create({
      name: 'sdk reactor',
      code: formulaCode('return { raw: { foo: req.args.foo, key: req.configuration.SERVICE_API_KEY } };'),
      configuration: { SERVICE_API_KEY: 'key_abcd1234' },
      application: { id: appId },
    });
    expect(reactor.id).toEqual(expect.any(String));
    expect(reactor.createdAt).toBeInstanceOf(Date);
    expect(reactor.configuration).toEqual({ SERVICE_API_KEY: 'key_abcd1234' });
    const updated = await management.reactors.update(reactor.id as string, {
      name: 'sdk reactor 2',
      code: formulaCode('return { raw: { foo: req.args.foo, key: req.configuration.SERVICE_API_KEY, v: 2 } };'),
      configuration: { SERVICE_API_KEY: 'key_abcd1234' },
      application: { id: appId },
    });
    expect(updated.name).toBe('sdk reactor 2');
    await management.reactors.patch(reactor.id as string, { name: 'sdk reactor 3', configuration: { SERVICE_API_KEY: 'key_efgh5678' } });
    expect((await management.reactors.get(reactor.id as string)).name).toBe('sdk reactor 3');
    const reacted = await client.reactors.react(reactor.id as string, { args: { foo: 'bar' } });
    expect(reacted.raw).toEqual({ foo: 'bar', key: 'key_efgh5678', v: 2 });
    const accepted = await client.reactors.reactAsync(reactor.id as string, { args: { foo: 'async' } });
    expect(accepted.asyncReactorRequestId).toEqual(expect.any(String));
    let result: { status?: string; result?: unknown } = {};
    for (let i = 0; i < 200 && result.status !== 'completed'; i++) {
      result = (await client.reactors.results.get(reactor.id as string, accepted.asyncReactorRequestId as string)) as typeof result;
      if (result.status !== 'completed') await new Promise((r) => setTimeout(r, 50));
    }
    expect(result).toMatchObject({ status: 'completed', result: { raw: { foo: 'async', key: 'key_efgh5678', v: 2 } } });
    await management.reactors.delete(reactor.id as string);
    expect((await api('GET', `/reactors/${reactor.id}`, { key: mk })).status).toBe(404);
  });
});
