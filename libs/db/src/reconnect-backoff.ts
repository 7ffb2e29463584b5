const FIRST_MS = 250;
const MAX_MS = 30_000;

/**
 * When a connection of its own (a LISTEN session, an advisory lock's holder) is opened again after it was lost or
 * could not be opened: after 250 ms, a pause that doubles with each failure since it last connected, up to 30 s, so
 * a database that is down is not hammered and one that is back is found soon. One attempt is pending at a time; the
 * timer does not keep the process alive.
 */
export class ReconnectBackoff {
  private failures = 0;
  private timer?: NodeJS.Timeout;
  private stopped = false;

  /** `reconnect` opens the connection again; it reports back with connected() or another later(). */
  constructor(private readonly reconnect: () => void) {}

  /** The connection is up: the next loss waits the shortest pause again. */
  connected(): void {
    this.failures = 0;
  }

  /** Reconnects after the pause (nothing if an attempt is already pending, or after stop()). */
  later(): void {
    if (this.stopped || this.timer) return;
    const delay = Math.min(MAX_MS, FIRST_MS * 2 ** Math.min(this.failures++, 10));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.reconnect();
    }, delay);
    this.timer.unref();
  }

  /** No more attempts (the process is shutting down). */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
