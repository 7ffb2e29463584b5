import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { connect, type NatsConnection } from 'nats';
import type { RpcEnvelope } from '@coffer/contracts';
import type { Logger } from '@coffer/observability';
import { CofferNatsServer } from './coffer-nats.server';
import { ReplyInbox } from './reply-inbox';
import { decodeReply, encodeRequest } from './wire-format';

/**
 * A responder whose connection loses its server mid-request, against a private nats-server with the permissions Coffer
 * deploys: the responder answers only through `allow_responses`, so after it reconnects its late replies are refused.
 * The caller must learn at once that its reply is lost, not wait out its deadline (the high-availability drill's NATS
 * experiment saw 5 s of unavailability from this).
 */
const run = randomUUID().slice(0, 8);
const SLOW = `test.${run}.slow`;
const QUICK = `test.${run}.quick`;
const PASSWORD = randomUUID();

const ignore = () => undefined;
const quiet = { isLevelEnabled: () => false, debug: ignore, info: ignore, warn: ignore, error: ignore } as unknown as Logger;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

async function startNatsServer(dir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const conf = path.join(dir, 'nats.conf');
  fs.writeFileSync(
    conf,
    `listen: "127.0.0.1:${port}"
authorization {
  users = [
    { user: responder, password: "${PASSWORD}", permissions: { publish: { allow: ["rpc.lost.>"] }, subscribe: { allow: ["test.>"] }, allow_responses: true } }
    { user: requester, password: "${PASSWORD}", permissions: { publish: { allow: ["test.>"] }, subscribe: { allow: ["_INBOX.requester.>", "rpc.lost._INBOX.requester.>"] } } }
  ]
}
`,
  );
  const bin = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find((p) => fs.existsSync(p)) ?? 'nats-server';
  const child = spawn(process.env['NATS_SERVER_BIN'] ?? bin, ['-c', conf], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => (s.destroy(), resolve(true))).on('error', () => resolve(false));
    });
    if (ok) break;
    await sleep(50);
  }
  return { url: `nats://127.0.0.1:${port}`, child };
}

/** A TCP relay in front of the server: cutting its sockets is, as the client sees it, its server dying; `blackhole` drops what the client sends. */
function relayTo(url: string) {
  const sockets = new Set<net.Socket>();
  const state = { blackhole: false };
  const { hostname, port } = new URL(url);
  const relay = net.createServer((client) => {
    const server = net.connect(Number(port), hostname);
    for (const s of [client, server]) {
      sockets.add(s);
      s.on('error', () => undefined).on('close', () => sockets.delete(s));
    }
    client.on('data', (chunk) => state.blackhole || server.write(chunk));
    server.pipe(client);
  });
  return {
    state,
    listen: () => new Promise<string>((r) => relay.listen(0, '127.0.0.1', () => r(`nats://127.0.0.1:${(relay.address() as net.AddressInfo).port}`))),
    cut: () => {
      for (const s of sockets) s.destroy();
    },
    close: () => relay.close(),
  };
}

const envelope = (body: unknown): RpcEnvelope => ({ traceId: 'trace-lost', body, timeoutMs: 5_000 });

describe('a reply lost with its responder’s connection', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-lost-replies-'));
  let nats: { url: string; child: ChildProcess };
  let relay: ReturnType<typeof relayTo>;
  let server: CofferNatsServer;
  let requester: NatsConnection;
  let inbox: ReplyInbox;
  let release: () => void = () => undefined;
  let started: () => void = () => undefined;

  beforeAll(async () => {
    nats = await startNatsServer(dir);
    relay = relayTo(nats.url);
    const relayUrl = await relay.listen();
    server = new CofferNatsServer({
      name: `test-${run}`,
      logger: quiet,
      connection: { servers: relayUrl, user: 'responder', pass: PASSWORD, reconnectTimeWait: 50, maxReconnectAttempts: -1 },
    });
    server.addHandler(SLOW, async () => {
      started();
      await new Promise<void>((r) => (release = r));
      return 'slow';
    });
    server.addHandler(QUICK, async () => 'quick');
    await new Promise<void>((resolve, reject) => server.listen((err?: unknown) => (err ? reject(err) : resolve())));
    requester = await connect({ servers: nats.url, user: 'requester', pass: PASSWORD, inboxPrefix: '_INBOX.requester' });
    inbox = new ReplyInbox(requester, '_INBOX.requester');
  });
  afterAll(async () => {
    release();
    inbox.close();
    await requester.close();
    await server.close();
    relay.close();
    nats.child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const reconnected = () => new Promise<void>((r) => server.on('reconnect', () => r()));
  const ask = (subject: string) => inbox.request(subject, encodeRequest(envelope({})), 5_000);

  it('answers normally through the relay', async () => {
    expect(decodeReply((await ask(QUICK)).data)).toEqual({ ok: 'quick' });
  }, 10_000);

  it('a request whose handler was running when the connection was lost fails at once, not at its deadline', async () => {
    const running = new Promise<void>((r) => (started = r));
    const pending = ask(SLOW).catch((err: unknown) => err);
    await running;
    const back = reconnected();
    relay.cut();
    await back;
    const releasedAt = Date.now();
    release();
    expect(await pending).toMatchObject({ code: 'REPLY_LOST' });
    expect(Date.now() - releasedAt).toBeLessThan(1_000);
    // the reconnected responder answers what it receives now
    expect(decodeReply((await ask(QUICK)).data)).toEqual({ ok: 'quick' });
  }, 10_000);

  it('a reply sent just before the connection was lost, and lost with it, fails its request at once', async () => {
    const running = new Promise<void>((r) => (started = r));
    const pending = ask(SLOW).catch((err: unknown) => err);
    await running;
    // what the responder sends from now on dies in the socket, as it does when its server is killed under it
    relay.state.blackhole = true;
    release();
    await sleep(100);
    const back = reconnected();
    const cutAt = Date.now();
    relay.cut();
    relay.state.blackhole = false;
    await back;
    expect(await pending).toMatchObject({ code: 'REPLY_LOST' });
    expect(Date.now() - cutAt).toBeLessThan(1_000);
    expect(decodeReply((await ask(QUICK)).data)).toEqual({ ok: 'quick' });
  }, 10_000);
});
