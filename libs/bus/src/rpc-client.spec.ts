import { randomUUID } from 'node:crypto';
import { JSONCodec, connect, type NatsConnection } from 'nats';
import { idempotentReplay, type RpcEnvelope } from '@coffer/contracts';
import { RpcClient } from './rpc-client';
import { withRequestDeadline } from './request-deadline';

/** Against the machine's nats-server (NATS_URL, else 127.0.0.1:4222), on subjects of this run only. */
describe('RpcClient deadlines', () => {
  const codec = JSONCodec();
  const subject = `test.rpc-client.${randomUUID()}`;
  const received: RpcEnvelope[] = [];
  let nc: NatsConnection;
  const client = new RpcClient();

  beforeAll(async () => {
    nc = await connect({ servers: process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222' });
    nc.subscribe(subject, {
      callback: (_e, m) => {
        const env = codec.decode(m.data) as RpcEnvelope & { body: { reply?: unknown } };
        received.push(env);
        m.respond(codec.encode(env.body.reply ?? { ok: { ok: true } }));
      },
    });
    await nc.flush();
  });
  afterAll(async () => {
    await client.onModuleDestroy();
    await nc.close();
  });
  beforeEach(() => (received.length = 0));

  it('sends its own deadline as timeoutMs outside any request', async () => {
    await expect(client.call(subject, {}, { traceId: 't' }, 1_234)).resolves.toEqual({ ok: true });
    expect(received.map((e) => e.timeoutMs)).toEqual([1_234]);
  });

  it('on behalf of a request, never passes on more than the time that request has left', async () => {
    await withRequestDeadline(performance.now() + 300, () => client.call(subject, {}, { traceId: 't' }, 5_000));
    expect(received).toHaveLength(1);
    expect(received[0].timeoutMs).toBeGreaterThan(200);
    expect(received[0].timeoutMs).toBeLessThanOrEqual(300);
  });

  it('a request with no time left fails at once with 504 and sends nothing', async () => {
    const started = performance.now();
    await expect(withRequestDeadline(performance.now() - 1, () => client.call(subject, {}, { traceId: 't' }))).rejects.toMatchObject({ status: 504 });
    expect(performance.now() - started).toBeLessThan(50);
    await nc.flush();
    expect(received).toHaveLength(0);
  });

  it('speaks the wire format: the envelope on the subject, {ok} unwrapped, {problem} thrown as it is', async () => {
    await expect(client.call(subject, { reply: { ok: [1, 2] } }, { traceId: 't', idempotencyKey: 'k' })).resolves.toEqual([1, 2]);
    expect(received[0]).toMatchObject({ traceId: 't', idempotencyKey: 'k', body: { reply: { ok: [1, 2] } } });
    await expect(client.call(subject, { reply: {} }, { traceId: 't' })).resolves.toBeUndefined();
    await expect(
      client.call(subject, { reply: { problem: { title: 'Not Found', status: 404, detail: 'no such token' } } }, { traceId: 't' }),
    ).rejects.toMatchObject({
      status: 404,
      problem: { title: 'Not Found', status: 404, detail: 'no such token' },
    });
  });

  it('unwraps an idempotent replay and tells the caller', async () => {
    let replayed = false;
    const reply = { ok: idempotentReplay({ id: 'x' }) };
    await expect(client.call(subject, { reply }, { traceId: 't', onReplay: () => (replayed = true) })).resolves.toEqual({ id: 'x' });
    expect(replayed).toBe(true);
  });

  it("a reply that is not Coffer's is a 502; nobody serving the subject a 503", async () => {
    await expect(client.call(subject, { reply: [1] }, { traceId: 't' })).rejects.toMatchObject({ status: 502 });
    await expect(client.call(`test.rpc-client.${randomUUID()}`, {}, { traceId: 't' })).rejects.toMatchObject({ status: 503 });
  });
});
