import { randomBytes } from 'node:crypto';
import type { Msg, NatsConnection, Subscription } from 'nats';
import { PublishBatch } from './publish-batch';

/** Why a request got no reply; RpcClient turns these into 504 and 503. */
export class RequestFailure extends Error {
  constructor(readonly code: 'TIMEOUT' | '503' | 'CONNECTION_CLOSED') {
    super(code === 'TIMEOUT' ? 'timeout' : code === '503' ? 'no responders' : 'connection closed');
  }
}

interface Pending {
  resolve: (msg: Msg) => void;
  reject: (err: Error) => void;
  deadline: number;
}

/** How often deadlines are checked: a late request fails at most this much after its deadline. */
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
 */
export class ReplyInbox {
  private readonly subject: string;
  private readonly pending = new Map<string, Pending>();
  private readonly subscription: Subscription;
  /** set for the earliest pending deadline (`sweepAt`), only while requests are pending */
  private sweeper?: NodeJS.Timeout;
  private sweepAt = Infinity;
  /** the requests of one event-loop iteration leave in one socket write */
  private readonly outbox = new PublishBatch();
  private seq = 0;
  /** The reply subscription failed (the server refused it: a permissions error): no reply can ever arrive. */
  private broken = false;

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
    void nc.closed().then(() => this.failAll(new RequestFailure('CONNECTION_CLOSED')));
  }

  request(subject: string, data: Uint8Array, timeoutMs: number): Promise<Msg> {
    const token = (this.seq = (this.seq + 1) % Number.MAX_SAFE_INTEGER).toString(36);
    if (this.broken) return Promise.reject(new RequestFailure('CONNECTION_CLOSED'));
    return new Promise<Msg>((resolve, reject) => {
      const deadline = Date.now() + timeoutMs;
      this.pending.set(token, { resolve, reject, deadline });
      this.sweepBy(deadline);
      this.outbox.add(() => {
        if (!this.pending.has(token)) return; // failed or timed out before it left
        try {
          this.nc.publish(subject, data, { reply: `${this.subject}.${token}` });
        } catch (err) {
          this.pending.delete(token);
          reject(err);
        }
      });
    });
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
      p.reject(new RequestFailure('TIMEOUT'));
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
