import { ProcessPressure } from './process-pressure';
import net, { type AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { ProblemError, type Principal } from '@coffer/contracts';
import { backPressureFromEnv, registerBackPressure, type EarlyAuthenticator } from './back-pressure';

// one tenant (no authenticator): 3 slots, of which one is the fair-share reserve, so 2 for the lone tenant
const limits = {
  maxInFlight: 3,
  maxReactsInFlight: 1,
  maxUnauthenticatedInFlight: 1,
  tenantSharePercent: 100,
  maxEventLoopDelayMs: 0,
  maxHeapUsedBytes: 0,
  retryAfterSeconds: 3,
};

describe('gateway back-pressure', () => {
  let app: FastifyInstance;
  let release: () => void;
  let held: Promise<void>;

  beforeEach(async () => {
    held = new Promise((r) => (release = r));
    app = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
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
      expect(backPressureFromEnv()).toEqual({
        maxInFlight: 64,
        maxReactsInFlight: 64,
        maxUnauthenticatedInFlight: 16,
        tenantSharePercent: 50,
        maxEventLoopDelayMs: 1000,
        maxHeapUsedBytes: 0,
        retryAfterSeconds: 1,
      });
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
    registerBackPressure(app, { ...limits, maxInFlight: 0, maxReactsInFlight: 0, maxUnauthenticatedInFlight: 0, maxHeapUsedBytes: 1, retryAfterSeconds: 2 });
    app.get('/tokens', async () => ({ data: [] }));
    app.get('/readyz', async () => ({ status: 'ready' }));
    await app.ready();
    try {
      await app.inject('/readyz'); // the first request starts sampling, with a heap sample at once
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

describe('ProcessPressure', () => {
  it('refuses while the event loop runs late, and holds no timer once requests stop', async () => {
    jest.useFakeTimers({ doNotFake: ['performance'] });
    try {
      const pressure = new ProcessPressure({ maxEventLoopDelayMs: 100, maxHeapUsedBytes: 0 });
      expect(jest.getTimerCount()).toBe(0); // idle from the start
      pressure.touch();
      expect(pressure.saturated).toBe(false);
      // a loop blocked for 500 ms: the sample due after 250 ms fires 250 ms late
      const until = performance.now() + 500;
      while (performance.now() < until);
      jest.advanceTimersByTime(250);
      expect(pressure.delayMs).toBeGreaterThan(100);
      expect(pressure.saturated).toBe(true);
      pressure.touch();
      jest.advanceTimersByTime(250);
      expect(pressure.saturated).toBe(false);
      // no request for a few samples: sampling stops, nothing is left scheduled
      jest.advanceTimersByTime(250 * 10);
      expect(jest.getTimerCount()).toBe(0);
      expect(pressure.saturated).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });
});

/**
 * Keys as the admission hook sees them: `key-<tenant>` cached, `new-<tenant>` looked up (held until `settle`),
 * `old-<tenant>` looked up too but known lately, anything else 401. Concurrent lookups of one key are one lookup.
 */
function fakeAuthenticator() {
  const lookups: Array<() => void> = [];
  const inFlight = new Map<string, Promise<Principal>>();
  const principal = (tenantId: string) => ({ tenantId, applicationId: `app-${tenantId}` }) as Principal;
  const keyOf = (req: FastifyRequest) => req.headers['svc-api-key'] as string | undefined;
  const auth: EarlyAuthenticator = {
    cached: (req) => {
      const key = keyOf(req);
      if (!key) throw new ProblemError(401, 'The SVC-API-KEY header is required');
      return key.startsWith('key-') ? principal(key.slice(4)) : undefined;
    },
    recentTenant: (req) => {
      const key = keyOf(req) as string;
      return key.startsWith('old-') ? key.slice(4) : undefined;
    },
    lookingUp: (req) => inFlight.has(keyOf(req) as string),
    lookup: (req) => {
      const key = keyOf(req) as string;
      if (!key.startsWith('new-') && !key.startsWith('old-')) return Promise.reject(new ProblemError(401, 'The API key is invalid or expired'));
      let asking = inFlight.get(key);
      if (!asking) {
        asking = new Promise<Principal>((resolve) => lookups.push(() => resolve(principal(key.slice(4))))).finally(() => inFlight.delete(key));
        inFlight.set(key, asking);
      }
      return asking;
    },
  };
  return { auth, settleLookups: () => lookups.splice(0).forEach((f) => f()), lookupsStarted: () => lookups.length };
}

describe('gateway admission: authentication before the body, unauthenticated budget, tenant shares', () => {
  let app: FastifyInstance;
  let release: () => void;
  let held: Promise<void>;
  let bodiesRead = 0;
  let auth: ReturnType<typeof fakeAuthenticator>;
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

  beforeEach(async () => {
    held = new Promise((r) => (release = r));
    bodiesRead = 0;
    auth = fakeAuthenticator();
    app = Fastify({ forceCloseConnections: true });
    registerBackPressure(app, { ...limits, maxInFlight: 4, maxReactsInFlight: 2, maxUnauthenticatedInFlight: 1, tenantSharePercent: 50 }, auth.auth);
    app.get('/slow', async () => {
      await held;
      return { ok: true };
    });
    app.post('/tokens', async (req) => {
      bodiesRead++;
      return { got: req.body };
    });
    app.post('/reactors/:id/react', async () => {
      await held;
      return { raw: {} };
    });
    app.get('/docs', async () => 'docs');
    app.get('/healthz', async () => ({ status: 'ok' }));
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterEach(async () => {
    release();
    await app.close();
  });

  it('a missing or unknown key is a 401 sent as soon as the headers are in, before any body byte arrives', async () => {
    const port = (app.server.address() as AddressInfo).port;
    for (const key of ['', 'svc-api-key: nope\r\n']) {
      const socket = net.connect(port, '127.0.0.1');
      socket.write(`POST /tokens HTTP/1.1\r\nHost: x\r\n${key}Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n`);
      const head = await new Promise<string>((resolve) => {
        socket.once('data', (d) => resolve(d.toString()));
        setTimeout(() => resolve('(no answer within 2 s)'), 2_000);
      });
      socket.destroy();
      expect(head).toMatch(/^HTTP\/1.1 401/);
      expect(head).toContain('application/problem+json');
    }
    expect(bodiesRead).toBe(0);
    const ok = await app.inject({ method: 'POST', url: '/tokens', headers: { 'svc-api-key': 'key-a' }, payload: { a: 1 } });
    expect(ok.json()).toEqual({ got: { a: 1 } });
  });

  it('one tenant holds at most its share (50% of 4): another tenant is still served', async () => {
    const a = [app.inject({ url: '/slow', headers: { 'svc-api-key': 'key-a' } }), app.inject({ url: '/slow', headers: { 'svc-api-key': 'key-a' } })];
    await wait(20);
    const over = await app.inject({ url: '/slow', headers: { 'svc-api-key': 'key-a' } });
    expect(over.statusCode).toBe(503);
    expect(over.headers['retry-after']).toBe('3');
    expect(over.json()).toMatchObject({ status: 503, title: 'Service Unavailable' });
    const b = app.inject({ url: '/slow', headers: { 'svc-api-key': 'key-b' } });
    await wait(20);
    release();
    expect((await b).statusCode).toBe(200);
    for (const res of await Promise.all(a)) expect(res.statusCode).toBe(200);
  });

  it('requests whose key is being looked up hold the unauthenticated budget, never a slot of known keys', async () => {
    const pending = app.inject({ url: '/slow', headers: { 'svc-api-key': 'new-c' } });
    await wait(20);
    // the unauthenticated budget (1) is taken: another unknown key, or a keyless route, waits for nothing: 503
    expect((await app.inject({ url: '/slow', headers: { 'svc-api-key': 'new-d' } })).statusCode).toBe(503);
    expect((await app.inject({ url: '/docs' })).statusCode).toBe(503);
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
    // a known key is not affected
    const known = app.inject({ url: '/slow', headers: { 'svc-api-key': 'key-a' } });
    await wait(20);
    auth.settleLookups();
    release();
    expect((await known).statusCode).toBe(200);
    expect((await pending).statusCode).toBe(200);
    expect((await app.inject({ url: '/docs' })).statusCode).toBe(200);
  });

  it('a burst of requests with one new key asks once and holds one unauthenticated slot', async () => {
    const burst = Array.from({ length: 3 }, () => app.inject({ url: '/slow', headers: { 'svc-api-key': 'new-e' } }));
    await wait(20);
    expect(auth.lookupsStarted()).toBe(1);
    auth.settleLookups();
    await wait(20);
    release();
    // the tenant's share (2 of 4) then applies: one of the three is refused, never for the unauthenticated budget
    expect((await Promise.all(burst)).map((r) => r.statusCode).sort()).toEqual([200, 200, 503]);
  });

  it('a key known lately is admitted in its tenant share while it is looked up again, whatever unknown keys hold', async () => {
    const unknown = app.inject({ url: '/slow', headers: { 'svc-api-key': 'new-f' } });
    await wait(20);
    // the unauthenticated budget (1) is full: a new key is refused, a key seen lately is not
    expect((await app.inject({ url: '/slow', headers: { 'svc-api-key': 'new-g' } })).statusCode).toBe(503);
    const returning = app.inject({ url: '/slow', headers: { 'svc-api-key': 'old-a' } });
    await wait(20);
    auth.settleLookups();
    release();
    expect((await returning).statusCode).toBe(200);
    expect((await unknown).statusCode).toBe(200);
  });

  it('a synchronous react is classified by the route it matched, however its path is spelled', async () => {
    const react = (url: string) => app.inject({ method: 'POST', url, headers: { 'svc-api-key': 'key-a' }, payload: {} });
    // the react budget is 2, and one tenant holds at most half of it
    const first = react('/reactors/r1/react');
    await wait(20);
    // `%72eact` is `react` to the router: it must count against the react budget, not the one for everything else
    expect((await react('/reactors/r1/%72eact')).statusCode).toBe(503);
    release();
    expect((await first).statusCode).toBe(200);
    expect((await react('/reactors/r1/%72eact')).statusCode).toBe(200);
  });
});
