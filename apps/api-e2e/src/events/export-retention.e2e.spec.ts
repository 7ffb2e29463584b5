/**
 * Issue 25 item 5: events also go to the JetStream stream COFFER_EVENTS (`coffer.events.<tenant>.<type>`), which a
 * consumer with the events-reader identity reads durably and replays; finished deliveries and their attempts past
 * retention are pruned (pending ones never).
 */
import fs from 'node:fs';
import path from 'node:path';
import { AckPolicy, DeliverPolicy, JSONCodec, connect, nkeyAuthenticator, type NatsConnection } from 'nats';
import { Client } from 'pg';
import { api, createTenant, type TestTenant } from '@coffer/testing';
import { eventually } from './support';

jest.setTimeout(90_000);

const dir = process.env['COFFER_E2E_NATS_DIR'] as string;
const codec = JSONCodec<{ id: string; type: string; tenant_id: string; data: Record<string, any> }>();

function asEventsReader(): Promise<NatsConnection> {
  // the events-reader identity's nkey seed (docs/events.md)
  const seed = fs.readFileSync(path.join(dir, 'nkeys', 'events-reader.nk'), 'utf8').trim();
  return connect({
    servers: process.env['COFFER_E2E_NATS_URL'] as string,
    tls: { caFile: path.join(dir, 'tls', 'ca.pem') },
    authenticator: nkeyAuthenticator(new TextEncoder().encode(seed)),
    inboxPrefix: '_INBOX.events-reader',
    reconnect: false,
    timeout: 5000,
  });
}

describe('the JetStream export', () => {
  let tenant: TestTenant;
  let writer: { id: string; key: string };
  let nc: NatsConnection;

  beforeAll(async () => {
    tenant = await createTenant('events-export');
    writer = await tenant.app('private', { permissions: ['token:create'] });
    nc = await asEventsReader();
  });

  afterAll(async () => {
    await nc?.close();
  });

  async function tokenIds(consumerName: string, want: number): Promise<string[]> {
    const js = nc.jetstream();
    const consumer = await js.consumers.get('COFFER_EVENTS', consumerName);
    const seen: string[] = [];
    const deadline = Date.now() + 20_000;
    while (seen.length < want && Date.now() < deadline) {
      const batch = await consumer.fetch({ max_messages: 50, expires: 1000 });
      for await (const m of batch) {
        const event = codec.decode(m.data);
        expect(m.subject).toBe(`coffer.events.${tenant.tenantId}.${event.type}`);
        expect(event.tenant_id).toBe(tenant.tenantId);
        seen.push(event.data.token.id);
        m.ack();
      }
    }
    return seen;
  }

  it('a durable consumer reads each event once, resumes where it stopped, and a new consumer replays from the start', async () => {
    const jsm = await nc.jetstreamManager({ checkAPI: false });
    const filter = `coffer.events.${tenant.tenantId}.token.created`;
    await jsm.consumers.add('COFFER_EVENTS', {
      durable_name: `siem-${tenant.tenantId}`,
      filter_subject: filter,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
    });

    const first: string[] = [];
    for (let i = 0; i < 3; i++) first.push((await api('POST', '/tokens', { key: writer.key, body: { type: 'token', data: `v${i}` } })).body.id);
    expect(await tokenIds(`siem-${tenant.tenantId}`, 3)).toEqual(first);

    const later = (await api('POST', '/tokens', { key: writer.key, body: { type: 'token', data: 'later' } })).body.id;
    // the durable consumer resumes after what it acknowledged: only the new event
    expect(await tokenIds(`siem-${tenant.tenantId}`, 1)).toEqual([later]);

    await jsm.consumers.add('COFFER_EVENTS', {
      durable_name: `replay-${tenant.tenantId}`,
      filter_subject: filter,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
    });
    expect(await tokenIds(`replay-${tenant.tenantId}`, 4)).toEqual([...first, later]);
  });

  it('the reader identity cannot publish events or touch the stream', async () => {
    const jsm = await nc.jetstreamManager({ checkAPI: false });
    await expect(jsm.streams.delete('COFFER_EVENTS')).rejects.toThrow();
    await expect(
      nc
        .jetstream()
        .publish(`coffer.events.${tenant.tenantId}.token.created`, codec.encode({ id: 'x', type: 'token.created', tenant_id: tenant.tenantId, data: {} }), {
          timeout: 2000,
        }),
    ).rejects.toThrow();
  });
});

describe('retention of deliveries and jobs', () => {
  it('prunes reactor jobs that finished more than 30 days ago, keeps running and recent ones', async () => {
    const db = new Client({ connectionString: process.env['COFFER_E2E_DATABASE_URL'] });
    await db.connect();
    try {
      const tenantId = (await createTenant('jobs-retention')).tenantId;
      const ids: Record<string, string> = {};
      for (const [name, status, days] of [
        ['oldSucceeded', 'succeeded', 31],
        ['oldFailed', 'failed', 60],
        ['oldRunning', 'running', 40],
        ['recent', 'succeeded', 2],
      ] as const) {
        const r = await db.query(
          `INSERT INTO reactor_jobs (id, tenant_id, reactor_id, application_id, principal, args_ciphertext, args_key_id, callback_url, timeout_ms, status, locked_until, created_at)
           VALUES (gen_random_uuid(), $1, gen_random_uuid(), gen_random_uuid(), '{}', '\\x00', gen_random_uuid(), 'http://127.0.0.1:9/x', 10000, $2,
                   now() + interval '1 day', now() - make_interval(days => $3)) RETURNING id`,
          [tenantId, status, days],
        );
        ids[name] = r.rows[0].id;
      }
      await eventually(async () => {
        const left = await db.query(`SELECT id FROM reactor_jobs WHERE tenant_id = $1`, [tenantId]);
        return left.rows.length === 2 ? true : undefined;
      }, 20_000);
      const left = (await db.query(`SELECT id FROM reactor_jobs WHERE tenant_id = $1`, [tenantId])).rows.map((r) => r.id).sort();
      expect(left).toEqual([ids['oldRunning'], ids['recent']].sort());
    } finally {
      await db.end();
    }
  });

  it('prunes finished deliveries and their attempts older than 30 days, keeps pending and recent ones', async () => {
    const db = new Client({ connectionString: process.env['COFFER_E2E_DATABASE_URL'] });
    await db.connect();
    try {
      const tenantId = (await createTenant('events-retention')).tenantId;
      const rows = {
        oldDelivered: ['delivered', 31],
        oldFailed: ['failed', 40],
        oldPending: ['pending', 45],
        recentDelivered: ['delivered', 29],
      } as const;
      const ids: Record<string, string> = {};
      for (const [name, [status, days]] of Object.entries(rows)) {
        const r = await db.query(
          `INSERT INTO webhook_deliveries (id, tenant_id, url, body, status, next_attempt_at, created_at)
           VALUES (gen_random_uuid(), $1, 'http://127.0.0.1:9/x', '{}', $2, now() + interval '1 day', now() - make_interval(days => $3)) RETURNING id`,
          [tenantId, status, days],
        );
        ids[name] = r.rows[0].id;
        await db.query(
          `INSERT INTO webhook_attempts (id, delivery_id, tenant_id, attempt, duration_ms, created_at) VALUES (gen_random_uuid(), $1, $2, 1, 5, now() - make_interval(days => $3))`,
          [ids[name], tenantId, days],
        );
      }
      // RETENTION_INTERVAL_MS=1000 in the e2e system
      await eventually(async () => {
        const left = await db.query(`SELECT id FROM webhook_deliveries WHERE tenant_id = $1`, [tenantId]);
        return left.rows.length === 2 ? true : undefined;
      }, 20_000);
      const left = (await db.query(`SELECT id FROM webhook_deliveries WHERE tenant_id = $1`, [tenantId])).rows.map((r) => r.id).sort();
      expect(left).toEqual([ids['oldPending'], ids['recentDelivered']].sort());
      const attempts = (await db.query(`SELECT delivery_id FROM webhook_attempts WHERE tenant_id = $1`, [tenantId])).rows.map((r) => r.delivery_id).sort();
      expect(attempts).toEqual([ids['oldPending'], ids['recentDelivered']].sort());
    } finally {
      await db.end();
    }
  });
});
