import type { NatsConnection } from 'nats';

/** The nats.js 2.x protocol handler internals this relies on (checked at run time). */
interface ProtocolInternals {
  flushPending(): void;
  close(): Promise<void>;
}

const coalesced = new WeakSet<object>();

/**
 * nats.js writes its outbound buffer to the socket in a microtask after each publish, so every request the gateway
 * forwards (and every reply a service sends) costs its own write(2): under load a third of the gateway's CPU went to
 * those syscalls (issue 14's profiles). This defers the write to the end of the event loop's current iteration
 * (setImmediate): the messages of all requests handled in one iteration leave in one write, in the order they were
 * published. An idle process still writes at once (the iteration ends right away). A close flushes first, so nothing
 * published before it is lost.
 *
 * Returns false, changing nothing, when the connection does not have the expected shape (another nats version).
 */
export function coalesceWrites(nc: NatsConnection): boolean {
  const protocol = (nc as unknown as { protocol?: ProtocolInternals }).protocol;
  if (!protocol || typeof protocol.flushPending !== 'function' || typeof protocol.close !== 'function') return false;
  if (coalesced.has(protocol)) return true;
  coalesced.add(protocol);
  const flushNow = protocol.flushPending.bind(protocol);
  const close = protocol.close.bind(protocol);
  let scheduled = false;
  protocol.flushPending = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      flushNow();
    });
  };
  protocol.close = () => {
    flushNow();
    return close();
  };
  return true;
}
