import { randomBytes } from 'node:crypto';
import { Events, type Msg, type NatsConnection, type Subscription } from 'nats';
import { LOST_REPLY_PREFIX } from './lost-replies';
import { PublishBatch } from './publish-batch';

/** Why a request got no reply; RpcClient turns these into 504 and 503. */
export class RequestFailure extends Error {
  constructor(readonly code: 'TIMEOUT' | '503' | 'CONNECTION_CLOSED' | 'DISCONNECTED' | 'REPLY_LOST') {
    super(MESSAGES[code]);
  }
}

const MESSAGES: Record<RequestFailure['code'], string> = {
  TIMEOUT: 'timeout',
  '503': 'no responders',
  CONNECTION_CLOSED: 'connection closed',
  DISCONNECTED: 'disconnected from the server',
  REPLY_LOST: 'the reply was lost with its responder’s connection',
};

/**
 * Random suffixes for reply tokens, drawn from a pool refilled 4 KiB at a time: a reply subject cannot be guessed by a
 * service that did not receive its request (it may publish lost-reply notices, lost-replies.ts).
 */
class TokenSuffixes {
  private pool = randomBytes(4096);
  private offset = 0;

  next(): string {
    if (this.offset + 6 > this.pool.length) {
      this.pool = randomBytes(4096);
      this.offset = 0;
    }
    const suffix = this.pool.readUIntBE(this.offset, 6).toString(36);
    this.offset += 6;
    return suffix;
  }
}

interface Pending {
  resolve: (msg: Msg) => void;
  reject: (err: Error) => void;
  deadline: number;
  /** what to publish, until it has left (held while the connection is down) */
  unsent?: { subject: string; data: Uint8Array };
}

/**
 * Request-reply over one subscription, `<prefix>.<random>.*`, where each request's reply subject ends in its own
 * sequence number. It does what nats.js's `request` does with its multiplexed inbox, less what a request there costs
 * per call: a `NatsError` built (with its stack trace) for every request in case it fails, a timer, and a promise
 * wrapper (3–6 % of the gateway's CPU in issue 14's profiles). Deadlines are kept by one unref'd timer instead of
 * one per request, set for the earliest deadline of the requests pending: it wakes only when a request can have run
 * out of time, and an idle inbox (nothing pending) holds none.
 *
 * A reply-less "no responders" status (nobody serves the subject) fails the request at once with code 503, as it
 * does in nats.js; a closed connection fails every pending request.
 *
 * A lost connection (its server died, say) is handled here too, as the high-availability drill found it costs every
 * caller 5 s otherwise:
 * - the requests already sent fail at once (DISCONNECTED): the reply subscription lived on that server, so a reply
 *   sent before the client has subscribed again elsewhere is dropped, and they would only wait for their deadline;
 * - the requests made until it has reconnected are held, not published: nats.js 2 discards what is published between
 *   a lost connection and its next dial (each dial resets its outbound buffer). They leave once it is back, or fail
 *   at their deadline as DISCONNECTED (never sent, so safe to retry).
 * The responder's side of a lost connection is told by a notice on `rpc.lost.<reply subject>` (lost-replies.ts): the
 * request fails at once as REPLY_LOST (504, like a timeout: it may have been carried out).
 */
export class ReplyInbox {
  private readonly subject: string;
  private readonly pending = new Map<string, Pending>();
  private readonly subscription: Subscription;
  private readonly lostSubscription: Subscription;
  private readonly suffixes = new TokenSuffixes();
  /** set for the earliest pending deadline (`sweepAt`), only while requests are pending */
  private sweeper?: NodeJS.Timeout;
  private sweepAt = Infinity;
  /** the requests of one event-loop iteration leave in one socket write */
  private readonly outbox = new PublishBatch();
  private seq = 0;
  /** The reply subscription failed (the server refused it: a permissions error): no reply can ever arrive. */
  private broken = false;
  /** the connection lost its server and has not reconnected yet */
  private down = false;

  constructor(
    private readonly nc: NatsConnection,
    prefix: string,
  ) {
    this.subject = `${prefix}.${randomBytes(12).toString('hex')}`;
    this.subscription = nc.subscribe(`${this.subject}.*`, {
      callback: (err, msg) => {
        if (err) return this.fail();
        this.deliver(msg);
      },
    });
    // refused where the bus's permissions predate the notices: then a lost reply waits for its deadline, as before
    this.lostSubscription = nc.subscribe(`${LOST_REPLY_PREFIX}${this.subject}.*`, {
      callback: (err, msg) => {
        if (!err) this.lost(msg.subject.slice(LOST_REPLY_PREFIX.length + this.subject.length + 1));
      },
    });
    void nc.closed().then(() => this.failAll(new RequestFailure('CONNECTION_CLOSED')));
    void (async () => {
      for await (const status of nc.status()) {
        if (status.type === Events.Disconnect) this.disconnected();
        else if (status.type === Events.Reconnect) this.reconnected();
      }
    })().catch(() => undefined);
  }

  request(subject: string, data: Uint8Array, timeoutMs: number): Promise<Msg> {
    const token = `${(this.seq = (this.seq + 1) % Number.MAX_SAFE_INTEGER).toString(36)}-${this.suffixes.next()}`;
    if (this.broken) return Promise.reject(new RequestFailure('CONNECTION_CLOSED'));
    return new Promise<Msg>((resolve, reject) => {
      const deadline = Date.now() + timeoutMs;
      this.pending.set(token, { resolve, reject, deadline, unsent: { subject, data } });
      this.sweepBy(deadline);
      if (!this.down) this.outbox.add(() => this.send(token));
    });
  }

  /** Publishes a pending request, unless it has failed, timed out or left already, or the connection is down. */
  private send(token: string): void {
    const p = this.pending.get(token);
    if (!p?.unsent || this.down) return;
    const { subject, data } = p.unsent;
    p.unsent = undefined;
    try {
      this.nc.publish(subject, data, { reply: `${this.subject}.${token}` });
    } catch (err) {
      this.pending.delete(token);
      p.reject(err as Error);
    }
  }

  private disconnected(): void {
    this.down = true;
    const lost = new RequestFailure('DISCONNECTED');
    for (const [token, p] of this.pending) {
      if (p.unsent) continue;
      this.pending.delete(token);
      p.reject(lost);
    }
    if (this.pending.size === 0) this.stopSweeper();
  }

  private reconnected(): void {
    this.down = false;
    for (const [token, p] of this.pending) if (p.unsent) this.outbox.add(() => this.send(token));
  }

  /** Requests still waiting (for tests and shutdown). */
  get size(): number {
    return this.pending.size;
  }

  /** Sends the requests still queued for the end of this event-loop iteration (before the connection drains). */
  flush(): void {
    this.outbox.flush();
  }

  close(): void {
    this.outbox.flush();
    this.stopSweeper();
    this.subscription.unsubscribe();
    this.lostSubscription.unsubscribe();
    this.failAll(new RequestFailure('CONNECTION_CLOSED'));
  }

  /**
   * The subscription ended with an error: every pending request and every later one fails at once as the bus being
   * unavailable (503) rather than waiting for its deadline, and nothing reads the error's missing message.
   */
  private fail(): void {
    this.broken = true;
    this.failAll(new RequestFailure('CONNECTION_CLOSED'));
  }

  private deliver(msg: Msg): void {
    const token = msg.subject.slice(this.subject.length + 1);
    const p = this.pending.get(token);
    if (!p) return; // a reply after its deadline
    this.pending.delete(token);
    if (this.pending.size === 0) this.stopSweeper();
    if (msg.data.length === 0 && msg.headers?.code === 503) p.reject(new RequestFailure('503'));
    else p.resolve(msg);
  }

  /** Its responder lost the connection the request came in on: no reply will come. */
  private lost(token: string): void {
    const p = this.pending.get(token);
    if (!p || p.unsent) return;
    this.pending.delete(token);
    if (this.pending.size === 0) this.stopSweeper();
    p.reject(new RequestFailure('REPLY_LOST'));
  }

  /** The timer fires by `deadline` (it is moved earlier when need be, never later). */
  private sweepBy(deadline: number): void {
    if (this.sweeper && this.sweepAt <= deadline) return;
    this.stopSweeper();
    this.sweepAt = deadline;
    this.sweeper = setTimeout(
      () => {
        this.sweeper = undefined;
        this.sweepAt = Infinity;
        this.sweep(Date.now());
      },
      Math.max(0, deadline - Date.now()),
    );
    this.sweeper.unref();
  }

  /** Fails the requests past their deadline, and sets the timer for the earliest of the others. */
  private sweep(now: number): void {
    let next = Infinity;
    for (const [token, p] of this.pending) {
      if (p.deadline > now) {
        next = Math.min(next, p.deadline);
        continue;
      }
      this.pending.delete(token);
      p.reject(new RequestFailure(p.unsent && this.down ? 'DISCONNECTED' : 'TIMEOUT'));
    }
    if (next !== Infinity) this.sweepBy(next);
  }

  private stopSweeper(): void {
    if (this.sweeper) clearTimeout(this.sweeper);
    this.sweeper = undefined;
    this.sweepAt = Infinity;
  }

  private failAll(err: Error): void {
    this.stopSweeper();
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}
