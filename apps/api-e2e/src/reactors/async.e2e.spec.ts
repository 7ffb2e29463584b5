import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client } from 'pg';
import { VISA, api, control, createTenant, type TestTenant } from '@coffer/testing';
import { formulaCode, makeReactor } from './support';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A local webhook receiver whose answers a test scripts (status codes, delays). */
class Receiver {
  readonly received: Received[] = [];
  answers: Array<{ status: number; delayMs?: number; headers?: Record<string, string> }> = [];
  private server!: http.Server;
  url = '';

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        this.received.push({ headers: req.headers, body, at: Date.now() });
        const answer = this.answers.shift() ?? { status: 204 };
        setTimeout(() => res.writeHead(answer.status, answer.headers).end(), answer.delayMs ?? 0);
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  async waitFor(n: number, timeoutMs = 20_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    return this.received;
  }

  stop(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

/** Verification written from the Standard Webhooks specification, independently of the dispatcher's signer. */
function verify(secret: string, r: Received): boolean {
  const id = String(r.headers['webhook-id']);
  const ts = String(r.headers['webhook-timestamp']);
  if (Math.abs(Date.now() / 1000 - Number(ts)) > 300) return false;
  const expected = createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'))
    .update(`${id}.${ts}.${r.body}`)
    .digest();
  return String(r.headers['webhook-signature'])
    .split(' ')
    .some((part) => {
      const [version, sig] = part.split(',');
      const given = Buffer.from(sig ?? '', 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
}

/** docs/examples/verify-webhook.mjs, the receiver docs/webhooks.md tells users to run, as a real process. */
class DocumentedReceiver {
  static readonly file = path.resolve(__dirname, '../../../../docs/examples/verify-webhook.mjs');
  readonly lines: string[] = [];
  private child!: ChildProcessWithoutNullStreams;

  async start(secret: string): Promise<string> {
    this.child = spawn(process.execPath, [DocumentedReceiver.file], { env: { ...process.env, WEBHOOK_SECRET: secret, PORT: '0' } });
    let buffered = '';
    this.child.stdout.on('data', (chunk) => {
      buffered += chunk;
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      this.lines.push(...parts);
    });
    const line = await this.waitFor((l) => l.startsWith('listening on '));
    return `${line.slice('listening on '.length)}hook`;
  }

  async waitFor(match: (line: string) => boolean, timeoutMs = 20_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.lines.find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`documented receiver printed only: ${JSON.stringify(this.lines)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  stop(): void {
    this.child.kill();
  }
}

describe('asynchronous invocations and webhooks', () => {
  let tenant: TestTenant;
  let key: string;
  let receiver: Receiver;
  beforeAll(async () => {
    tenant = await createTenant('async');
    key = (await tenant.app('private', { permissions: ['token:create', 'token:read', 'token:use'] })).key;
    receiver = new Receiver();
    await receiver.start();
  });
  afterAll(() => receiver.stop());
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.answers = [];
  });

  const secret = async () => (await api('GET', '/tenants/self/webhook-secret', { key: tenant.managementKey })).body.secret as string;

  it('202 pending, then the signed result is delivered and the result endpoint shows it', async () => {
    const card = await api('POST', '/tokens', { key, body: { type: 'card', data: { number: VISA, expiration_month: 1, expiration_year: 2031 } } });
    const { reactorId } = await makeReactor(tenant.managementKey, {
      code: formulaCode('return { raw: { last4: req.args.card.number.slice(-4), count: req.args.count } };'),
      request_parameters: [
        { name: 'card.number', type: 'string' },
        { name: 'count', type: 'number' },
      ],
    });
    const started = Date.now();
    const res = await api('POST', `/reactors/${reactorId}/react`, {
      key,
      body: { args: { card: `{{ ${card.body.id} }}`, count: '7' }, callback_url: receiver.url },
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'pending' });
    const [delivery] = await receiver.waitFor(1);
    expect(delivery).toBeDefined();
    expect(delivery.headers['webhook-id']).toBe(res.body.id);
    expect(verify(await secret(), delivery)).toBe(true);
    expect(JSON.parse(delivery.body)).toEqual({ raw: { last4: '4242', count: 7 } });
    const result = await api('GET', `/reactors/${reactorId}/results/${res.body.id}`, { key });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ id: res.body.id, status: 'succeeded', result: { raw: { last4: '4242', count: 7 } } });
    expect(result.body.completed_at).toEqual(expect.any(String));
    process.stdout.write(`accept→delivery ${delivery.at - started} ms\n`);
  });

  it('formula output is stored sealed: neither the job nor its webhook delivery holds it in plaintext', async () => {
    const key = (await tenant.app('private', { permissions: ['token:create', 'token:use'] })).key;
    const card = await api('POST', '/tokens', { key, body: { type: 'card', data: { number: VISA, expiration_month: 1, expiration_year: 2031 } } });
    const { reactorId } = await makeReactor(tenant.managementKey, {
      code: formulaCode('return { raw: { number: req.args.card.number } };'),
      request_parameters: [{ name: 'card.number', type: 'string' }],
    });
    const res = await api('POST', `/reactors/${reactorId}/react`, { key, body: { args: { card: `{{ ${card.body.id} }}` }, callback_url: receiver.url } });
    expect(res.status).toBe(202);
    const [delivery] = await receiver.waitFor(1);
    expect(JSON.parse(delivery.body)).toEqual({ raw: { number: VISA } });
    expect((await api('GET', `/reactors/${reactorId}/results/${res.body.id}`, { key })).body.result).toEqual({ raw: { number: VISA } });
    const db = new Client({ connectionString: process.env['COFFER_E2E_DATABASE_URL'] });
    await db.connect();
    try {
      const job = await db.query(`SELECT row_to_json(j)::text AS row FROM reactor_jobs j WHERE id = $1`, [res.body.id]);
      const sent = await db.query(`SELECT row_to_json(d)::text AS row FROM webhook_deliveries d WHERE id = $1`, [res.body.id]);
      expect(job.rows).toHaveLength(1);
      expect(sent.rows).toHaveLength(1);
      for (const row of [job.rows[0].row, sent.rows[0].row]) expect(row).not.toContain(VISA);
    } finally {
      await db.end();
    }
  });

  it('validates synchronously: bad timeout_ms, bad callback_url, missing args, forbidden token', async () => {
    const { reactorId } = await makeReactor(tenant.managementKey, {
      code: formulaCode('return { raw: {} };'),
      request_parameters: [{ name: 'xx', type: 'number' }],
    });
    const react = (body: unknown, k = key) => api('POST', `/reactors/${reactorId}/react`, { key: k, body });
    expect((await react({ args: { xx: 1 }, callback_url: receiver.url, timeout_ms: 9999 })).status).toBe(400);
    expect((await react({ args: { xx: 1 }, callback_url: receiver.url, timeout_ms: 210001 })).status).toBe(400);
    expect((await react({ args: { xx: 1 }, callback_url: 'not a url' })).status).toBe(400);
    expect((await react({ args: { xx: 1 }, callback_url: 'ftp://example.com/hook' })).status).toBe(400);
    expect((await react({ callback_url: receiver.url })).status).toBe(400);
    const t = await api('POST', '/tokens', { key, body: { type: 'token', data: 5, containers: ['/secret/'] } });
    const ruled = (await tenant.app('private', { rules: [{ priority: 1, container: '/general/', transform: 'reveal', permissions: ['token:use'] }] })).key;
    expect((await react({ args: { xx: `{{ ${t.body.id} }}` }, callback_url: receiver.url }, ruled)).status).toBe(403);
    expect((await react({ args: { xx: `{{ ${t.body.id} }}` }, callback_url: receiver.url })).status).toBe(202);
    await receiver.waitFor(1);
    receiver.received.length = 0;
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received).toHaveLength(0);
  });

  it('a failing formula delivers its problem; a receiver failing then recovering gets retries with the same webhook-id', async () => {
    const { reactorId } = await makeReactor(tenant.managementKey, {
      code: "const { BadRequestError } = require('@coffer/reactor-runtime');\nmodule.exports = async function () { throw new BadRequestError('nope'); };",
    });
    receiver.answers = [{ status: 500 }, { status: 503, headers: { 'retry-after': '0' } }, { status: 200 }];
    const res = await api('POST', `/reactors/${reactorId}/react`, { key, body: { callback_url: receiver.url } });
    expect(res.status).toBe(202);
    const got = await receiver.waitFor(3);
    expect(got).toHaveLength(3);
    expect(new Set(got.map((g) => g.headers['webhook-id']))).toEqual(new Set([res.body.id]));
    expect(JSON.parse(got[2].body)).toMatchObject({ status: 400, errors: { error: ['nope'] } });
    const result = await api('GET', `/reactors/${reactorId}/results/${res.body.id}`, { key });
    expect(result.body).toMatchObject({ status: 'failed', error: { status: 400 } });
    const db = new Client({ connectionString: process.env['COFFER_E2E_DATABASE_URL'] });
    await db.connect();
    try {
      // the receiver answers before the dispatcher records the answer: wait for the delivery to be recorded as done
      const recorded = async () => (await db.query('SELECT status FROM webhook_deliveries WHERE id = $1', [res.body.id])).rows[0]?.status;
      for (const until = Date.now() + 10_000; (await recorded()) === 'pending' && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
      // the attempts that did not deliver have their rows; the one that delivered is on the delivery
      const attempts = await db.query('SELECT attempt, status_code FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt', [res.body.id]);
      expect(attempts.rows.map((r) => [r.attempt, r.status_code])).toEqual([
        [1, 500],
        [2, 503],
      ]);
      const delivery = await db.query('SELECT status, attempts, last_status_code FROM webhook_deliveries WHERE id = $1', [res.body.id]);
      expect(delivery.rows).toEqual([{ status: 'delivered', attempts: 3, last_status_code: 200 }]);
    } finally {
      await db.end();
    }
  });

  it('a run over timeout_ms fails with a 504 problem', async () => {
    const { reactorId } = await makeReactor(tenant.managementKey, { code: formulaCode('await new Promise(() => {});') });
    const res = await api('POST', `/reactors/${reactorId}/react`, { key, body: { callback_url: receiver.url, timeout_ms: 10000 } });
    expect(res.status).toBe(202);
    const [delivery] = await receiver.waitFor(1, 25_000);
    expect(JSON.parse(delivery.body)).toMatchObject({ status: 504 });
  }, 40_000);

  it('after a secret rotation both signatures are sent', async () => {
    const old = await secret();
    const rotated = (await api('POST', '/tenants/self/webhook-secret/rotate', { key: tenant.managementKey })).body.secret;
    const { reactorId } = await makeReactor(tenant.managementKey, { code: formulaCode('return { raw: { ok: true } };') });
    await api('POST', `/reactors/${reactorId}/react`, { key, body: { callback_url: receiver.url } });
    const [delivery] = await receiver.waitFor(1);
    expect(String(delivery.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(rotated, delivery)).toBe(true);
    expect(verify(old, delivery)).toBe(true);
  });

  it('the documented receiver (docs/examples/verify-webhook.mjs) verifies real deliveries and refuses a wrong secret', async () => {
    const { reactorId } = await makeReactor(tenant.managementKey, { code: formulaCode('return { raw: { ok: true } };') });
    const good = new DocumentedReceiver();
    const wrong = new DocumentedReceiver();
    try {
      const goodUrl = await good.start(await secret());
      const wrongUrl = await wrong.start('whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=');
      const ok = await api('POST', `/reactors/${reactorId}/react`, { key, body: { callback_url: goodUrl } });
      expect(ok.status).toBe(202);
      expect(await good.waitFor((l) => l.includes(ok.body.id))).toBe(`verified ${ok.body.id}`);
      const refused = await api('POST', `/reactors/${reactorId}/react`, { key, body: { callback_url: wrongUrl } });
      expect(refused.status).toBe(202);
      expect(await wrong.waitFor((l) => l.includes(refused.body.id))).toBe(`rejected ${refused.body.id}`);
    } finally {
      good.stop();
      wrong.stop();
    }
  });

  it('two dispatcher and two reactor-service replicas: every result delivered exactly once to a healthy receiver', async () => {
    await control('replica', 'webhook-dispatcher');
    await control('replica', 'reactor-service');
    try {
      const { reactorId } = await makeReactor(tenant.managementKey, { code: formulaCode('return { raw: { count: req.args.count } };') });
      const accepted = await Promise.all(
        Array.from({ length: 20 }, (_, n) => api('POST', `/reactors/${reactorId}/react`, { key, body: { args: { count: n }, callback_url: receiver.url } })),
      );
      for (const a of accepted) expect(a.status).toBe(202);
      await receiver.waitFor(20, 30_000);
      await new Promise((r) => setTimeout(r, 1500)); // a duplicate would arrive now
      const ids = receiver.received.map((g) => String(g.headers['webhook-id']));
      expect(ids.sort()).toEqual(accepted.map((a) => a.body.id).sort());
    } finally {
      await control('stop-replicas', 'webhook-dispatcher');
      await control('stop-replicas', 'reactor-service');
    }
  }, 90_000);

  it('a job running when reactor-service is stopped (SIGTERM) is finished and recorded before it exits; its result is delivered once', async () => {
    const { reactorId } = await makeReactor(tenant.managementKey, {
      code: formulaCode('await new Promise((r) => setTimeout(r, 1500)); return { raw: { count: req.args.count } };'),
    });
    const res = await api('POST', `/reactors/${reactorId}/react`, { key, body: { args: { count: 7 }, callback_url: receiver.url } });
    expect(res.status).toBe(202);
    const db = new Client({ connectionString: process.env['COFFER_E2E_DATABASE_URL'] });
    await db.connect();
    try {
      const status = async () => (await db.query('SELECT status FROM reactor_jobs WHERE id = $1', [res.body.id])).rows[0]?.status as string;
      const until = Date.now() + 10_000;
      while ((await status()) !== 'running' && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(await status()).toBe('running');
      await control('stop', 'reactor-service', 'SIGTERM');
      // the process has exited: the job it was running ended first, and its outcome is stored
      expect(await status()).toBe('succeeded');
    } finally {
      await control('start', 'reactor-service');
      await db.end();
    }
    await receiver.waitFor(1);
    await new Promise((r) => setTimeout(r, 1500)); // a second run would deliver again now
    expect(receiver.received.map((r) => [String(r.headers['webhook-id']), JSON.parse(r.body)])).toEqual([[res.body.id, { raw: { count: 7 } }]]);
  }, 60_000);

  it('kill -9 of reactor-service and webhook-dispatcher loses no accepted invocation', async () => {
    const { reactorId } = await makeReactor(tenant.managementKey, {
      code: formulaCode('await new Promise((r) => setTimeout(r, 300)); return { raw: { count: req.args.count } };'),
    });
    await control('stop', 'webhook-dispatcher', 'SIGKILL');
    const accepted: string[] = [];
    try {
      for (let n = 0; n < 6; n++) {
        const res = await api('POST', `/reactors/${reactorId}/react`, { key, body: { args: { count: n }, callback_url: receiver.url } });
        expect(res.status).toBe(202);
        accepted.push(res.body.id);
      }
      await control('stop', 'reactor-service', 'SIGKILL');
    } finally {
      await control('start', 'reactor-service');
      await control('start', 'webhook-dispatcher');
    }
    const got = await receiver.waitFor(6, 60_000);
    const ids = new Set(got.map((g) => String(g.headers['webhook-id'])));
    expect([...ids].sort()).toEqual([...accepted].sort());
  }, 120_000);
});
