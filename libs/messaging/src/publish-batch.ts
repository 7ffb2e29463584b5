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

  /** `send` publishes, and handles its own failure if it cares: it runs later, outside the caller's stack. */
  add(send: () => void): void {
    this.queue.push(send);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.flush);
  }

  /** Sends what is queued now (before a connection drains or closes, so nothing queued is lost). */
  readonly flush = (): void => {
    this.scheduled = false;
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
