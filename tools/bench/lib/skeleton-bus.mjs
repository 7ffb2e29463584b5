// How a process of the topology floor (lib/skeleton.mjs) connects to its nats-server: as a Coffer service does
// (libs/bus nats-config.ts), over TLS verified against the bus's CA, signing in with a service's nkey seed.
import fs from 'node:fs';
import { connect, nkeyAuthenticator } from 'nats';

export function connectAs(inboxPrefix) {
  const seed = new TextEncoder().encode(fs.readFileSync(process.env.NATS_NKEY_SEED_FILE, 'utf8').trim());
  return connect({
    servers: process.env.NATS_URL,
    tls: { caFile: process.env.NATS_TLS_CA_FILE },
    authenticator: nkeyAuthenticator(seed),
    inboxPrefix,
    noAsyncTraces: true,
  });
}

/**
 * Runs what is queued in one event-loop iteration together at its end (setImmediate), as libs/bus PublishBatch does
 * Coffer's requests and replies: nats.js then writes the messages published in that one synchronous run to its
 * socket at once, one write(2) for all, where sends made from separate promise continuations cost one each.
 */
export function atIterationEnd() {
  let queued = [];
  const run = () => {
    const sends = queued;
    queued = [];
    for (const send of sends) send();
  };
  return (send) => {
    if (queued.push(send) === 1) setImmediate(run);
  };
}
