import net, { type AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { bodyAllowanceMs, registerBodyDeadline, requestTimeoutsFromEnv, serverTimeoutOptions, type RequestTimeouts } from './request-timeouts';

const fast: RequestTimeouts = {
  headersTimeoutMs: 1_000,
  bodyTimeoutMs: 500,
  bodyMinBytesPerSecond: 100_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  connectionsCheckIntervalMs: 100,
};

/** Writes `text`, then resolves with what the server sent and how long until it closed the connection. */
function rawExchange(port: number, text: string, limitMs = 5_000): Promise<{ received: string; closedAfterMs: number | null }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.on('data', (d) => (received += d.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ received, closedAfterMs: performance.now() - started }));
    setTimeout(() => {
      socket.destroy();
      resolve({ received, closedAfterMs: null });
    }, limitMs);
  });
}

describe('request timeouts', () => {
  let app: FastifyInstance;
  let port: number;

  beforeEach(async () => {
    app = Fastify({ ...serverTimeoutOptions(fast), forceCloseConnections: true });
    registerBodyDeadline(app, fast);
    app.post('/echo', async (req) => ({ got: req.body }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterEach(() => app.close());

  it('a body that stops arriving is cut off after its allowance (500 ms + its length at the minimum rate)', async () => {
    expect(bodyAllowanceMs(fast, 100_000)).toBe(1_500);
    const res = await rawExchange(port, 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"a":');
    expect(res.closedAfterMs).not.toBeNull();
    expect(res.closedAfterMs).toBeGreaterThanOrEqual(1_400);
    expect(res.closedAfterMs).toBeLessThan(2_500);
  });

  it('headers that never end are a 408 after the headers timeout, enforced promptly', async () => {
    const res = await rawExchange(port, 'GET /echo HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    expect(res.closedAfterMs).not.toBeNull();
    expect(res.closedAfterMs).toBeLessThan(1_600);
    expect(res.received).toMatch(/^HTTP\/1.1 408/);
  });

  it('a whole body, and the next request on the same connection, are served as usual', async () => {
    const body = JSON.stringify({ a: 'x'.repeat(1000) });
    const req = `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const res = await rawExchange(port, req + req, 2_000);
    expect(res.received.match(/HTTP\/1.1 200/g)).toHaveLength(2);
    // kept alive: still open when the client gives up
    expect(res.closedAfterMs).toBeNull();
  });

  it('the defaults let a 1 MiB body take 74 s (128 kbit/s) and refuse an outer bound that would cut it off', () => {
    const saved = { ...process.env };
    try {
      for (const v of ['HTTP_HEADERS_TIMEOUT_MS', 'HTTP_BODY_TIMEOUT_MS', 'HTTP_BODY_MIN_BYTES_PER_S', 'HTTP_REQUEST_TIMEOUT_MS']) delete process.env[v];
      const t = requestTimeoutsFromEnv();
      expect(bodyAllowanceMs(t, 1024 * 1024)).toBe(74_000);
      expect(bodyAllowanceMs(t, undefined)).toBe(74_000);
      process.env['HTTP_REQUEST_TIMEOUT_MS'] = '80000';
      expect(() => requestTimeoutsFromEnv()).toThrow(/HTTP_REQUEST_TIMEOUT_MS must be at least 84000/);
    } finally {
      process.env = saved;
    }
  });
});
