import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SUBJECTS } from '@coffer/contracts';
import { EventBus, RpcClient } from '@coffer/bus';
import { insertTenant, startIntegration, type IntegrationContext } from '@coffer/testing/integration';
import { FailingWebhooks } from '../notify/failing-webhooks';
import { EndpointSecrets } from '../webhooks/endpoint-secrets';
import { DeliveryRepository } from './delivery.repository';
import { DispatcherService } from './dispatcher.service';

// the safety sweep an hour away: whatever the claims do within seconds here, a wake-up or a due time made them do
process.env['WEBHOOK_POLL_INTERVAL_MS'] = '3600000';
process.env['WEBHOOK_RETRY_SCHEDULE'] = '1s,1s';
process.env['ALLOW_PRIVATE_CALLBACKS'] = 'true';

/**
 * What runs the delivery claims (issue 35: no polling), against PostgreSQL and a local receiver: reactor-service's
 * NATS message for a job's result, the time a retry comes due, and a suspended tenant's resumption (a notification
 * from the tenants table) — each within a second or two, with the safety sweep an hour away.
 */
describe('DispatcherService wake-ups (PostgreSQL)', () => {
  let ctx: IntegrationContext;
  let tenant: string;
  let receiver: http.Server;
  let url: string;
  /** what the receiver answers next (then 204) */
  const answers: number[] = [];
  const received: Array<{ id: string; at: number }> = [];
  const subscribed = new Map<string, () => void>();
  const bus = {
    subscribe: async (subject: string, handler: () => void) => void subscribed.set(subject, handler),
    publish: async () => undefined,
  };
  const rpc = { call: async () => [`whsec_${Buffer.alloc(32, 7).toString('base64')}`] };

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  async function within(ms: number, check: () => boolean | Promise<boolean>): Promise<number> {
    const started = Date.now();
    while (Date.now() - started < ms) {
      if (await check()) return Date.now() - started;
      await sleep(20);
    }
    throw new Error(`not within ${ms} ms`);
  }
  /** A due delivery, as reactor-service queues an asynchronous job's result. */
  const queue = async (): Promise<string> => {
    const id = randomUUID();
    await ctx.sql.query(
      `INSERT INTO webhook_deliveries (id, tenant_id, url, body, status, attempts, next_attempt_at, created_at) VALUES ($1, $2, $3, '{"ok":true}', 'pending', 0, now(), now())`,
      [id, tenant, url],
    );
    return id;
  };
  const arrivals = (id: string) => received.filter((r) => r.id === id);

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push({ id: String(req.headers['webhook-id']), at: Date.now() });
        res.writeHead(answers.shift() ?? 204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    ctx = await startIntegration({ providers: [DispatcherService, DeliveryRepository, EndpointSecrets, RpcClient, EventBus, FailingWebhooks] }, [
      { provide: EventBus, useValue: bus },
      { provide: RpcClient, useValue: rpc },
      { provide: FailingWebhooks, useValue: { disable: async () => undefined } },
    ]);
    tenant = await insertTenant(ctx.sql);
    // the claims ran once at start and found nothing: from now on they sleep until woken
    await sleep(300);
  });
  afterAll(async () => {
    await ctx?.close();
    await new Promise((r) => receiver?.close(r));
  });

  it('claims a job result reactor-service queued when its NATS message arrives', async () => {
    const id = await queue();
    await sleep(300);
    expect(arrivals(id)).toHaveLength(0);
    subscribed.get(SUBJECTS.webhook.wake)?.();
    await within(3_000, () => arrivals(id).length === 1);
  });

  it('attempts a retry when it comes due, woken by nothing', async () => {
    answers.push(503);
    const id = await queue();
    subscribed.get(SUBJECTS.webhook.wake)?.();
    await within(3_000, () => arrivals(id).length === 1);
    // the retry is due a second (±20 % jitter, retry-schedule.ts) after the first attempt: the claims sleep until then
    await within(4_000, () => arrivals(id).length === 2);
    const [first, second] = arrivals(id);
    expect(second.at - first.at).toBeGreaterThanOrEqual(750);
    await within(3_000, async () => (await ctx.sql.query(`SELECT status FROM webhook_deliveries WHERE id = $1`, [id])).rows[0].status === 'delivered');
  });

  it("runs a suspended tenant's deliveries as soon as it is resumed", async () => {
    await ctx.sql.query('UPDATE tenants SET suspended_at = now() WHERE id = $1', [tenant]);
    const id = await queue();
    subscribed.get(SUBJECTS.webhook.wake)?.();
    await sleep(1_000);
    expect(arrivals(id)).toHaveLength(0);
    await ctx.sql.query('UPDATE tenants SET suspended_at = NULL WHERE id = $1', [tenant]);
    await within(3_000, () => arrivals(id).length === 1);
  });

  it('a receiver answering 410 Gone gets no further attempt: the delivery fails at once', async () => {
    answers.push(410);
    const id = await queue();
    subscribed.get(SUBJECTS.webhook.wake)?.();
    await within(3_000, () => arrivals(id).length === 1);
    await within(3_000, async () => (await ctx.sql.query(`SELECT status FROM webhook_deliveries WHERE id = $1`, [id])).rows[0].status === 'failed');
    const [row] = (await ctx.sql.query(`SELECT attempts, last_status_code, last_error FROM webhook_deliveries WHERE id = $1`, [id])).rows;
    expect(row).toEqual({ attempts: 1, last_status_code: 410, last_error: 'receiver answered 410' });
    // the schedule would have retried a second later
    await sleep(1_500);
    expect(arrivals(id)).toHaveLength(1);
  });
});
