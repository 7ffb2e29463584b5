import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import {
  OPS,
  ProblemError,
  unwrapIdempotentReplay,
  type Principal,
  type ProxyInvocationMessage,
  type ProxyReply,
  type RecordedProxyReply,
  type ResolvedProxy,
} from '@coffer/contracts';
import type { EventBus, RpcClient } from '@coffer/bus';
import { currentTraceId, withActingContext, type ActingContext, type Command } from '@coffer/operations';
import { AuditBatches } from './audit-batches';
import { Detokenizer } from './detokenizer';
import { Forwarder } from './forwarder';
import { ProxyDirectory } from './proxy-directory';
import { ProxyHandler } from './proxy.handler';
import { TenantShareBudget, type ShareBudgetConfig } from './tenant-shares';

// the destinations are local (https://localhost:<port>, a test CA): the proxy's own switch for private addresses
process.env['PROXY_ALLOW_PRIVATE_EGRESS'] = 'true';
// a line per call otherwise; what the tests look at is the answer, the destination and the audit trail
process.env['LOG_LEVEL'] ??= 'warn';

const REPO_ROOT = path.resolve(__dirname, '../../../..');
/** the operations proxy-service calls, by a name the assertions read */
const NAMED_OPS = {
  detokenize: OPS.token.tokens.detokenize,
  resolve: OPS.reactor.proxies.resolve,
  transform: OPS.reactor.proxies.transform,
  idempotency: OPS.reactor.proxies.idempotency,
};

/**
 * ProxyHandler.invoke with its real collaborators — Detokenizer, Forwarder (egress policy, undici, TLS), AuditBatches,
 * ProxyDirectory, the tenants' shares and header checks — against a local HTTPS destination whose certificate a
 * throwaway CA (tools/dev/test-ca.mjs) signed. Only the bus is a fake: an in-process stand-in for token-service
 * (detokenize, audit records) and reactor-service (proxy lookups, transforms, the idempotency ledger). What is asserted
 * is what the destination received, what the caller gets back, and what reached the audit trail and the ledger.
 */
describe('ProxyHandler.invoke (local HTTPS destination)', () => {
  let server: Server;
  let base: string;
  let tmp: string;
  /** the process's trusted CAs before the test CA was added (given back afterwards) */
  let trusted: string[] | undefined;
  const forwarders: Forwarder[] = [];

  /** what the destination received */
  const hits: Array<{ method: string; url: string; headers: Record<string, string | string[] | undefined>; body: Buffer }> = [];
  /** a request to /slow waits for this */
  let releaseSlow: () => void = () => undefined;
  let slow = Promise.resolve();
  const BINARY = Buffer.from([0x00, 0xff, 0x10, 0x80, 0x7b, 0x7b, 0x0a, 0xfe]);

  // ---- the bus: token-service and reactor-service in process ----
  const tokens = new Map([
    ['tok1', '4242424242424242'],
    ['tok2', 'second secret'],
  ]);
  /** tokens the caller may no longer use (a replay's re-check is then a 403) */
  const revoked = new Set<string>();
  const detokenized: unknown[] = [];
  /** each batch of audit records: as whom it was sent, and the trace of the operation it was sent in (none: as no request) */
  const audited: Array<{ principal: Principal; events: Array<Record<string, unknown>>; sentIn?: string }> = [];
  const ledgerCalls: Array<{ action: string; key: string; reply?: RecordedProxyReply }> = [];
  const ledger = new Map<string, { state: 'running' } | { state: 'completed'; reply: RecordedProxyReply }>();
  const proxiesByKey = new Map<string, ResolvedProxy>();
  /** who each call to another service was made as, and in which trace (audit records aside: batched, checked apart) */
  const calledAs: Array<{ op: string; principal?: Principal; traceId: string }> = [];
  const opName = (op: unknown) => Object.entries(NAMED_OPS).find(([, row]) => row === op)?.[0] ?? 'unknown';
  /** what reactor-service's request transforms do to a message */
  let requestTransform: (m: { headers: [string, string][]; body: string }) => { headers: [string, string][]; body: string } = (m) => m;

  const replaceTokens = (v: unknown): unknown => {
    if (typeof v === 'string')
      return v.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (_, id: string) => {
        if (revoked.has(id)) throw new ProblemError(403, 'Forbidden');
        const value = tokens.get(id);
        if (value === undefined) throw new ProblemError(404, 'Not Found');
        return value;
      });
    if (Array.isArray(v)) return v.map(replaceTokens);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, replaceTokens(x)]));
    return v;
  };

  const rpc = {
    call: async (op: unknown, body: Record<string, unknown>, ctx: { principal?: Principal; traceId: string }) => {
      if (op !== OPS.token.audit.record) calledAs.push({ op: opName(op), principal: ctx.principal, traceId: ctx.traceId });
      switch (op) {
        case OPS.token.tokens.detokenize:
          detokenized.push(body['payload']);
          return replaceTokens(body['payload']);
        case OPS.token.audit.record:
          audited.push({ principal: ctx.principal as Principal, events: body['events'] as Array<Record<string, unknown>>, sentIn: currentTraceId() });
          return { ok: true };
        case OPS.reactor.proxies.resolve: {
          // as ProxiesService.resolve: with a principal, only a proxy of its tenant is found
          const proxy = [...proxiesByKey.entries()].find(([key]) => sha256(key) === body['keyHash'])?.[1];
          return proxy && (!ctx.principal || proxy.tenantId === ctx.principal.tenantId) ? proxy : null;
        }
        case OPS.reactor.proxies.transform: {
          const message = body['message'] as { headers: [string, string][]; body: string };
          return requestTransform({ headers: message.headers, body: message.body });
        }
        case OPS.reactor.proxies.idempotency: {
          const { action, key, reply } = body as { action: string; key: string; reply?: RecordedProxyReply };
          ledgerCalls.push({ action, key, ...(reply ? { reply } : {}) });
          const entry = ledger.get(key);
          if (action === 'begin') {
            if (entry?.state === 'completed') return { replay: entry.reply };
            if (entry?.state === 'running') throw new ProblemError(409, 'A request with this idempotency key is in progress');
            ledger.set(key, { state: 'running' });
            return { claimed: true };
          }
          if (action === 'complete') ledger.set(key, { state: 'completed', reply: reply as RecordedProxyReply });
          else ledger.delete(key);
          return { done: true };
        }
        default:
          throw new Error(`unexpected call ${JSON.stringify(op)}`);
      }
    },
  } as unknown as RpcClient;
  const events = { subscribe: async () => undefined } as unknown as EventBus;

  const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
  function preConfigured(key: string, over: Partial<ResolvedProxy> = {}): ResolvedProxy {
    const proxy: ResolvedProxy = {
      id: `proxy-${key}`,
      tenantId: TENANT,
      destinationUrl: `${base}/configured`,
      requireAuth: true,
      disableDetokenization: false,
      requestTransforms: 0,
      responseTransforms: 0,
      ...over,
    };
    proxiesByKey.set(key, proxy);
    return proxy;
  }

  const TENANT = 'b6a6ac4c-3c33-4b6a-9d63-2c3b4b0e6f01';
  const OTHER_TENANT = 'c1c0ffee-3c33-4b6a-9d63-2c3b4b0e6f02';
  const caller: Principal = { tenantId: TENANT, applicationId: 'a1a1a1a1-3c33-4b6a-9d63-2c3b4b0e6f03', applicationType: 'private', permissions: ['token:use'] };

  const roomy: ShareBudgetConfig = { maxInFlight: 64, maxInFlightBytes: 64 * 1024 * 1024, tenantSharePercent: 50 };
  /** A call of proxy.invoke: its command, and who makes it (the operation dispatcher runs the handler as that caller). */
  interface Call {
    acting: ActingContext;
    cmd: Command<ProxyInvocationMessage>;
  }
  function handlerWith(config: ShareBudgetConfig = roomy): {
    handler: { invoke: (call: Call) => ReturnType<ProxyHandler['invoke']> };
    audits: AuditBatches;
    shares: TenantShareBudget;
  } {
    const forwarder = new Forwarder();
    forwarders.push(forwarder);
    const audits = new AuditBatches(rpc);
    const shares = new TenantShareBudget(config);
    const handler = new ProxyHandler(new Detokenizer(rpc), forwarder, rpc, audits, new ProxyDirectory(rpc, events), shares);
    return { handler: { invoke: ({ acting, cmd }) => withActingContext(acting, () => handler.invoke(cmd)) }, audits, shares };
  }

  let traceN = 0;
  function command(body: Partial<ProxyInvocationMessage>, over: { principal?: Principal; idempotencyKey?: string } = {}): Call {
    return {
      acting: { principal: over.principal ?? caller, traceId: `trace-${++traceN}` },
      cmd: {
        body: { method: 'POST', path: '', query: '', headers: [], ...body } as ProxyInvocationMessage,
        ...(over.idempotencyKey ? { idempotencyKey: over.idempotencyKey } : {}),
      },
    };
  }
  const problemOf = async (work: Promise<unknown>) => {
    try {
      await work;
    } catch (err) {
      if (err instanceof ProblemError) return err.problem;
      throw err;
    }
    throw new Error('expected a problem');
  };
  const asBuffer = (body: Uint8Array | string) => (typeof body === 'string' ? Buffer.from(body, 'base64') : Buffer.from(body));
  const headerOf = (reply: ProxyReply, name: string) => reply.headers.find(([k]) => k === name)?.[1];

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'proxy-handler-ca-'));
    const made = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { createTestCa } from ${JSON.stringify(path.join(REPO_ROOT, 'tools/dev/test-ca.mjs'))}; console.log(JSON.stringify(createTestCa(process.argv[1])));`,
        tmp,
      ],
      { encoding: 'utf8' },
    );
    if (made.status !== 0) throw new Error(`test CA: ${made.stderr}`);
    const ca = JSON.parse(made.stdout) as { caCert: string; cert: string; key: string };
    // what NODE_EXTRA_CA_CERTS does for proxy-service in the e2e run, for this process only
    trusted = tls.getCACertificates('default');
    tls.setDefaultCACertificates([...trusted, fs.readFileSync(ca.caCert, 'utf8')]);

    server = createServer({ key: fs.readFileSync(ca.key), cert: fs.readFileSync(ca.cert) }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const body = Buffer.concat(chunks);
        hits.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        const url = new URL(req.url ?? '/', 'https://localhost');
        if (url.pathname.endsWith('/slow')) await slow;
        if (url.pathname.endsWith('/bytes')) {
          res.writeHead(202, { 'content-type': 'application/octet-stream', 'x-answer': 'bytes', connection: 'keep-alive', 'keep-alive': 'timeout=5' });
          res.end(BINARY);
          return;
        }
        if (url.pathname.endsWith('/big')) {
          res.writeHead(200, { 'content-type': 'application/octet-stream' });
          res.end(Buffer.alloc(Number(url.searchParams.get('bytes')), 7));
          return;
        }
        if (url.pathname.endsWith('/fail')) {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end('destination failed');
          return;
        }
        res.writeHead(201, { 'content-type': 'application/json', 'x-answer': 'yes' });
        res.end(JSON.stringify({ got: body.toString('utf8'), path: url.pathname, query: url.search }));
      });
    });
    await new Promise<void>((r) => server.listen(0, 'localhost', () => r()));
    base = `https://localhost:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    releaseSlow();
    await Promise.all(forwarders.map((f) => f.onModuleDestroy()));
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    if (trusted) tls.setDefaultCACertificates(trusted);
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  beforeEach(() => {
    hits.length = 0;
    detokenized.length = 0;
    audited.length = 0;
    ledgerCalls.length = 0;
    calledAs.length = 0;
    revoked.clear();
    requestTransform = (m) => m;
  });

  it('sends the detokenized request to destination + path + query and returns its answer: status, headers, body bytes', async () => {
    const { handler } = handlerWith();
    const reply = (await handler.invoke(
      command({
        destination: `${base}/v1?fixed=1`,
        path: '/charges',
        query: 'expand=card',
        headers: [
          ['content-type', 'application/json'],
          ['x-card', '{{ tok2 }}'],
        ],
        body: Buffer.from(JSON.stringify({ number: '{{ tok1 }}', amount: 10 })).toString('base64'),
      }),
    )) as ProxyReply;

    expect(hits).toHaveLength(1);
    expect(hits[0].method).toBe('POST');
    expect(hits[0].url).toBe('/v1/charges?fixed=1&expand=card');
    expect(JSON.parse(hits[0].body.toString('utf8'))).toEqual({ number: '4242424242424242', amount: 10 });
    expect(hits[0].headers['x-card']).toBe('second secret');
    // the caller sent no user-agent: the proxy names itself
    expect(hits[0].headers['user-agent']).toBe('coffer-proxy/1.0');

    expect(reply.status).toBe(201);
    expect(headerOf(reply, 'x-answer')).toBe('yes');
    expect(headerOf(reply, 'content-type')).toBe('application/json');
    expect(JSON.parse(asBuffer(reply.body).toString('utf8'))).toEqual({
      got: JSON.stringify({ number: '4242424242424242', amount: 10 }),
      path: '/v1/charges',
      query: '?fixed=1&expand=card',
    });
  });

  it('returns a binary answer byte for byte, without hop-by-hop or reframed headers, and keeps the caller’s user-agent', async () => {
    const { handler } = handlerWith();
    const reply = (await handler.invoke(
      command({ method: 'GET', destination: `${base}/bytes`, headers: [['user-agent', 'caller/2.0']], body: undefined }),
    )) as ProxyReply;
    expect(reply.status).toBe(202);
    expect(asBuffer(reply.body).equals(BINARY)).toBe(true);
    expect(headerOf(reply, 'x-answer')).toBe('bytes');
    const names = reply.headers.map(([k]) => k);
    for (const dropped of ['connection', 'keep-alive', 'transfer-encoding', 'content-length']) expect(names).not.toContain(dropped);
    expect(hits[0].headers['user-agent']).toBe('caller/2.0');
    expect(hits[0].body.length).toBe(0);
  });

  it('audits each call with host, method, status and duration only: never its path, query, headers or body', async () => {
    const { handler, audits } = handlerWith();
    // an earlier test's batch may still be flushed while this one runs: only this test's calls are counted
    const firstTrace = traceN + 1;
    const ours = (r: Record<string, unknown>) => Number(String(r['traceId']).replace('trace-', '')) >= firstTrace;
    await handler.invoke(
      command({
        destination: `${base}/secret-path`,
        path: '/more-secret-path',
        query: 'q=secret-query',
        headers: [
          ['content-type', 'text/plain'],
          ['x-h', 'secret-header'],
        ],
        body: Buffer.from('secret body {{ tok1 }}').toString('base64'),
      }),
    );
    await problemOf(handler.invoke(command({ method: 'PUT', destination: 'https://no-such-host.invalid/x' })));
    await handler.invoke(command({ method: 'DELETE', destination: `${base}/fail` }));
    await audits.flush();

    const records = audited.flatMap((a) => a.events).filter((r) => ours(r as Record<string, unknown>));
    expect(audited.every((a) => a.principal.tenantId === TENANT)).toBe(true);
    expect(records).toHaveLength(3);
    expect(records.map((r) => [r['operation'], r['entityType'], r['entityId'], (r['changes'] as Record<string, { new: unknown }>)['method'].new])).toEqual([
      ['proxy', 'proxy', 'localhost', 'POST'],
      ['proxy', 'proxy', 'no-such-host.invalid', 'PUT'],
      ['proxy', 'proxy', 'localhost', 'DELETE'],
    ]);
    // the status is the destination's, or the problem's when there was no answer
    expect(records.map((r) => (r['changes'] as Record<string, { new: unknown }>)['status'].new)).toEqual([201, 400, 500]);
    expect(records.every((r) => typeof (r['changes'] as Record<string, { new: unknown }>)['duration_ms'].new === 'number')).toBe(true);
    expect(records[0]['traceId']).toMatch(/^trace-/);
    const text = JSON.stringify(audited);
    for (const secret of ['secret-path', 'more-secret-path', 'secret-query', 'secret-header', 'secret body', '4242424242424242', 'tok1'])
      expect(text).not.toContain(secret);
  });

  it('never detokenizes what an anonymous caller sends; it may call only its own proxy that does not require auth', async () => {
    const { handler } = handlerWith();
    const open = preConfigured('open-key', { requireAuth: false });
    const anonymous: Principal = { ...caller, applicationId: '', anonymousProxyId: open.id };
    const body = JSON.stringify({ number: '{{ tok1 }}' });
    const reply = (await handler.invoke(
      command(
        {
          proxyKey: 'open-key',
          destination: 'https://ignored.example',
          headers: [
            ['content-type', 'application/json'],
            ['x-card', '{{ tok2 }}'],
          ],
          body: Buffer.from(body).toString('base64'),
        },
        { principal: anonymous },
      ),
    )) as ProxyReply;
    expect(reply.status).toBe(201);
    // the pre-configured destination, not BT-PROXY-URL; the body and headers as sent, expressions and all
    expect(hits[0].url).toBe('/configured');
    expect(hits[0].body.toString('utf8')).toBe(body);
    expect(hits[0].headers['x-card']).toBe('{{ tok2 }}');
    expect(detokenized).toEqual([]);

    // another proxy's key, a proxy that requires auth, or no key at all: 401 before anything is sent
    preConfigured('closed-key', { requireAuth: true });
    const closedAnonymous: Principal = { ...anonymous, anonymousProxyId: 'proxy-closed-key' };
    preConfigured('other-open-key', { requireAuth: false });
    expect((await problemOf(handler.invoke(command({ proxyKey: 'other-open-key' }, { principal: anonymous })))).status).toBe(401);
    expect((await problemOf(handler.invoke(command({ proxyKey: 'closed-key' }, { principal: closedAnonymous })))).status).toBe(401);
    expect((await problemOf(handler.invoke(command({ destination: `${base}/x` }, { principal: anonymous })))).status).toBe(401);
    expect(hits).toHaveLength(1);
  });

  it('sends to a pre-configured proxy’s destination as the authenticated caller; a key of another tenant is a 400', async () => {
    const { handler } = handlerWith();
    preConfigured('tenant-key');
    preConfigured('plain-key', { disableDetokenization: true });
    preConfigured('foreign-key', { tenantId: OTHER_TENANT });
    const body = Buffer.from('card={{ tok1 }}').toString('base64');
    const form: [string, string][] = [['content-type', 'application/x-www-form-urlencoded']];

    await handler.invoke(command({ proxyKey: 'tenant-key', path: '/pay', headers: form, body }));
    expect(hits[0].url).toBe('/configured/pay');
    expect(hits[0].body.toString('utf8')).toBe('card=4242424242424242');
    // detokenization disabled on the proxy: sent as written
    await handler.invoke(command({ proxyKey: 'plain-key', headers: form, body }));
    expect(hits[1].body.toString('utf8')).toBe('card={{ tok1 }}');

    const problem = await problemOf(handler.invoke(command({ proxyKey: 'foreign-key', headers: form, body })));
    expect(problem.status).toBe(400);
    expect(problem.errors).toEqual({ 'BT-PROXY-KEY': ['is not the key of a proxy of this tenant'] });
    expect(hits).toHaveLength(2);
  });

  it('detokenizes only the caller’s own expressions: one a request transform added is refused (403), nothing is sent', async () => {
    const { handler } = handlerWith();
    preConfigured('transformed-key', { requestTransforms: 1 });
    requestTransform = (m) => ({ headers: [...m.headers, ['x-added', '{{ tok2 }}']], body: m.body });
    const body = Buffer.from(JSON.stringify({ number: '{{ tok1 }}' })).toString('base64');
    const problem = await problemOf(handler.invoke(command({ proxyKey: 'transformed-key', headers: [['content-type', 'application/json']], body })));
    expect(problem.status).toBe(403);
    expect(hits).toHaveLength(0);
    expect(detokenized).toEqual([]);

    // a transform that moves the caller's own expression is fine
    requestTransform = (m) => ({ headers: [...m.headers, ['x-moved', '{{ tok1 }}']], body: Buffer.from('{}').toString('base64') });
    await handler.invoke(command({ proxyKey: 'transformed-key', headers: [['content-type', 'application/json']], body }));
    expect(hits[0].headers['x-moved']).toBe('4242424242424242');
  });

  it('refuses a detokenized header value HTTP cannot carry with a 400 that names the header, never its value', async () => {
    const { handler } = handlerWith();
    tokens.set('tok_newline', 'line one\r\nx-injected: yes');
    try {
      const problem = await problemOf(handler.invoke(command({ destination: `${base}/x`, headers: [['x-card', '{{ tok_newline }}']] })));
      expect(problem.status).toBe(400);
      expect(problem.errors).toEqual({
        headers: ['after detokenization, the value of x-card is not valid in HTTP (line breaks, control characters and characters beyond Latin-1 are not)'],
      });
      expect(JSON.stringify(problem)).not.toContain('line one');
      expect(hits).toHaveLength(0);
    } finally {
      tokens.delete('tok_newline');
    }
  });

  it('answers 503 when the tenant is over its share of calls in flight; another tenant still gets through, and the share comes back', async () => {
    // two calls at once, one a tenant's
    const { handler, shares } = handlerWith({ maxInFlight: 2, maxInFlightBytes: 0, tenantSharePercent: 50 });
    slow = new Promise<void>((r) => (releaseSlow = r));
    const first = handler.invoke(command({ method: 'GET', destination: `${base}/slow` }));
    await waitFor(() => hits.length === 1);

    const refused = await problemOf(handler.invoke(command({ method: 'GET', destination: `${base}/x` })));
    expect(refused.status).toBe(503);
    expect(hits).toHaveLength(1);
    const other: Principal = { ...caller, tenantId: OTHER_TENANT };
    expect(((await handler.invoke(command({ method: 'GET', destination: `${base}/x` }, { principal: other }))) as ProxyReply).status).toBe(201);

    releaseSlow();
    expect(((await first) as ProxyReply).status).toBe(201);
    expect(shares.heldBytes(TENANT)).toBe(0);
    // the slot came back, also after a call that failed
    await problemOf(handler.invoke(command({ method: 'GET', destination: 'https://no-such-host.invalid/x' })));
    expect(((await handler.invoke(command({ method: 'GET', destination: `${base}/x` }))) as ProxyReply).status).toBe(201);
  });

  it('answers 503 when the tenant relayed more than a second of its byte rate; another tenant is not held back', async () => {
    // 1 MiB/s shared, half of it a tenant's: a 1 MiB answer puts the tenant two seconds ahead
    const { handler } = handlerWith({ maxInFlight: 64, maxInFlightBytes: 0, maxBytesPerSecond: 1024 * 1024, tenantSharePercent: 50 });
    const big = (await handler.invoke(command({ method: 'GET', destination: `${base}/big`, query: `bytes=${1024 * 1024}` }))) as ProxyReply;
    expect(asBuffer(big.body).length).toBe(1024 * 1024);
    const refused = await problemOf(handler.invoke(command({ method: 'GET', destination: `${base}/x` })));
    expect(refused.status).toBe(503);
    expect(refused.detail).toMatch(/over its share of proxy-service's throughput/);
    expect(hits).toHaveLength(1);
    const other: Principal = { ...caller, tenantId: OTHER_TENANT };
    expect(((await handler.invoke(command({ method: 'GET', destination: `${base}/x` }, { principal: other }))) as ProxyReply).status).toBe(201);
  });

  it('with an idempotency key: claims it, sends once, records the answer; a repeat replays it without sending', async () => {
    const { handler } = handlerWith();
    const call = () =>
      handler.invoke(
        command(
          { destination: `${base}/bytes`, headers: [['content-type', 'text/plain']], body: Buffer.from('pay {{ tok1 }}').toString('base64') },
          { idempotencyKey: 'idem-1' },
        ),
      );
    const first = (await call()) as ProxyReply;
    expect(first.status).toBe(202);
    expect(unwrapIdempotentReplay(first)).toBeUndefined();
    expect(ledgerCalls.map((c) => c.action)).toEqual(['begin', 'complete']);
    // recorded as the caller got it (body as base64), with the tokens the request detokenized
    expect(ledgerCalls[1].reply).toEqual({ status: 202, headers: first.headers, body: BINARY.toString('base64'), usedTokenIds: ['tok1'] });

    const again = await call();
    const replayed = unwrapIdempotentReplay(again)?.body as ProxyReply;
    expect(replayed.status).toBe(202);
    expect(asBuffer(replayed.body).equals(BINARY)).toBe(true);
    expect(replayed.headers).toEqual(first.headers);
    expect(replayed).not.toHaveProperty('usedTokenIds');
    expect(hits).toHaveLength(1);
    // the replay re-checked the caller may still use tok1
    expect(detokenized).toEqual([{ body: 'pay {{ tok1 }}' }, ['{{ tok1 }}']]);

    // access narrowed since: the stored answer is not handed out
    revoked.add('tok1');
    expect((await problemOf(call())).status).toBe(403);
    expect(hits).toHaveLength(1);
  });

  it('with an idempotency key: a failure before an answer releases the key, so a retry sends; a key still running is a 409', async () => {
    const { handler } = handlerWith();
    const call = (destination: string) => handler.invoke(command({ method: 'PATCH', destination }, { idempotencyKey: 'idem-2' }));
    expect((await problemOf(call('https://no-such-host.invalid/x'))).status).toBe(400);
    expect(ledgerCalls.map((c) => c.action)).toEqual(['begin', 'release']);
    expect(ledger.has('idem-2')).toBe(false);

    expect(((await call(`${base}/x`)) as ProxyReply).status).toBe(201);
    expect(ledgerCalls.map((c) => c.action)).toEqual(['begin', 'release', 'begin', 'complete']);
    expect(hits).toHaveLength(1);

    // an answer the destination gave is an answer: a 500 is recorded, not released
    const failing = await handler.invoke(command({ method: 'POST', destination: `${base}/fail` }, { idempotencyKey: 'idem-3' }));
    expect((failing as ProxyReply).status).toBe(500);
    expect(ledger.get('idem-3')).toMatchObject({ state: 'completed', reply: { status: 500, body: Buffer.from('destination failed').toString('base64') } });

    ledger.set('idem-4', { state: 'running' });
    expect((await problemOf(handler.invoke(command({ destination: `${base}/x` }, { idempotencyKey: 'idem-4' })))).status).toBe(409);
    expect(hits).toHaveLength(2);
  });

  it('makes every call of a request as its caller, in its trace: the ledger, the lookup, the transforms, the detokenization, the re-check', async () => {
    const { handler } = handlerWith();
    preConfigured('as-caller-key', { requestTransforms: 1 });
    const call = () =>
      command(
        { proxyKey: 'as-caller-key', headers: [['content-type', 'text/plain']], body: Buffer.from('pay {{ tok1 }}').toString('base64') },
        { idempotencyKey: 'idem-as-caller' },
      );
    const first = call();
    expect(((await handler.invoke(first)) as ProxyReply).status).toBe(201);
    expect(calledAs).toEqual(
      ['idempotency', 'resolve', 'transform', 'detokenize', 'idempotency'].map((op) => ({ op, principal: caller, traceId: first.acting.traceId })),
    );

    calledAs.length = 0;
    const replay = call();
    expect(unwrapIdempotentReplay(await handler.invoke(replay))).toBeDefined();
    expect(calledAs).toEqual(['idempotency', 'detokenize'].map((op) => ({ op, principal: caller, traceId: replay.acting.traceId })));
  });

  it('looks an inbound proxy up as its anonymous principal, and audits the call as that principal', async () => {
    const { handler, audits } = handlerWith();
    const open = preConfigured('anonymous-audit-key', { requireAuth: false });
    const anonymous: Principal = { ...caller, applicationId: open.id, anonymousProxyId: open.id };
    const call = command({ proxyKey: 'anonymous-audit-key' }, { principal: anonymous });
    expect(((await handler.invoke(call)) as ProxyReply).status).toBe(201);
    expect(calledAs).toEqual([{ op: 'resolve', principal: anonymous, traceId: call.acting.traceId }]);
    await audits.flush();
    const mine = audited.filter((a) => a.events.some((e) => e['traceId'] === call.acting.traceId));
    expect(mine.map((a) => a.principal)).toEqual([anonymous]);
  });

  it('sends the audit records of several callers batched together each as its own caller, as no request', async () => {
    const { handler, audits } = handlerWith();
    const other: Principal = { ...caller, tenantId: OTHER_TENANT, applicationId: 'a2a2a2a2-3c33-4b6a-9d63-2c3b4b0e6f04' };
    const calls = [command({ destination: `${base}/x` }), command({ destination: `${base}/x` }, { principal: other }), command({ destination: `${base}/x` })];
    // in flight together: their records wait in the same batches' window, sent when it ends (the first call's timer)
    await Promise.all(calls.map((c) => handler.invoke(c)));
    const traces = new Set(calls.map((c) => c.acting.traceId));
    const batchesOf = () =>
      audited
        .map((a) => ({ principal: a.principal, sentIn: a.sentIn, traces: a.events.map((e) => String(e['traceId'])).filter((t) => traces.has(t)) }))
        .filter((b) => b.traces.length);
    await waitFor(() => batchesOf().length === 2);
    await audits.flush();
    const batches = batchesOf();
    expect(batches).toHaveLength(2);
    // not in the context of the call that started the timer: no operation's caller or trace
    expect(batches.map((b) => b.sentIn)).toEqual([undefined, undefined]);
    expect(batches.find((b) => b.principal === caller)?.traces.sort()).toEqual([calls[0].acting.traceId, calls[2].acting.traceId].sort());
    expect(batches.find((b) => b.principal === other)?.traces).toEqual([calls[1].acting.traceId]);
  });
});

async function waitFor(check: () => boolean, ms = 3_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
