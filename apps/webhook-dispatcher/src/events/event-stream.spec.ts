import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { connect, DiscardPolicy, StorageType, type JetStreamManager, type NatsConnection } from 'nats';
import { publishAcknowledged, type StreamedEvent } from './event-stream';

/**
 * The relay's publish to the events stream, against a private nats-server with JetStream: every event stored once
 * under its subject, a retried batch dropped as duplicates, and a refusal (no stream for the subject, a full stream)
 * failing the batch at once rather than at its deadline.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

describe('publishAcknowledged (nats-server with JetStream)', () => {
  let dir: string;
  let server: ChildProcess;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  const stream = `EV_${randomUUID().slice(0, 8)}`;
  const tenant = randomUUID();
  const event = (type = 'token.created'): StreamedEvent => {
    const id = randomUUID();
    return { id, tenant_id: tenant, type, event: JSON.stringify({ id, type, data: { token: { id: 't' } } }) };
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-event-stream-'));
    const port = await freePort();
    const bin = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find((p) => fs.existsSync(p)) ?? 'nats-server';
    server = spawn(process.env['NATS_SERVER_BIN'] ?? bin, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir], { stdio: 'ignore' });
    for (let i = 0; i < 100 && !nc; i++) {
      nc = await connect({ servers: `127.0.0.1:${port}`, inboxPrefix: '_INBOX.webhook-dispatcher' }).catch(() => undefined as unknown as NatsConnection);
      if (!nc) await sleep(50);
    }
    jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: stream, subjects: [`coffer.events.${tenant}.>`], storage: StorageType.File, duplicate_window: 600e9 });
  });

  afterAll(async () => {
    await nc?.close();
    server?.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('stores every event of a batch once, under its subject and id; a retried batch adds nothing', async () => {
    const before = (await jsm.streams.info(stream)).state.messages;
    const batch = Array.from({ length: 50 }, (_, i) => event(i % 2 ? 'token.created' : 'token.deleted'));
    await publishAcknowledged(nc, batch);
    expect((await jsm.streams.info(stream)).state.messages).toBe(before + 50);
    await publishAcknowledged(nc, batch);
    expect((await jsm.streams.info(stream)).state.messages).toBe(before + 50);

    const stored = await jsm.streams.getMessage(stream, { last_by_subj: `coffer.events.${tenant}.token.created` });
    const last = batch.filter((e) => e.type === 'token.created').at(-1) as StreamedEvent;
    expect(stored.header.get('Nats-Msg-Id')).toBe(last.id);
    expect(stored.string()).toBe(last.event);
  });

  it('fails at once when the stream refuses an event (full, discarding new)', async () => {
    const info = await jsm.streams.info(stream);
    await jsm.streams.update(stream, { ...info.config, max_msgs: info.state.messages + 1, discard: DiscardPolicy.New });
    const started = Date.now();
    await expect(publishAcknowledged(nc, [event(), event(), event()])).rejects.toThrow(/the events stream refused an event: maximum messages exceeded/);
    expect(Date.now() - started).toBeLessThan(1000);
    await jsm.streams.update(stream, { ...info.config, max_msgs: -1, discard: DiscardPolicy.Old });
  });

  it('fails at its deadline when something takes the subject but no acknowledgement comes', async () => {
    const silent = nc.subscribe('coffer.events.silent.>');
    await nc.flush();
    const e = { ...event(), tenant_id: 'silent' };
    await expect(publishAcknowledged(nc, [e], 300)).rejects.toThrow(/acknowledged 0 of 1 events within 300 ms/);
    silent.unsubscribe();
  });

  it('fails at once when no stream takes the subject', async () => {
    await jsm.streams.delete(stream);
    const started = Date.now();
    await expect(publishAcknowledged(nc, [event()])).rejects.toThrow(/the events stream did not answer: 503/);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
