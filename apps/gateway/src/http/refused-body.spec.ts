import net, { type AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { readRefusedBodies } from './refused-body';

const LIMIT = 1024;
const reading = { maxBytes: 64 * 1024, maxMs: 400 };

/**
 * A client on a raw socket: writes `head`, then `body` in 4 KiB pieces (each once the socket took the last one),
 * and stops after `stopAfterBytes` if given. Resolves with the bytes it got to write before the server's answer came,
 * whether a write failed, and the status line.
 */
function upload(
  port: number,
  head: string,
  body: Buffer,
  stopAfterBytes = Infinity,
): Promise<{ status: string; sentBeforeAnswer: number; writeFailed: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let sent = 0;
    let answer = '';
    let sentBeforeAnswer = -1;
    let writeFailed = false;
    const next = () => {
      if (socket.destroyed || sent >= Math.min(body.length, stopAfterBytes)) return;
      const piece = body.subarray(sent, sent + 4096);
      sent += piece.length;
      socket.write(piece, (err) => (err ? (writeFailed = true) : setImmediate(next)));
    };
    socket.on('connect', () => socket.write(head, next));
    socket.on('data', (d) => {
      if (sentBeforeAnswer < 0) sentBeforeAnswer = sent;
      answer += d.toString('latin1');
    });
    socket.on('error', () => (writeFailed = true));
    socket.on('close', () => resolve({ status: answer.split('\r\n')[0], sentBeforeAnswer, writeFailed }));
    setTimeout(() => socket.destroy(), 5_000);
  });
}

const head = (length: number) => `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
const chunkedHead = 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
const asChunks = (bytes: number) => Buffer.from(`1000\r\n${' '.repeat(4096)}\r\n`.repeat(Math.ceil(bytes / 4096)) + '0\r\n\r\n');

describe('a refused body is read before its answer closes the connection', () => {
  let app: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    app = Fastify({ bodyLimit: LIMIT, forceCloseConnections: true });
    readRefusedBodies(app, reading);
    app.post('/echo', async (req) => ({ got: req.body }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(() => app.close());

  it('a body over the limit by its Content-Length is read whole, then answered 413', async () => {
    const body = Buffer.alloc(40 * 1024, 0x20);
    const res = await upload(port, head(body.length), body);
    expect(res).toEqual({ status: 'HTTP/1.1 413 Payload Too Large', sentBeforeAnswer: body.length, writeFailed: false });
  });

  it('a chunked body over the limit is read to its end, then answered 413', async () => {
    const body = asChunks(40 * 1024);
    const res = await upload(port, chunkedHead, body);
    expect(res).toEqual({ status: 'HTTP/1.1 413 Payload Too Large', sentBeforeAnswer: body.length, writeFailed: false });
  });

  it('a body declared larger than the reading bound is answered at once, unread', async () => {
    const res = await upload(port, head(reading.maxBytes + 1), Buffer.alloc(0));
    expect(res.status).toBe('HTTP/1.1 413 Payload Too Large');
  });

  it('a chunked body that goes on past the reading bound is answered once the bound is read', async () => {
    const res = await upload(port, chunkedHead, asChunks(4 * reading.maxBytes));
    expect(res.status).toBe('HTTP/1.1 413 Payload Too Large');
    expect(res.sentBeforeAnswer).toBeLessThan(4 * reading.maxBytes);
  });

  it('a client that stops sending is answered once the reading time is up', async () => {
    const body = Buffer.alloc(40 * 1024, 0x20);
    const res = await upload(port, head(body.length), body, 8 * 1024);
    expect(res).toMatchObject({ status: 'HTTP/1.1 413 Payload Too Large', sentBeforeAnswer: 8 * 1024 });
  });

  it('a body within the limit is served as usual, on a connection the client closes after it', async () => {
    const body = Buffer.from(JSON.stringify({ a: 'x' }));
    const res = await upload(port, head(body.length).replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'), body);
    expect(res.status).toBe('HTTP/1.1 200 OK');
  });
});
