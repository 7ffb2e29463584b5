import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { connect, type NatsConnection } from 'nats';
import { ReplyInbox, RequestFailure } from './reply-inbox';

/** Against the machine's nats-server (NATS_URL, else 127.0.0.1:4222), on subjects of this run only. */
const NATS_URL = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';

describe('ReplyInbox', () => {
  let nc: NatsConnection;
  let inbox: ReplyInbox;
  const run = `test.reply-inbox.${randomUUID()}`;
  const enc = new TextEncoder();
  const dec = new TextDecoder();

  beforeAll(async () => {
    nc = await connect({ servers: NATS_URL });
    inbox = new ReplyInbox(nc, `_INBOX.${randomUUID()}`);
    nc.subscribe(`${run}.echo`, { callback: (_e, m) => m.respond(enc.encode(`echo ${dec.decode(m.data)}`)) });
    nc.subscribe(`${run}.slow`, { callback: (_e, m) => setTimeout(() => m.respond(enc.encode('late')), 300) });
    await nc.flush();
  });
  afterAll(async () => {
    inbox.close();
    await nc.close();
  });

  it('answers each request with its own reply, many at once', async () => {
    const replies = await Promise.all(Array.from({ length: 200 }, (_, i) => inbox.request(`${run}.echo`, enc.encode(String(i)), 2000)));
    expect(replies.map((m) => dec.decode(m.data))).toEqual(Array.from({ length: 200 }, (_, i) => `echo ${i}`));
    expect(inbox.size).toBe(0);
  });

  it('sweeps deadlines only while requests are pending: an idle inbox holds no timer', async () => {
    const idle = new ReplyInbox(nc, `_INBOX.${randomUUID()}`);
    const sweeping = () => (idle as unknown as { sweeper?: NodeJS.Timeout }).sweeper !== undefined;
    try {
      expect(sweeping()).toBe(false);
      const reply = idle.request(`${run}.echo`, enc.encode('x'), 2000);
      expect(sweeping()).toBe(true);
      await reply;
      // the next sweep finds nothing pending and stops
      await new Promise((r) => setTimeout(r, 80));
      expect(sweeping()).toBe(false);
    } finally {
      idle.close();
    }
  });

  it('fails a request nobody serves at once with 503 (no responders)', async () => {
    const started = Date.now();
    await expect(inbox.request(`${run}.nobody`, enc.encode('x'), 2000)).rejects.toMatchObject({ code: '503' });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('fails a request at its deadline, and drops the reply that comes later', async () => {
    const started = Date.now();
    const err = await inbox.request(`${run}.slow`, enc.encode('x'), 100).catch((e) => e);
    expect(err).toBeInstanceOf(RequestFailure);
    expect(err.code).toBe('TIMEOUT');
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(100);
    expect(waited).toBeLessThan(1000);
    await new Promise((r) => setTimeout(r, 400)); // the late reply arrives and is ignored
    expect(inbox.size).toBe(0);
    expect(dec.decode((await inbox.request(`${run}.echo`, enc.encode('after'), 2000)).data)).toBe('echo after');
  });

  it('keeps each request to its own deadline: a shorter one sent after a longer one times out first', async () => {
    const started = Date.now();
    const long = inbox.request(`${run}.slow`, enc.encode('x'), 3000).catch((e) => e);
    const short = await inbox.request(`${run}.slow`, enc.encode('y'), 100).catch((e) => e);
    expect(short.code).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(1000);
    // the slow service answers the longer one (after 300 ms) within its deadline
    expect(dec.decode((await long).data)).toBe('late');
    expect(inbox.size).toBe(0);
  });

  it('fails every pending request when the connection closes', async () => {
    const other = await connect({ servers: NATS_URL });
    const own = new ReplyInbox(other, `_INBOX.${randomUUID()}`);
    const pending = own.request(`${run}.slow`, enc.encode('x'), 5000);
    await other.flush();
    await other.close();
    await expect(pending).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    own.close();
  });

  it('fails the requests sent when the connection is lost at once, and holds the next ones until it is back', async () => {
    // a TCP relay to the server: cutting its sockets is the server dying, as the client sees it; it reconnects through it
    const sockets = new Set<net.Socket>();
    const relay = net.createServer((client) => {
      const { hostname, port } = new URL(NATS_URL);
      const server = net.connect(Number(port), hostname);
      for (const s of [client, server]) {
        sockets.add(s);
        s.on('error', () => undefined).on('close', () => sockets.delete(s));
      }
      client.pipe(server).pipe(client);
    });
    await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
    const other = await connect({ servers: `nats://127.0.0.1:${(relay.address() as net.AddressInfo).port}`, reconnectTimeWait: 50 });
    const own = new ReplyInbox(other, `_INBOX.${randomUUID()}`);
    nc.subscribe(`${run}.never`, { callback: () => undefined });
    await nc.flush();
    try {
      const pending = own.request(`${run}.never`, enc.encode('x'), 5_000);
      await other.flush();
      const started = Date.now();
      for (const s of sockets) s.destroy();
      await expect(pending).rejects.toMatchObject({ code: 'DISCONNECTED' });
      expect(Date.now() - started).toBeLessThan(1_000);
      // one made before it has reconnected is held (nats.js would drop it at the next dial), then sent and answered
      expect(dec.decode((await own.request(`${run}.echo`, enc.encode('again'), 5_000)).data)).toBe('echo again');
      // a server that does not come back: a held request fails at its deadline as never sent (503), not as a timeout
      relay.close();
      for (const s of sockets) s.destroy();
      await new Promise((r) => setTimeout(r, 100));
      await expect(own.request(`${run}.echo`, enc.encode('lost'), 300)).rejects.toMatchObject({ code: 'DISCONNECTED' });
    } finally {
      own.close();
      await other.close();
      relay.close();
    }
  });

  it('fails pending and later requests at once when the server refuses its reply subscription', async () => {
    let callback: ((err: Error | null, msg: unknown) => void) | undefined;
    const fake = {
      subscribe: (subject: string, opts: { callback: typeof callback }) => {
        // the reply subscription, not the lost-reply notices'
        if (!subject.startsWith('rpc.lost.')) callback = opts.callback;
        return { unsubscribe: () => undefined };
      },
      publish: () => undefined,
      closed: () => new Promise(() => undefined),
      status: async function* () {
        // no status events
      },
    } as unknown as NatsConnection;
    const refused = new ReplyInbox(fake, '_INBOX.refused');
    try {
      const pending = refused.request('token.tokens.get.v1', enc.encode('x'), 5_000);
      callback?.(Object.assign(new Error('Permissions Violation for Subscription to "_INBOX.refused.>"'), { code: 'PERMISSIONS_VIOLATION' }), undefined);
      await expect(pending).rejects.toBeInstanceOf(RequestFailure);
      await expect(refused.request('token.tokens.get.v1', enc.encode('x'), 5_000)).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
      expect(refused.size).toBe(0);
    } finally {
      refused.close();
    }
  });
});
