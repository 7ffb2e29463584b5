import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { connect, type NatsConnection } from 'nats';
import { ProblemError, type RpcEnvelope } from '@coffer/contracts';
import type { Logger } from '@coffer/observability';
import { CofferNatsServer, rpcDroppedPastDeadline } from './coffer-nats.server';
import { RpcClient } from './rpc-client';
import { RpcProblemFilter } from './rpc-problem.filter';
import { currentRequestDeadline } from './request-deadline';
import { decodeReply, encodeRequest } from './wire-format';

/** Against the machine's nats-server (NATS_URL, else 127.0.0.1:4222), on subjects and a queue group of this run only. */
const servers = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';
const run = randomUUID();
const S = {
  get: `test.${run}.get`,
  fail: `test.${run}.fail`,
  crash: `test.${run}.crash`,
  slow: `test.${run}.slow`,
  busy: `test.${run}.busy`,
  bigint: `test.${run}.bigint`,
  quick: `test.${run}.quick`,
  bytes: `test.${run}.bytes`,
};

// under the 1 MiB max_payload of a default nats-server, even as base64
const ANSWER = Buffer.alloc(512 * 1024, 7);

type Line = { level: string; fields: Record<string, unknown>; msg: string };
function recordingLogger() {
  const lines: Line[] = [];
  const record = (level: string) => (fields: Record<string, unknown>, msg: string) => lines.push({ level, fields, msg });
  const logger = {
    isLevelEnabled: () => true,
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
  } as unknown as Logger;
  return { logger, lines };
}

let seen: Array<{ data: unknown; deadline?: number }> = [];

@Controller()
class TestHandlers {
  @MessagePattern(S.get)
  get(@Payload() data: unknown) {
    seen.push({ data, deadline: currentRequestDeadline() });
    return { id: 'x' };
  }

  @MessagePattern(S.fail)
  fail() {
    throw new ProblemError(404, 'no such token');
  }

  @MessagePattern(S.bigint)
  bigint() {
    return { n: 1n };
  }

  @MessagePattern(S.bytes)
  bytes() {
    return { status: 200, headers: [], body: ANSWER };
  }

  @MessagePattern(S.crash)
  async crash() {
    throw new Error('a bug, with 4242424242424242 in its message');
  }
}

@Module({ controllers: [TestHandlers] })
class TestModule {}

const envelope = (body: unknown, extra: Partial<RpcEnvelope> = {}): RpcEnvelope => ({
  traceId: 'trace-1',
  principal: { tenantId: 't1', applicationId: 'a1' } as RpcEnvelope['principal'],
  body,
  timeoutMs: 5_000,
  ...extra,
});

describe('CofferNatsServer in a Nest microservice', () => {
  const { logger, lines } = recordingLogger();
  const server = new CofferNatsServer({ name: `test-${run}`, logger, connection: { servers } });
  const client = new RpcClient();
  let app: INestMicroservice;
  let nc: NatsConnection;

  beforeAll(async () => {
    app = await NestFactory.createMicroservice(TestModule, { strategy: server, logger: false });
    app.useGlobalFilters(new RpcProblemFilter(logger));
    await app.listen();
    nc = await connect({ servers });
  });
  afterAll(async () => {
    await client.onModuleDestroy();
    await nc.close();
    await app.close();
  });
  beforeEach(() => {
    seen = [];
    lines.length = 0;
    server.setInvoker((_subject, env, call) => call(env));
  });

  it('answers with the handler’s value; the handler gets the envelope and runs with its deadline', async () => {
    const before = performance.now();
    await expect(client.call(S.get, { secret: '4242424242424242' }, { traceId: 'trace-1' }, 3_000)).resolves.toEqual({ id: 'x' });
    expect(seen).toHaveLength(1);
    expect(seen[0].data).toMatchObject({ traceId: 'trace-1', body: { secret: '4242424242424242' }, timeoutMs: 3_000 });
    expect(seen[0].deadline).toBeGreaterThan(before + 2_000);
    expect(seen[0].deadline).toBeLessThanOrEqual(performance.now() + 3_000);
    expect(lines).toEqual([{ level: 'debug', msg: 'rpc', fields: expect.objectContaining({ traceId: 'trace-1', subject: S.get }) }]);
    expect(JSON.stringify(lines)).not.toContain('4242');
  });

  it('the wire: the envelope in, {ok} out', async () => {
    const reply = await nc.request(S.get, encodeRequest(envelope({})), { timeout: 3_000 });
    expect(decodeReply(reply.data)).toEqual({ ok: { id: 'x' } });
  });

  it('a reply with a bytes body crosses the bus as those bytes, not base64 in JSON', async () => {
    const reply = await client.call<{ status: number; body: Buffer }>(S.bytes, {}, { traceId: 'trace-b' });
    expect(Buffer.isBuffer(reply.body)).toBe(true);
    expect(reply.body.equals(ANSWER)).toBe(true);
    const raw = await nc.request(S.bytes, encodeRequest(envelope({}, { bytes: true })), { timeout: 3_000 });
    expect(raw.data.length).toBeLessThan(ANSWER.length + 100);
    // a caller of an older release, which does not read binary replies, still gets base64
    const old = await nc.request(S.bytes, encodeRequest(envelope({})), { timeout: 3_000 });
    expect(decodeReply(old.data)).toEqual({ ok: { status: 200, headers: [], body: ANSWER.toString('base64') } });
  });

  it('a ProblemError thrown by a handler is a problem reply, logged in one line', async () => {
    await expect(client.call(S.fail, {}, { traceId: 'trace-2' })).rejects.toMatchObject({ status: 404, problem: { status: 404, detail: 'no such token' } });
    expect(lines).toEqual([{ level: 'info', msg: 'rpc failed', fields: expect.objectContaining({ status: 404, subject: S.fail, traceId: 'trace-2' }) }]);
  });

  it('any other error is a bare 500, logged by the exception filter with its subject', async () => {
    await expect(client.call(S.crash, {}, { traceId: 'trace-3' })).rejects.toMatchObject({ status: 500, problem: { detail: 'An unexpected error occurred' } });
    expect(lines.map((l) => [l.level, l.msg, l.fields['subject']])).toEqual([
      ['error', 'unhandled error in RPC handler', S.crash],
      ['info', 'rpc failed', S.crash],
    ]);
  });

  it('a reply JSON cannot carry is a 500, not a crash', async () => {
    await expect(client.call(S.bigint, {}, { traceId: 't' })).rejects.toMatchObject({ status: 500 });
    await expect(client.call(S.get, {}, { traceId: 't' })).resolves.toEqual({ id: 'x' });
  });

  it('a request that is not an envelope gets a 400 problem', async () => {
    const reply = await nc.request(S.get, new TextEncoder().encode('not json'), { timeout: 3_000 });
    expect(decodeReply(reply.data)).toMatchObject({ problem: { status: 400 } });
    expect(seen).toHaveLength(0);
  });

  it('the invoker decides what the handler receives, and runs inside the request’s deadline', async () => {
    const calls: Array<{ subject: string; deadline?: number }> = [];
    server.setInvoker(async (subject, env, call) => {
      calls.push({ subject, deadline: currentRequestDeadline() });
      return call({ command: env.body });
    });
    await expect(client.call(S.get, { a: 1 }, { traceId: 't' })).resolves.toEqual({ id: 'x' });
    expect(calls).toEqual([{ subject: S.get, deadline: expect.any(Number) }]);
    expect(seen.map((s) => s.data)).toEqual([{ command: { a: 1 } }]);
  });

  it('what the invoker throws becomes a problem reply, and the handler does not run', async () => {
    server.setInvoker(async () => {
      throw new ProblemError(403, 'not permitted');
    });
    await expect(client.call(S.get, {}, { traceId: 't' })).rejects.toMatchObject({ status: 403 });
    server.setInvoker(async () => {
      throw new Error('dispatcher bug');
    });
    await expect(client.call(S.get, {}, { traceId: 't' })).rejects.toMatchObject({ status: 500 });
    expect(seen).toHaveLength(0);
    expect(lines.filter((l) => l.level === 'error').map((l) => l.fields['subject'])).toEqual([S.get]);
  });

  it('the invoker sees a handler’s failure as a rejection with its problem', async () => {
    let caught: unknown;
    server.setInvoker(async (_subject, env, call) => call(env).catch((err) => Promise.reject((caught = err))));
    await expect(client.call(S.fail, {}, { traceId: 't' })).rejects.toMatchObject({ status: 404 });
    expect(caught).toMatchObject({ status: 404, title: 'Not Found' });
  });
});

describe('CofferNatsServer: deadlines and shutdown', () => {
  const { logger, lines } = recordingLogger();
  let server: CofferNatsServer;
  let nc: NatsConnection;
  const ran: string[] = [];
  let releaseSlow: () => void = () => undefined;
  let slowStarted: () => void = () => undefined;

  beforeEach(async () => {
    lines.length = 0;
    ran.length = 0;
    server = new CofferNatsServer({ name: `test-${run}-2`, logger, connection: { servers } });
    server.addHandler(S.busy, async () => {
      const until = performance.now() + 100;
      while (performance.now() < until);
      return 'busy';
    });
    server.addHandler(S.quick, async (env: RpcEnvelope) => (ran.push(String(env.body)), 'quick'));
    server.addHandler(S.slow, async () => {
      slowStarted();
      await new Promise<void>((r) => (releaseSlow = r));
      return 'slow';
    });
    await new Promise<void>((resolve, reject) => server.listen((err?: unknown) => (err ? reject(err) : resolve())));
    nc = await connect({ servers });
  });
  afterEach(async () => {
    releaseSlow();
    await server.close();
    await nc.close();
  });

  it('does not run a request whose deadline passed while it waited behind a busy handler: counted, one line, a 504 reply', async () => {
    const before = (await rpcDroppedPastDeadline.get()).values.find((v) => v.labels.subject === S.quick)?.value ?? 0;
    // one write: the server hands them over in one read, so the quick ones wait behind the busy one's 100 ms
    const replies = [nc.request(S.busy, encodeRequest(envelope('busy')), { timeout: 3_000 })];
    for (let i = 0; i < 20; i++) replies.push(nc.request(S.quick, encodeRequest(envelope(`q${i}`, { timeoutMs: 30 })), { timeout: 3_000 }));
    const decoded = (await Promise.all(replies)).map((m) => decodeReply(m.data));
    expect(decoded[0]).toEqual({ ok: 'busy' });
    const dropped = decoded.slice(1).filter((r) => 'problem' in r && r.problem.status === 504);
    expect(dropped.length).toBeGreaterThan(0);
    expect(dropped.length + ran.length).toBe(20);
    const after = (await rpcDroppedPastDeadline.get()).values.find((v) => v.labels.subject === S.quick)?.value;
    expect(after).toBe(before + dropped.length);
    const dropLines = lines.filter((l) => l.msg.includes('deadline passed'));
    expect(dropLines).toHaveLength(dropped.length);
    expect(dropLines[0]).toEqual({
      level: 'info',
      msg: expect.any(String),
      fields: expect.objectContaining({ traceId: 'trace-1', subject: S.quick, timeoutMs: 30 }),
    });
    expect(JSON.stringify(dropLines)).not.toContain('"q');
  });

  it('close() stops taking requests, lets the running handler finish and answer, then closes', async () => {
    const started = new Promise<void>((r) => (slowStarted = r));
    const reply = nc.request(S.slow, encodeRequest(envelope({})), { timeout: 5_000 });
    await started;
    expect(server.activeRequests).toBe(1);
    let closed = false;
    const closing = server.close().then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 200));
    expect(closed).toBe(false);
    // no one serves the subject any more: a new request is refused at once rather than left to time out
    await expect(nc.request(S.quick, encodeRequest(envelope('late')), { timeout: 3_000 })).rejects.toMatchObject({ code: '503' });
    releaseSlow();
    expect(decodeReply((await reply).data)).toEqual({ ok: 'slow' });
    await closing;
    expect(closed).toBe(true);
    expect(server.activeRequests).toBe(0);
    expect(ran).toEqual([]);
  });
});
