import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { api } from '@coffer/testing';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** The delivered envelope, as the mirrored service documents it. */
export interface Envelope {
  event: {
    id: string;
    type: string;
    timestamp: string;
    tenant_id: string;
    trace_id: string | null;
    data: Record<string, any> & { actor: { id: string; type: string; name?: string } };
  };
  delivered_at: string;
}

/** A local webhook receiver: records every POST and answers with `status` (changeable by the test). */
export class Receiver {
  readonly received: Received[] = [];
  status = 204;
  /** headers of the answers (e.g. `retry-after`), changeable by the test */
  headers: Record<string, string> = {};
  /** while set, requests are recorded but not answered (a delivery stays under way) until {@link release} */
  holding = false;
  private held: http.ServerResponse[] = [];
  private server!: http.Server;
  url = '';

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        this.received.push({ headers: req.headers, body, at: Date.now() });
        if (this.holding) this.held.push(res);
        else res.writeHead(this.status, this.headers).end();
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/events`;
    return this;
  }

  envelopes(): Array<Envelope & { raw: Received }> {
    return this.received.map((r) => ({ ...(JSON.parse(r.body) as Envelope), raw: r }));
  }

  /** The first delivery of an event of `type` matching `where`, waited for. */
  async waitForEvent(type: string, where: (e: Envelope) => boolean = () => true, timeoutMs = 20_000): Promise<Envelope & { raw: Received }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.envelopes().find((e) => e.event?.type === type && where(e));
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(
          `no ${type} event arrived; got ${
            this.envelopes()
              .map((e) => e.event?.type)
              .join(', ') || 'nothing'
          }`,
        );
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Stops holding, and answers the requests held so far. */
  release(): void {
    this.holding = false;
    for (const res of this.held.splice(0)) if (!res.destroyed) res.writeHead(this.status).end();
  }

  stop(): Promise<void> {
    return new Promise((r) => {
      this.server.close(() => r());
      this.server.closeAllConnections();
    });
  }
}

/**
 * A receiver that accepts every connection and never answers (a hung endpoint): each delivery to it holds its
 * connection until the dispatcher's attempt times out. Counts the requests it got (connections on which one
 * arrived: the HTTP client also opens spare connections that carry none).
 */
export class SilentReceiver {
  requests = 0;
  private readonly sockets = new Set<net.Socket>();
  private server!: net.Server;
  url = '';

  async start(): Promise<this> {
    this.server = net.createServer((socket) => {
      this.sockets.add(socket);
      socket.once('data', () => this.requests++);
      socket.on('error', () => undefined);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/events`;
    return this;
  }

  stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    return new Promise((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

/** Verification written from the Standard Webhooks specification, independently of the dispatcher's signer. */
export function verifyStandardWebhook(secret: string, r: Received): boolean {
  const id = String(r.headers['webhook-id']);
  const ts = String(r.headers['webhook-timestamp']);
  if (Math.abs(Date.now() / 1000 - Number(ts)) > 300) return false;
  const expected = createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'))
    .update(`${id}.${ts}.${r.body}`)
    .digest();
  return String(r.headers['webhook-signature'])
    .split(' ')
    .some((part) => {
      const [version, sig] = part.split(',');
      const given = Buffer.from(sig ?? '', 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
}

export async function webhookSecret(managementKey: string): Promise<string> {
  const res = await api('GET', '/tenants/self/webhook-secret', { key: managementKey });
  if (res.status !== 200) throw new Error(`webhook secret: ${res.status}`);
  return res.body.secret as string;
}

export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}
