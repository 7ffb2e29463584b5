import { nkeyAuthenticator, type ConnectionOptions } from 'nats';
import { loadNatsConfig, readNkeySeedFile, watchCertificateExpiry, type NatsNkey } from '@coffer/observability';

/**
 * Every connection a Coffer process opens to the bus: NATS_URL (comma list allowed), its own nkey seed
 * (NATS_NKEY_SEED_FILE or NATS_NKEY_SEED; or, on a bus of your own, NATS_USER/NATS_PASSWORD or NATS_TOKEN), and TLS
 * verified against NATS_TLS_CA_FILE (plus a client certificate for mutual TLS). Checked by the same rules as the rest
 * of the configuration (loadNatsConfig); reconnects forever.
 */
export function natsConnectionOptions(name: string): ConnectionOptions {
  const config = loadNatsConfig();
  const options: ConnectionOptions = {
    servers: [...config.natsServers],
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    waitOnFirstConnect: true,
    // a request would otherwise build an Error (a captured stack) just in case it fails: 8% of the gateway's CPU under
    // load (issue 14); a failure maps to a problem by its code (toCallError), the stack was never shown
    noAsyncTraces: true,
  };
  if (config.natsNkey) options.authenticator = nkeyAuthenticator(seedOf(config.natsNkey));
  if (config.natsUser !== undefined) {
    options.user = config.natsUser;
    options.pass = config.natsPassword;
  }
  if (config.natsToken !== undefined) options.token = config.natsToken;
  // with `tls` set the client refuses a server that does not offer TLS, and verifies its certificate against this CA
  // only (the files are read at each connect, so a rotated CA or client pair is picked up on reconnect)
  if (config.natsTls) {
    options.tls = { ...config.natsTls };
    // their expiry is a metric (coffer_tls_certificate_expiry_timestamp_seconds): an alert comes weeks before the bus refuses
    watchCertificateExpiry('nats_ca', config.natsTls.caFile);
    if (config.natsTls.certFile !== undefined) watchCertificateExpiry('nats_client', config.natsTls.certFile);
  }
  return options;
}

/**
 * The seed the authenticator signs the server's challenge with: a seed file is read again at each connect (a rotated
 * seed is picked up on reconnect, as the TLS files are). Held only as bytes, never logged.
 */
function seedOf(nkey: NatsNkey): () => Uint8Array {
  const encoder = new TextEncoder();
  if ('seed' in nkey) {
    const seed = encoder.encode(nkey.seed);
    return () => seed;
  }
  return () => encoder.encode(readNkeySeedFile(nkey.seedFile));
}
