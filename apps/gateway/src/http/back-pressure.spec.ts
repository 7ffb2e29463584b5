import Fastify, { type FastifyInstance } from 'fastify';
import { backPressureFromEnv, registerBackPressure } from './back-pressure';

const limits = { maxInFlight: 2, maxReactsInFlight: 1, maxEventLoopDelayMs: 0, maxHeapUsedBytes: 0, retryAfterSeconds: 3 };

describe('gateway back-pressure', () => {
  let app: FastifyInstance;
  let release: () => void;
  let held: Promise<void>;

  beforeEach(async () => {
    held = new Promise((r) => (release = r));
    app = Fastify();
    registerBackPressure(app, limits);
    app.get('/slow', async () => {
      await held;
      return { ok: true };
    });
    app.get('/healthz', async () => ({ status: 'ok' }));
    app.post('/reactors/:id/react', async () => {
      await held;
      return { raw: {} };
    });
    app.get('/down', async (_req, reply) => reply.status(503).send({ title: 'Service Unavailable', status: 503 }));
    await app.ready();
  });
  afterEach(() => app.close());

  it('refuses requests over the in-flight limit at once with a 503 problem and Retry-After; probes still answer', async () => {
    const first = [app.inject('/slow'), app.inject('/slow')];
    await new Promise((r) => setTimeout(r, 20));
    const refused = await app.inject('/slow?x=1');
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('3');
    expect(refused.headers['content-type']).toContain('application/problem+json');
    expect(refused.json()).toEqual({ title: 'Service Unavailable', status: 503, detail: expect.stringContaining('overloaded') });
    expect((await app.inject('/healthz')).statusCode).toBe(200);
    release();
    for (const res of await Promise.all(first)) expect(res.statusCode).toBe(200);
    // the slots are free again
    expect((await app.inject('/slow')).statusCode).toBe(200);
  });

  it('synchronous reacts have their own budget: they cannot crowd other requests out, nor pass their own limit', async () => {
    const react = app.inject({ method: 'POST', url: '/reactors/r1/react', payload: {} });
    await new Promise((r) => setTimeout(r, 20));
    expect((await app.inject({ method: 'POST', url: '/reactors/r1/react/', payload: {} })).statusCode).toBe(503);
    const reads = [app.inject('/slow'), app.inject('/slow')];
    await new Promise((r) => setTimeout(r, 20));
    expect((await app.inject('/slow')).statusCode).toBe(503);
    release();
    expect((await react).statusCode).toBe(200);
    for (const res of await Promise.all(reads)) expect(res.statusCode).toBe(200);
  });

  it('every 503 carries Retry-After, also one a route sends itself (a backing service down)', async () => {
    const res = await app.inject('/down');
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('3');
  });

  it('reads its limits from the environment, with defaults', () => {
    const saved = { ...process.env };
    try {
      delete process.env['HTTP_MAX_IN_FLIGHT'];
      expect(backPressureFromEnv()).toEqual({ maxInFlight: 64, maxReactsInFlight: 64, maxEventLoopDelayMs: 1000, maxHeapUsedBytes: 0, retryAfterSeconds: 1 });
      process.env['HTTP_MAX_IN_FLIGHT'] = '0';
      process.env['HTTP_MAX_HEAP_MB'] = '512';
      expect(backPressureFromEnv()).toMatchObject({ maxInFlight: 0, maxHeapUsedBytes: 512 * 1024 * 1024 });
      process.env['HTTP_MAX_IN_FLIGHT'] = 'lots';
      expect(() => backPressureFromEnv()).toThrow(/HTTP_MAX_IN_FLIGHT/);
    } finally {
      process.env = saved;
    }
  });
});

describe('gateway back-pressure when the process itself is saturated', () => {
  it('refuses API requests while the heap is over its limit, never the probes', async () => {
    const app = Fastify();
    registerBackPressure(app, { maxInFlight: 0, maxReactsInFlight: 0, maxEventLoopDelayMs: 0, maxHeapUsedBytes: 1, retryAfterSeconds: 2 });
    app.get('/tokens', async () => ({ data: [] }));
    app.get('/readyz', async () => ({ status: 'ready' }));
    await app.ready();
    try {
      // under-pressure samples memory once per second
      await new Promise((r) => setTimeout(r, 1_100));
      const refused = await app.inject('/tokens');
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('2');
      expect(refused.json()).toMatchObject({ status: 503, title: 'Service Unavailable' });
      expect((await app.inject('/readyz')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
