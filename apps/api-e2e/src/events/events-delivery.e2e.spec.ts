/**
 * Issue 25 items 1, 3 and 5: every implemented event type reaches a local receiver, signed per Standard Webhooks
 * (checked with an independent verifier) in the mirrored envelope; events survive a kill -9 of the relaying service;
 * a failing receiver disables its webhook and its notify_email hears of it through a real SMTP server; failed
 * deliveries are listed and re-sent (by API and by the operator CLI).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { SMTPServer } from 'smtp-server';
import { VISA, api, control, createTenant, type TestTenant } from '@coffer/testing';
import { Receiver, eventually, verifyStandardWebhook, type Envelope } from './support';

jest.setTimeout(120_000);

const ALL_TYPES = [
  'token.created',
  'token.updated',
  'token.deleted',
  'token.expired',
  'token-intent.created',
  'token-intent.deleted',
  'application.created',
  'application.updated',
  'application.deleted',
  'application.key.created',
  'application.key.deleted',
  'session.created',
  'session.authorized',
  'reactor.created',
  'reactor.updated',
  'reactor.deleted',
  'reactor.invoked',
  'reactor.completed',
  'reactor.failed',
  'reactor-formula.created',
  'reactor-formula.updated',
  'reactor-formula.deleted',
  'tenant.updated',
];

const CODE = 'module.exports = async function (req) { return { raw: {} }; };';

describe('events delivered to webhooks', () => {
  let tenant: TestTenant;
  let receiver: Receiver;
  let secret: string;
  let writer: { id: string; key: string };
  let managementAppId: string;

  beforeAll(async () => {
    tenant = await createTenant('events');
    receiver = await new Receiver().start();
    const hook = await api('POST', '/webhooks', { key: tenant.managementKey, body: { name: 'all', url: receiver.url, events: ALL_TYPES } });
    expect(hook.status).toBe(201);
    // the webhook's own secret signs its deliveries (standard-webhooks.e2e.spec.ts)
    secret = hook.body.signing_secret;
    writer = await tenant.app('private', {
      permissions: ['token:create', 'token:read', 'token:update', 'token:delete', 'token-intent:create', 'token-intent:delete'],
    });
    managementAppId = (await api('GET', '/applications/key', { key: tenant.managementKey })).body.id;
  });

  afterAll(async () => {
    await receiver.stop();
  });

  /** Every delivery: a valid signature (by its webhook's own secret), the envelope's fields, this tenant, a stable id per delivery. */
  function checkEnvelope(e: Envelope & { raw: { headers: Record<string, unknown>; body: string } }, type: string, signedWith = secret) {
    expect(verifyStandardWebhook(signedWith, e.raw as never)).toBe(true);
    expect(verifyStandardWebhook('whsec_' + Buffer.alloc(32).toString('base64'), e.raw as never)).toBe(false);
    expect(e.raw.headers['content-type']).toBe('application/json');
    expect(e.event).toMatchObject({ id: expect.any(String), type, tenant_id: tenant.tenantId });
    expect(new Date(e.event.timestamp).getTime()).toBeGreaterThan(Date.now() - 120_000);
    expect(new Date(e.delivered_at).getTime()).toBeGreaterThanOrEqual(new Date(e.event.timestamp).getTime());
    expect(e.event.data.actor).toEqual(expect.objectContaining({ id: expect.any(String), type: expect.any(String) }));
  }

  it('token.created, token.updated, token.deleted: the token view and its actor, never the data', async () => {
    const created = await api('POST', '/tokens', {
      key: writer.key,
      body: { type: 'card', data: { number: VISA, expiration_month: 12, expiration_year: 2030 }, metadata: { order: 'o-1' } },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const e1 = await receiver.waitForEvent('token.created', (e) => e.event.data.token?.id === id);
    checkEnvelope(e1, 'token.created');
    expect(e1.event.data.token).toMatchObject({ id, type: 'card', metadata: { order: 'o-1' }, containers: ['/pci/high/'], fingerprint: expect.any(String) });
    expect(e1.event.data.actor).toEqual({ id: writer.id, type: 'application' });
    expect(e1.raw.body).not.toContain(VISA);
    expect(e1.raw.body).not.toContain('"data":{"number"');
    expect(e1.event.trace_id).toEqual(expect.any(String));

    expect(
      (await api('PATCH', `/tokens/${id}`, { key: writer.key, body: { metadata: { order: 'o-2' } }, contentType: 'application/merge-patch+json' })).status,
    ).toBe(200);
    const e2 = await receiver.waitForEvent('token.updated', (e) => e.event.data.token?.id === id);
    checkEnvelope(e2, 'token.updated');
    expect(e2.event.data.token.metadata).toEqual({ order: 'o-2' });
    expect(e2.raw.body).not.toContain(VISA);

    expect((await api('DELETE', `/tokens/${id}`, { key: writer.key })).status).toBe(204);
    const e3 = await receiver.waitForEvent('token.deleted', (e) => e.event.data.token?.id === id);
    checkEnvelope(e3, 'token.deleted');
    expect(e3.event.data.token).toEqual({ id });
  });

  it('token-intent.created and token-intent.deleted: the intent as its reply shows it (card details), never the data', async () => {
    const created = await api('POST', '/token-intents', {
      key: writer.key,
      body: { type: 'card', data: { number: VISA, expiration_month: 12, expiration_year: 2030 } },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const e1 = await receiver.waitForEvent('token-intent.created', (e) => e.event.data.token_intent?.id === id);
    checkEnvelope(e1, 'token-intent.created');
    expect(e1.event.data.token_intent).toMatchObject({ id, type: 'card', fingerprint: expect.any(String), card: { last4: '4242', brand: 'visa' } });
    expect(e1.event.data.actor).toEqual({ id: writer.id, type: 'application' });
    expect(e1.raw.body).not.toContain(VISA);
    expect((await api('DELETE', `/token-intents/${id}`, { key: writer.key })).status).toBe(204);
    const e2 = await receiver.waitForEvent('token-intent.deleted', (e) => e.event.data.token_intent?.id === id);
    checkEnvelope(e2, 'token-intent.deleted');
    expect(e2.event.data.token_intent).toEqual({ id });
  });

  it('token.expired when the sweeper removes an expired token (actor: system)', async () => {
    const created = await api('POST', '/tokens', {
      key: writer.key,
      body: { type: 'token', data: 'soon gone', expires_at: new Date(Date.now() + 1500).toISOString() },
    });
    expect(created.status).toBe(201);
    const e = await receiver.waitForEvent('token.expired', (x) => x.event.data.token?.id === created.body.id, 30_000);
    checkEnvelope(e, 'token.expired');
    expect(e.event.data.actor).toMatchObject({ type: 'system' });
  });

  it('application.* and application.key.*: never a key', async () => {
    const app = await api('POST', '/applications', { key: tenant.managementKey, body: { name: 'evented', type: 'private', permissions: ['token:read'] } });
    expect(app.status).toBe(201);
    const id = app.body.id as string;
    const created = await receiver.waitForEvent('application.created', (e) => e.event.data.application?.id === id);
    checkEnvelope(created, 'application.created');
    expect(created.event.data.application).toMatchObject({ id, name: 'evented', type: 'private', permissions: ['token:read'] });
    expect(created.event.data.actor).toEqual({ id: managementAppId, type: 'application' });
    const firstKey = await receiver.waitForEvent('application.key.created', (e) => e.event.data.application_key?.application_id === id);
    checkEnvelope(firstKey, 'application.key.created');
    expect(created.raw.body).not.toContain(app.body.key);
    expect(firstKey.raw.body).not.toContain(app.body.key);

    const key = await api('POST', `/applications/${id}/keys`, { key: tenant.managementKey });
    expect(key.status).toBe(201);
    const keyCreated = await receiver.waitForEvent('application.key.created', (e) => e.event.data.application_key?.id === key.body.id);
    expect(keyCreated.event.data.application_key).toMatchObject({ id: key.body.id, application_id: id, created_at: expect.any(String) });
    expect(keyCreated.raw.body).not.toContain(key.body.key);
    expect((await api('DELETE', `/applications/${id}/keys/${key.body.id}`, { key: tenant.managementKey })).status).toBe(204);
    const keyDeleted = await receiver.waitForEvent('application.key.deleted', (e) => e.event.data.application_key?.id === key.body.id);
    checkEnvelope(keyDeleted, 'application.key.deleted');
    expect(keyDeleted.event.data.application_key).toEqual({ id: key.body.id, application_id: id });

    // regenerating replaces every key: the old key's end and the new key are announced like any other (never the key)
    const firstKeyId = firstKey.event.data.application_key.id as string;
    const regenerated = await api('POST', `/applications/${id}/regenerate`, { key: tenant.managementKey });
    expect(regenerated.status).toBe(200);
    const newKeyId = regenerated.body.keys[0].id as string;
    const oldGone = await receiver.waitForEvent('application.key.deleted', (e) => e.event.data.application_key?.id === firstKeyId);
    expect(oldGone.event.data.application_key).toEqual({ id: firstKeyId, application_id: id });
    const newKey = await receiver.waitForEvent('application.key.created', (e) => e.event.data.application_key?.id === newKeyId);
    checkEnvelope(newKey, 'application.key.created');
    expect(newKey.raw.body).not.toContain(regenerated.body.key);

    expect((await api('PUT', `/applications/${id}`, { key: tenant.managementKey, body: { name: 'evented v2', permissions: ['token:read'] } })).status).toBe(
      200,
    );
    const updated = await receiver.waitForEvent('application.updated', (e) => e.event.data.application?.id === id);
    checkEnvelope(updated, 'application.updated');
    expect(updated.event.data.application.name).toBe('evented v2');

    expect((await api('DELETE', `/applications/${id}`, { key: tenant.managementKey })).status).toBe(204);
    const deleted = await receiver.waitForEvent('application.deleted', (e) => e.event.data.application?.id === id);
    checkEnvelope(deleted, 'application.deleted');
    expect(deleted.event.data.application).toEqual({ id });
  });

  it('session.created and session.authorized: never the session key or nonce; tenant.updated: the tenant view', async () => {
    const web = await tenant.app('public', { permissions: ['token:create'] });
    const backend = await tenant.app('private', { permissions: ['token:create', 'token:read'] });
    const session = await api('POST', '/sessions', { key: web.key });
    expect(session.status).toBe(201);
    const created = await receiver.waitForEvent('session.created', (e) => e.event.data.actor?.id === web.id);
    checkEnvelope(created, 'session.created');
    expect(created.event.data.session).toMatchObject({ id: expect.any(String), application_id: web.id, expires_at: session.body.expires_at });
    expect(created.raw.body).not.toContain(session.body.session_key);
    expect(created.raw.body).not.toContain(session.body.nonce);

    const authorized = await api('POST', '/sessions/authorize', { key: backend.key, body: { nonce: session.body.nonce, permissions: ['token:read'] } });
    expect(authorized.status).toBe(200);
    const e = await receiver.waitForEvent('session.authorized', (x) => x.event.data.session?.id === created.event.data.session.id);
    checkEnvelope(e, 'session.authorized');
    expect(e.event.data.session).toMatchObject({ application_id: web.id, authorized_by: backend.id, permissions: ['token:read'] });
    expect(e.event.data.actor).toEqual({ id: backend.id, type: 'application' });
    expect(e.raw.body).not.toContain(session.body.session_key);
    expect(e.raw.body).not.toContain(session.body.nonce);

    expect((await api('PUT', '/tenants/self', { key: tenant.managementKey, body: { name: 'events tenant, renamed' } })).status).toBe(200);
    const updated = await receiver.waitForEvent('tenant.updated', (x) => x.event.data.tenant?.name === 'events tenant, renamed');
    checkEnvelope(updated, 'tenant.updated');
    expect(updated.event.data.tenant).toMatchObject({ id: tenant.tenantId, settings: expect.any(Object) });
    expect(updated.event.data.actor).toEqual({ id: managementAppId, type: 'application' });
  });

  it('reactor.invoked, reactor.completed, reactor.failed: the reactor and the invocation, never arguments or results', async () => {
    const user = await tenant.app('private', { permissions: ['token:use'] });
    const make = async (name: string, code: string) => {
      const r = await api('POST', '/reactors', { key: tenant.managementKey, body: { name, code } });
      expect(r.status).toBe(201);
      return r.body.id as string;
    };
    const echo = await make('r-echo', 'module.exports = async function (req) { return { raw: { echoed: req.args.value } }; };');
    const sync = await api('POST', `/reactors/${echo}/react`, { key: user.key, body: { args: { value: 'argument-do-not-leak' } } });
    expect(sync.status).toBe(200);
    const isSync = (id: string) => (e: Envelope) => e.event.data.reactor?.id === id && e.event.data.invocation?.mode === 'sync';
    const invoked = await receiver.waitForEvent('reactor.invoked', isSync(echo));
    checkEnvelope(invoked, 'reactor.invoked');
    expect(invoked.event.data.actor).toEqual({ id: user.id, type: 'application' });
    const completed = await receiver.waitForEvent('reactor.completed', isSync(echo));
    checkEnvelope(completed, 'reactor.completed');
    expect(completed.event.data).toMatchObject({ reactor: { id: echo }, invocation: { mode: 'sync' } });
    for (const e of [invoked, completed]) expect(e.raw.body).not.toContain('argument-do-not-leak');

    const failing = await make(
      'r-failing',
      "const { BadRequestError } = require('@coffer/reactor-runtime'); module.exports = async function () { throw new BadRequestError('no'); };",
    );
    expect((await api('POST', `/reactors/${failing}/react`, { key: user.key, body: { args: {} } })).status).toBe(400);
    const failed = await receiver.waitForEvent('reactor.failed', isSync(failing));
    checkEnvelope(failed, 'reactor.failed');
    expect(failed.event.data.error).toEqual({ status: 400, title: expect.any(String) });

    const accepted = await api('POST', `/reactors/${echo}/react-async`, { key: user.key, body: { args: { value: 'async-argument-do-not-leak' } } });
    expect(accepted.status).toBe(202);
    const jobId = accepted.body.id as string;
    const ofJob = (e: Envelope) => e.event.data.invocation?.id === jobId;
    const asyncInvoked = await receiver.waitForEvent('reactor.invoked', ofJob);
    checkEnvelope(asyncInvoked, 'reactor.invoked');
    expect(asyncInvoked.event.data).toMatchObject({ reactor: { id: echo }, invocation: { id: jobId, mode: 'async' } });
    const asyncDone = await receiver.waitForEvent('reactor.completed', ofJob);
    checkEnvelope(asyncDone, 'reactor.completed');
    for (const e of [asyncInvoked, asyncDone]) expect(e.raw.body).not.toContain('async-argument-do-not-leak');
  });

  it('reactor-formula.* and reactor.*: never configuration or code', async () => {
    const formula = await api('POST', '/reactor-formulas', {
      key: tenant.managementKey,
      body: {
        name: 'f-events',
        type: 'private',
        code: CODE,
        // a reactor's configuration holds only what its formula declares
        configuration: [{ name: 'SECRET_CFG', type: 'string' }],
      },
    });
    expect(formula.status).toBe(201);
    const fid = formula.body.id as string;
    checkEnvelope(await receiver.waitForEvent('reactor-formula.created', (e) => e.event.data.reactor_formula?.id === fid), 'reactor-formula.created');
    const reactor = await api('POST', '/reactors', {
      key: tenant.managementKey,
      body: { name: 'r-events', configuration: { SECRET_CFG: 'do-not-leak' }, formula: { id: fid } },
    });
    expect(reactor.status).toBe(201);
    const rid = reactor.body.id as string;
    const rc = await receiver.waitForEvent('reactor.created', (e) => e.event.data.reactor?.id === rid);
    checkEnvelope(rc, 'reactor.created');
    expect(rc.event.data.reactor).toMatchObject({ id: rid, name: 'r-events', created_at: expect.any(String) });
    expect(rc.raw.body).not.toContain('do-not-leak');

    expect(
      (await api('PUT', `/reactors/${rid}`, { key: tenant.managementKey, body: { name: 'r-events 2', configuration: { SECRET_CFG: 'still-secret' } } })).status,
    ).toBe(200);
    const ru = await receiver.waitForEvent('reactor.updated', (e) => e.event.data.reactor?.id === rid);
    checkEnvelope(ru, 'reactor.updated');
    expect(ru.event.data.reactor.name).toBe('r-events 2');
    expect(ru.raw.body).not.toContain('still-secret');
    expect((await api('DELETE', `/reactors/${rid}`, { key: tenant.managementKey })).status).toBe(204);
    checkEnvelope(await receiver.waitForEvent('reactor.deleted', (e) => e.event.data.reactor?.id === rid), 'reactor.deleted');

    expect(
      (await api('PUT', `/reactor-formulas/${fid}`, { key: tenant.managementKey, body: { name: 'f-events 2', type: 'private', code: CODE } })).status,
    ).toBe(200);
    const fu = await receiver.waitForEvent('reactor-formula.updated', (e) => e.event.data.reactor_formula?.id === fid);
    checkEnvelope(fu, 'reactor-formula.updated');
    expect(fu.raw.body).not.toContain('module.exports');
    expect((await api('DELETE', `/reactor-formulas/${fid}`, { key: tenant.managementKey })).status).toBe(204);
    checkEnvelope(await receiver.waitForEvent('reactor-formula.deleted', (e) => e.event.data.reactor_formula?.id === fid), 'reactor-formula.deleted');
  });

  it('a webhook receives only the types it subscribed to, and a refused change sends nothing', async () => {
    const narrow = await new Receiver().start();
    try {
      const hook = await api('POST', '/webhooks', { key: tenant.managementKey, body: { name: 'narrow', url: narrow.url, events: ['token.deleted'] } });
      const t = await api('POST', '/tokens', { key: writer.key, body: { type: 'token', data: 'x' } });
      // a refused write (a literal id that is taken) commits nothing, so no event
      const dup = await api('POST', '/tokens', { key: writer.key, body: { id: t.body.id, type: 'token', data: 'y' } });
      expect(dup.status).toBe(409);
      await api('DELETE', `/tokens/${t.body.id}`, { key: writer.key });
      await narrow.waitForEvent('token.deleted', (e) => e.event.data.token?.id === t.body.id);
      await receiver.waitForEvent('token.deleted', (e) => e.event.data.token?.id === t.body.id);
      expect(narrow.envelopes().map((e) => e.event.type)).toEqual(['token.deleted']);
      expect(receiver.envelopes().filter((e) => e.event.type === 'token.created' && e.event.data.token?.id === t.body.id)).toHaveLength(1);
      await api('DELETE', `/webhooks/${hook.body.id}`, { key: tenant.managementKey });
    } finally {
      await narrow.stop();
    }
  });

  it('an event committed while the relaying service is killed (kill -9) is delivered after it restarts', async () => {
    await control('stop', 'webhook-dispatcher', 'SIGKILL');
    let id = '';
    try {
      const created = await api('POST', '/tokens', { key: writer.key, body: { type: 'token', data: 'while down' } });
      expect(created.status).toBe(201);
      id = created.body.id;
      await new Promise((r) => setTimeout(r, 500));
      expect(receiver.envelopes().some((e) => e.event.data.token?.id === id)).toBe(false);
    } finally {
      await control('start', 'webhook-dispatcher');
    }
    checkEnvelope(await receiver.waitForEvent('token.created', (e) => e.event.data.token?.id === id, 30_000), 'token.created');
  });

  it('with two replicas one relays; when it is killed (kill -9) the other takes over, and every event arrives once', async () => {
    await control('replica', 'webhook-dispatcher');
    const ids: string[] = [];
    const create = async (data: string) => {
      const created = await api('POST', '/tokens', { key: writer.key, body: { type: 'token', data } });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    };
    try {
      const arrived = () => ids.every((id) => receiver.envelopes().some((e) => e.event.data.token?.id === id));
      for (let n = 0; n < 5; n++) await create(`replicas ${n}`);
      await eventually(async () => (arrived() ? true : undefined), 20_000);
      // their records are written within about 20 ms of their answers; one not yet recorded would go out again
      await new Promise((r) => setTimeout(r, 500));
      await control('stop', 'webhook-dispatcher', 'SIGKILL');
      try {
        for (let n = 5; n < 10; n++) await create(`replicas ${n}`);
        // the replica relays now: the first service (which held the relay) is down
        await eventually(async () => (arrived() ? true : undefined), 30_000);
      } finally {
        await control('start', 'webhook-dispatcher');
      }
      await new Promise((r) => setTimeout(r, 1500)); // a duplicate would arrive now
      const created = receiver.envelopes().filter((e) => e.event.type === 'token.created' && ids.includes(e.event.data.token?.id as string));
      expect(created.map((e) => e.event.data.token?.id).sort()).toEqual([...ids].sort());
    } finally {
      await control('stop-replicas', 'webhook-dispatcher');
    }
  });

  it('when the relay lock’s database connection is cut, one replica relays again and every event arrives once', async () => {
    await control('replica', 'webhook-dispatcher');
    const db = new Client({ connectionString: process.env['COFFER_E2E_DATABASE_URL'] });
    await db.connect();
    const ids: string[] = [];
    const arrived = () => ids.every((id) => receiver.envelopes().some((e) => e.event.data.token?.id === id));
    try {
      const cut = await db.query(
        `SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE application_name = 'webhook-dispatcher relay' AND datname = current_database()`,
      );
      // both replicas keep such a connection (the follower to try the lock); the leader's is among them
      expect(cut.rows.length).toBeGreaterThanOrEqual(1);
      for (let n = 0; n < 5; n++) {
        const created = await api('POST', '/tokens', { key: writer.key, body: { type: 'token', data: `cut ${n}` } });
        expect(created.status).toBe(201);
        ids.push(created.body.id);
      }
      await eventually(async () => (arrived() ? true : undefined), 30_000);
      await new Promise((r) => setTimeout(r, 1500)); // a second relay would deliver again now
      const created = receiver.envelopes().filter((e) => e.event.type === 'token.created' && ids.includes(e.event.data.token?.id as string));
      expect(created.map((e) => e.event.data.token?.id).sort()).toEqual([...ids].sort());
      // and a relay holds the lock again, on a new connection (of this run's database: the PostgreSQL server may
      // serve other runs, each with its own relay)
      const holders = await db.query(
        `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a USING (pid) WHERE l.locktype = 'advisory' AND l.granted AND a.application_name = 'webhook-dispatcher relay' AND a.datname = current_database()`,
      );
      expect(holders.rows[0].n).toBe(1);
      // neither process went down with its connection: both hold a new one (the leader's and the follower's)
      const relays = await db.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'webhook-dispatcher relay' AND datname = current_database()`,
      );
      expect(relays.rows[0].n).toBe(2);
    } finally {
      await db.end();
      await control('stop-replicas', 'webhook-dispatcher');
    }
  });

  it('a relaying service stopped with a delivery under way (SIGTERM) finishes it before another replica takes over: sent once', async () => {
    const held = await new Receiver().start();
    // stopped whatever happens: a receiver left listening keeps jest from exiting
    try {
      held.holding = true;
      const hook = await api('POST', '/webhooks', { key: tenant.managementKey, body: { name: 'graceful', url: held.url, events: ['token.created'] } });
      expect(hook.status).toBe(201);
      await control('replica', 'webhook-dispatcher');
      try {
        const created = await api('POST', '/tokens', { key: writer.key, body: { type: 'token', data: 'graceful' } });
        expect(created.status).toBe(201);
        const ofToken = () => held.envelopes().filter((e) => e.event.data.token?.id === created.body.id);
        await eventually(async () => (ofToken().length ? true : undefined), 20_000);
        // the service drains: the attempt under way ends (answered a second later) and is recorded before the
        // replica may relay; had it given the relay up at once, the replica would send the event a second time
        const stopping = control('stop', 'webhook-dispatcher', 'SIGTERM');
        await new Promise((r) => setTimeout(r, 1000));
        held.release();
        await stopping;
        await new Promise((r) => setTimeout(r, 2000));
        expect(ofToken()).toHaveLength(1);
        const page = await api('GET', `/webhooks/${hook.body.id}/deliveries`, { key: tenant.managementKey });
        expect((page.body.data as Array<Record<string, unknown>>).filter((d) => d.event_id === ofToken()[0].event.id)).toEqual([
          expect.objectContaining({ status: 'delivered', attempts: 1 }),
        ]);
      } finally {
        await control('start', 'webhook-dispatcher');
        await control('stop-replicas', 'webhook-dispatcher');
        await api('DELETE', `/webhooks/${hook.body.id}`, { key: tenant.managementKey });
      }
    } finally {
      await held.stop();
    }
  });

  it('a delivery under way when the relaying service is killed (kill -9) goes out again at its restart, with the same webhook-id, and is recorded once', async () => {
    // the first attempt of an event's delivery leaves no row until it ends: the event stays in the outbox meanwhile
    const held = await new Receiver().start();
    // stopped whatever happens: a receiver left listening keeps jest from exiting
    try {
      held.holding = true;
      const hook = await api('POST', '/webhooks', { key: tenant.managementKey, body: { name: 'held', url: held.url, events: ['token.created'] } });
      expect(hook.status).toBe(201);
      try {
        const created = await api('POST', '/tokens', { key: writer.key, body: { type: 'token', data: 'under way' } });
        expect(created.status).toBe(201);
        const ofToken = () => held.envelopes().filter((e) => e.event.data.token?.id === created.body.id);
        await eventually(async () => (ofToken().length ? true : undefined), 20_000);
        await control('stop', 'webhook-dispatcher', 'SIGKILL');
        held.holding = false;
        await control('start', 'webhook-dispatcher');
        await eventually(async () => (ofToken().length >= 2 ? true : undefined), 30_000);
        expect(ofToken()).toHaveLength(2);
        const [first, again] = ofToken();
        expect(again.raw.headers['webhook-id']).toBe(first.raw.headers['webhook-id']);
        expect(again.event).toEqual(first.event);
        checkEnvelope(again, 'token.created', hook.body.signing_secret);
        const recorded = await eventually(async () => {
          const page = await api('GET', `/webhooks/${hook.body.id}/deliveries`, { key: tenant.managementKey });
          const mine = (page.body.data as Array<Record<string, unknown>>).filter((d) => d.event_id === first.event.id);
          return mine.length && mine[0].status === 'delivered' ? mine : undefined;
        }, 10_000);
        expect(recorded).toEqual([expect.objectContaining({ id: first.raw.headers['webhook-id'], status: 'delivered', attempts: 1, last_status_code: 204 })]);
      } finally {
        await api('DELETE', `/webhooks/${hook.body.id}`, { key: tenant.managementKey });
      }
    } finally {
      await held.stop();
    }
  });
});

describe('failing receivers', () => {
  let tenant: TestTenant;
  let smtp: SMTPServer;
  const mails: Array<{ to: string; body: string }> = [];

  beforeAll(async () => {
    tenant = await createTenant('events-failing');
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      onData(stream, session, callback) {
        let body = '';
        stream.on('data', (c: Buffer) => (body += c.toString('utf8')));
        stream.on('end', () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), body });
          callback();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(Number(process.env['COFFER_E2E_SMTP_PORT']), '127.0.0.1', () => r()));
  });

  afterAll(async () => {
    await new Promise<void>((r) => smtp.close(() => r()));
  });

  it('disables the webhook after the last retry, mails notify_email once, lists and re-sends the failed delivery', async () => {
    const receiver = await new Receiver().start();
    receiver.status = 500;
    try {
      const hook = await api('POST', '/webhooks', {
        key: tenant.managementKey,
        body: { name: 'flaky', url: receiver.url, notify_email: 'oncall@example.com', events: ['application.created'] },
      });
      expect(hook.status).toBe(201);
      const secret = hook.body.signing_secret as string;
      const app = await api('POST', '/applications', { key: tenant.managementKey, body: { name: 'boom', type: 'private', permissions: ['token:read'] } });
      expect(app.status).toBe(201);

      // e2e retry schedule: 200ms, 400ms, 800ms → four attempts, then failed
      const disabled = await eventually(async () => {
        const w = await api('GET', `/webhooks/${hook.body.id}`, { key: tenant.managementKey });
        return w.body.status === 'disabled' ? w.body : undefined;
      }, 30_000);
      expect(disabled.status).toBe('disabled');
      expect(receiver.received).toHaveLength(4);
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
      expect(receiver.received.every((r) => verifyStandardWebhook(secret, r))).toBe(true);

      const mail = await eventually(async () => mails.find((m) => m.to === 'oncall@example.com'), 15_000);
      expect(mail.body).toContain('flaky');
      expect(mail.body).toContain(hook.body.id);
      // nodemailer encodes a subject with quotes as an RFC 2047 word (=?UTF-8?Q?Coffer_webhook_=22flaky=22_…?=)
      expect(mail.body).toMatch(/Subject: (Coffer webhook "flaky" was disabled|=\?UTF-8\?Q\?Coffer_webhook_=22flaky=22_was_disabled\?=)/);

      // while disabled, new events are not queued for it
      await api('POST', '/applications', { key: tenant.managementKey, body: { name: 'quiet', type: 'private', permissions: ['token:read'] } });
      await new Promise((r) => setTimeout(r, 1000));
      expect(receiver.received).toHaveLength(4);

      const failed = await api('GET', `/webhooks/${hook.body.id}/deliveries?status=failed`, { key: tenant.managementKey });
      expect(failed.status).toBe(200);
      expect(failed.body.data).toHaveLength(1);
      const delivery = failed.body.data[0];
      expect(delivery).toMatchObject({
        webhook_id: hook.body.id,
        event_type: 'application.created',
        status: 'failed',
        attempts: 4,
        last_error: 'receiver answered 500',
        last_status_code: 500,
      });
      expect(typeof delivery.last_duration_ms).toBe('number');
      expect(delivery.id).toBe(receiver.received[0]?.headers['webhook-id']);
      expect((await api('GET', `/webhooks/${hook.body.id}/deliveries?status=sideways`, { key: tenant.managementKey })).status).toBe(400);

      receiver.status = 204;
      const resent = await api('POST', `/webhooks/${hook.body.id}/deliveries/${delivery.id}/resend`, { key: tenant.managementKey });
      expect(resent.status).toBe(202);
      expect(resent.body).toMatchObject({ id: delivery.id, status: 'pending', attempts: 0 });
      expect(resent.body.last_status_code).toBeUndefined();
      await eventually(async () => (receiver.received.length === 5 ? true : undefined));
      const last = receiver.received[4];
      expect(last?.headers['webhook-id']).toBe(delivery.id);
      expect(verifyStandardWebhook(secret, last as never)).toBe(true);
      expect(JSON.parse(last?.body ?? '{}').event.data.application.id).toBe(app.body.id);
      const delivered = await eventually(async () => {
        const d = await api('GET', `/webhooks/${hook.body.id}/deliveries?status=delivered`, { key: tenant.managementKey });
        return d.body.data.length ? d.body.data[0] : undefined;
      });
      expect(delivered).toMatchObject({ id: delivery.id, status: 'delivered', attempts: 1, last_status_code: 204 });
      expect(delivered.last_error).toBeUndefined();
      const missing = await api('POST', `/webhooks/${hook.body.id}/deliveries/00000000-0000-4000-8000-000000000000/resend`, { key: tenant.managementKey });
      expect(missing.status).toBe(404);

      // re-enabled by an update: events flow again
      const on = await api('PUT', `/webhooks/${hook.body.id}`, {
        key: tenant.managementKey,
        body: { name: 'flaky', url: receiver.url, events: ['application.created'], status: 'enabled' },
      });
      expect(on.body.status).toBe('enabled');
      const again = await api('POST', '/applications', { key: tenant.managementKey, body: { name: 'again', type: 'private', permissions: ['token:read'] } });
      await receiver.waitForEvent('application.created', (e) => e.event.data.application?.id === again.body.id);
      expect(mails.filter((m) => m.to === 'oncall@example.com')).toHaveLength(1);

      // the operator CLI lists the same deliveries and sends one again
      const listed = JSON.parse(
        await adminCli('webhooks', 'deliveries', '--tenant', tenant.tenantId, '--webhook', hook.body.id, '--status', 'delivered', '--json'),
      );
      expect(listed.data).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: delivery.id, status: 'delivered', attempts: 1, last_status_code: 204 })]),
      );
      expect(
        JSON.parse(await adminCli('webhooks', 'resend', '--tenant', tenant.tenantId, '--webhook', hook.body.id, '--delivery', delivery.id, '--json')),
      ).toEqual({
        requeued: 1,
      });
      // four failed attempts, the API's resend, the CLI's
      await eventually(async () => (receiver.received.filter((r) => r.headers['webhook-id'] === delivery.id).length === 6 ? true : undefined), 15_000);
    } finally {
      await receiver.stop();
    }
  });
});

/** The built operator CLI against the suite's database (asynchronous: keep-alive connections stay served meanwhile). */
async function adminCli(...args: string[]): Promise<string> {
  const root = path.resolve(__dirname, '../../../..');
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(root, 'dist/tools/admin/main.js'), ...args], {
    env: { ...process.env, DATABASE_URL: process.env['COFFER_E2E_DATABASE_URL'], KEY_ENCRYPTION_KEYS: process.env['COFFER_E2E_KEK'] },
  });
  return stdout;
}
