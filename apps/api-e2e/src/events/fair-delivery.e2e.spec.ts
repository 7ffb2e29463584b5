/**
 * Issue 34: one tenant's hung webhook receiver (accepts the connection, never answers) flooded with events must not
 * delay another tenant's deliveries — the dispatcher's attempts are shared out per tenant and per receiver, round
 * robin, and a receiver that keeps timing out is left alone for a cool-down, its deliveries deferred without using an
 * attempt (docs/events.md, "Fair delivery"; defaults: 8 attempts at once per receiver, 5 failures, 30 s).
 */
import { api, createTenant } from '@coffer/testing';
import { inParallel } from '../keys/support';
import { Receiver, SilentReceiver, eventually } from './support';

jest.setTimeout(120_000);

describe('fair delivery across tenants', () => {
  let silent: SilentReceiver;
  let receiver: Receiver;

  beforeAll(async () => {
    silent = await new SilentReceiver().start();
    receiver = await new Receiver().start();
  });

  afterAll(async () => {
    await silent.stop();
    await receiver.stop();
  });

  it("tenant A's silent receiver, flooded with 100 events, does not delay tenant B's deliveries: each arrives within about 1 s of its event", async () => {
    const a = await createTenant('fair-noisy');
    const b = await createTenant('fair-victim');
    const hookA = await api('POST', '/webhooks', { key: a.managementKey, body: { name: 'hung', url: silent.url, events: ['token.created'] } });
    expect(hookA.status).toBe(201);
    const hookB = await api('POST', '/webhooks', { key: b.managementKey, body: { name: 'fine', url: receiver.url, events: ['token.created'] } });
    expect(hookB.status).toBe(201);
    const writerA = await a.app('private', { permissions: ['token:create'] });
    const writerB = await b.app('private', { permissions: ['token:create'] });
    try {
      const flood = await inParallel(
        Array.from({ length: 100 }, (_, i) => i),
        10,
        (i) => api('POST', '/tokens', { key: writerA.key, body: { type: 'token', data: `noisy ${i}` } }),
      );
      expect(flood.map((r) => r.status).filter((s) => s !== 201)).toEqual([]);
      // A's deliveries are under way (hung) before B's events are written
      await eventually(async () => (silent.requests >= 8 ? true : undefined), 10_000);

      const ids: string[] = [];
      for (let i = 0; i < 25; i++) {
        const created = await api('POST', '/tokens', { key: writerB.key, body: { type: 'token', data: `victim ${i}` } });
        expect(created.status).toBe(201);
        ids.push(created.body.id);
        await new Promise((r) => setTimeout(r, 100));
      }
      const arrived = () => receiver.envelopes().filter((e) => e.event.type === 'token.created' && ids.includes(e.event.data.token?.id));
      await eventually(async () => (arrived().length >= ids.length ? true : undefined), 30_000).catch(() => undefined);
      const lags = arrived().map((e) => e.raw.at - Date.parse(e.event.timestamp));
      expect({ arrived: arrived().length, late: lags.filter((ms) => ms > 1_000) }).toEqual({ arrived: ids.length, late: [] });

      // A's receiver took no more than its share at once, and once its attempts timed out its breaker opened: the
      // rest of A's deliveries wait, pending, none of their attempts used (before: 64 hung at once, the rest queued
      // behind them and attempted as soon as a slot freed)
      const deferred = await eventually(async () => {
        const list = await api('GET', `/webhooks/${hookA.body.id}/deliveries?status=pending&size=100`, { key: a.managementKey });
        const rows = (list.body.data ?? []) as Array<{ attempts: number; last_error?: string }>;
        const waiting = rows.filter((d) => d.attempts === 0 && d.last_error?.startsWith('not attempted'));
        return waiting.length >= 50 ? waiting : undefined;
      }, 30_000);
      expect(deferred.length).toBeGreaterThanOrEqual(50);
      // 8 at once, and at most 4 more started as the first ones failed, before the fifth failure opened the breaker
      expect(silent.requests).toBeLessThanOrEqual(8 + 5 - 1);
    } finally {
      // its pending deliveries are dropped with it
      await api('DELETE', `/webhooks/${hookA.body.id}`, { key: a.managementKey });
    }
  });
});
