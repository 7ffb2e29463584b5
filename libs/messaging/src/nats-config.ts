import type { ConnectionOptions } from 'nats';

/** NATS_URL (comma list allowed), optional NATS_USER/NATS_PASSWORD or NATS_TOKEN. Reconnects forever. */
export function natsConnectionOptions(name: string): ConnectionOptions {
  const servers = (process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222').split(',').map((s) => s.trim());
  const options: ConnectionOptions = {
    servers,
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    waitOnFirstConnect: true,
    // a request would otherwise build an Error (a captured stack) just in case it fails: 8% of the gateway's CPU under
    // load (issue 14); a failure maps to a problem by its code (toCallError), the stack was never shown
    noAsyncTraces: true,
  };
  if (process.env['NATS_USER']) {
    options.user = process.env['NATS_USER'];
    options.pass = process.env['NATS_PASSWORD'];
  }
  if (process.env['NATS_TOKEN']) options.token = process.env['NATS_TOKEN'];
  return options;
}
