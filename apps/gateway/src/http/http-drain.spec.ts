import net from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { closeConnectionsWhenStopping, cutAfterMs, drainHttp } from './http-drain';

describe('drainHttp: the HTTP server stops before the rest of the gateway', () => {
  let fastify: FastifyInstance;
  let stopping: boolean;
  let url: string;

  beforeEach(async () => {
    stopping = false;
    fastify = Fastify({ return503OnClosing: false });
    closeConnectionsWhenStopping(fastify, () => stopping);
    fastify.get('/slow', async () => {
      await new Promise((r) => setTimeout(r, 400));
      return { answered: true };
    });
    fastify.get('/never', () => new Promise(() => undefined));
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(fastify.server.address() as net.AddressInfo).port}`;
  });
  afterEach(() => fastify.close().catch(() => undefined));

  it('answers the request in flight, with Connection: close, then refuses new connections', async () => {
    const inflight = fetch(`${url}/slow`);
    await new Promise((r) => setTimeout(r, 100));
    stopping = true;
    const started = Date.now();
    const drained = drainHttp(fastify, 10_000);
    const res = await inflight;
    expect({ status: res.status, connection: res.headers.get('connection'), body: await res.json() }).toEqual({
      status: 200,
      connection: 'close',
      body: { answered: true },
    });
    await drained;
    // the keep-alive connection did not hold the close up until its idle timeout
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect(fetch(`${url}/slow`)).rejects.toThrow();
  });

  it('cuts a request still unanswered at the deadline, so the close goes on', async () => {
    const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    const closed = new Promise((r) => socket.once('close', r));
    socket.on('error', () => undefined);
    socket.write('GET /never HTTP/1.1\r\nhost: x\r\n\r\n');
    await new Promise((r) => setTimeout(r, 100));
    stopping = true;
    await drainHttp(fastify, 300);
    await closed;
  });

  it('cuts 3 s before the forced exit (half the time when that is shorter)', () => {
    expect(cutAfterMs(25_000)).toBe(22_000);
    expect(cutAfterMs(4_000)).toBe(2_000);
  });
});
