import { Events, type NatsConnection } from 'nats';

/**
 * Sends queued by any code in one event-loop iteration, made together at its end (setImmediate).
 *
 * nats.js writes its outbound buffer to the socket in a microtask after the first publish that found it empty, so
 * publishes made in one synchronous run share a write, but the requests and replies of concurrent operations (each in
 * its own promise continuation) each cost a write(2): under load a third of the gateway's CPU went to those syscalls
 * (issue 14's profiles). Queuing them here and publishing them in one synchronous run at the end of the iteration
 * makes them one write, through nats.js's public publish/respond only. An idle process still sends at once (the
 * iteration ends right away); the order of sends is kept.
 */
export class PublishBatch {
  private queue: Array<() => void> = [];
  private scheduled = false;
  /** the followed connection has lost its server and not reconnected yet: sends wait */
  private down = false;

  /**
   * Holds the sends while `nc` has lost its server, and makes them once it has reconnected: nats.js 2 discards what is
   * published between a lost connection and its next dial (each dial resets its outbound buffer). Only for sends that
   * are bounded while the connection is down (a service's replies: no request arrives then).
   */
  followConnection(nc: Pick<NatsConnection, 'status'>): this {
    void (async () => {
      for await (const status of nc.status()) {
        if (status.type === Events.Disconnect) this.down = true;
        else if (status.type === Events.Reconnect) {
          this.down = false;
          this.schedule();
        }
      }
    })().catch(() => undefined);
    return this;
  }

  /** `send` publishes, and handles its own failure if it cares: it runs later, outside the caller's stack. */
  add(send: () => void): void {
    this.queue.push(send);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.down || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(this.sendQueued);
  }

  private readonly sendQueued = (): void => {
    this.scheduled = false;
    if (!this.down) this.flush();
  };

  /** Sends what is queued now, connected or not (before a connection drains or closes, so nothing queued is kept). */
  readonly flush = (): void => {
    const queue = this.queue;
    this.queue = [];
    for (const send of queue) {
      try {
        send();
      } catch {
        // a send that throws (the connection closed under it) must not lose the others; its caller sees its deadline
      }
    }
  };
}
