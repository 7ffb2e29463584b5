import { randomUUID } from 'node:crypto';
import { api, createTenant, type TestTenant } from '@coffer/testing';

/**
 * The unit of work seen from the API (libs/db/README.md, "Transactions"): a write's tokens, its deduplication lookups,
 * its idempotency record and its audit events commit together or not at all.
 */
describe('writes are one unit of work: tokens, audit events and idempotency records commit together', () => {
  let tenant: TestTenant;
  let key: string;

  beforeAll(async () => {
    tenant = await createTenant('transactions');
    key = (await tenant.app('private', { permissions: ['token:create', 'token:read'] })).key;
  });

  const eventsOf = async (id: string) =>
    (
      (await api('GET', `/logs?entity_type=token&entity_id=${encodeURIComponent(id)}`, { key: tenant.managementKey })).body.data as Array<{
        operation: string;
        trace_id?: string;
      }>
    )
      .map((e) => e.operation)
      .sort();

  it('a tokenize that fails half-way leaves neither the tokens it wrote first nor their audit events', async () => {
    const taken = await api('POST', '/tokens', { key, body: { type: 'token', data: 'holder', id: `taken-${randomUUID()}` } });
    expect(taken.status).toBe(201);
    const first = `first-${randomUUID()}`;
    const res = await api('POST', '/tokenize', {
      key,
      body: { a: { type: 'token', id: first, data: 'written then rolled back' }, b: { type: 'token', id: taken.body.id, data: 'conflicts' } },
    });
    expect(res.status).toBe(409);
    expect((await api('GET', `/tokens/${first}`, { key })).status).toBe(404);
    expect(await eventsOf(first)).toEqual([]);
  });

  it('two equal tokens in one tokenize are one token (the lookup joins the write), each audited as a create', async () => {
    const data = `same-${randomUUID()}`;
    const res = await api('POST', '/tokenize', {
      key,
      body: [
        { type: 'token', data, deduplicate_token: true },
        { type: 'token', data, deduplicate_token: true },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body[0].id).toBe(res.body[1].id);
    // the events are committed with the tokens, before the reply
    expect(await eventsOf(res.body[0].id)).toEqual(['create', 'create']);
  });

  it('an idempotent create is audited once, in its transaction; its replay adds nothing', async () => {
    const headers = { 'SVC-IDEMPOTENCY-KEY': `create-${randomUUID()}` };
    const body = { type: 'token', data: 'once' };
    const created = await api('POST', '/tokens', { key, headers, body });
    expect(created.status).toBe(201);
    expect(await eventsOf(created.body.id)).toEqual(['create']);
    const replay = await api('POST', '/tokens', { key, headers, body });
    expect(replay.body.id).toBe(created.body.id);
    expect(await eventsOf(created.body.id)).toEqual(['create']);
  });
});
