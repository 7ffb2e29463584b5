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
