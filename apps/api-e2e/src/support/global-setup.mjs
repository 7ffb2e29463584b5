// Starts the whole system once for the end-to-end run (tools/dev/system.mjs: a throwaway database dropped in
// teardown, a private nats-server with JetStream, the six built services). Tests talk to it only over HTTP, plus a
// small loopback control endpoint to stop and start services (outage tests).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort, startEphemeralSystem } from '../../../../tools/dev/system.mjs';
import { createTestCa } from '../../../../tools/dev/test-ca.mjs';
// a plain ES module Node loads as it is (Jest's global setup is not compiled, so no @coffer/ alias resolves here)
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startTestProvider } from '../../../../libs/testing/src/oidc/test-provider.mjs';

/** the services' and the operator CLI's DATA_KEY_REFRESH_MS: they must agree (docs/keys-rotation.md) */
const DATA_KEY_REFRESH_MS = '2000';

export default async function globalSetup() {
  const logDir = path.join(process.cwd(), 'tmp', 'e2e-logs');
  // events/webhooks.e2e: the notice of a disabled webhook goes to an SMTP server that test starts on this port
  const smtpPort = await freePort();
  // the proxy's test destinations: local HTTPS servers with a certificate of this CA, which the services trust
  const proxyTlsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-e2e-ca-'));
  const testCa = createTestCa(proxyTlsDir);
  const sys = await startEphemeralSystem({
    logDir,
    env: {
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      SESSION_SWEEP_INTERVAL_MS: '1000',
      TOKEN_SWEEP_INTERVAL_MS: '1000',
      ALLOW_PRIVATE_CALLBACKS: 'true',
      // reactor egress e2e (reactors/egress-policy): the loopback test server stands for an operator-exempted host
      // the proxy's destinations (proxy/*): `localhost`, a DNS name (the proxy refuses IP literals) exempted the same way
      EGRESS_ALLOW_HOSTS: '127.0.0.1,localhost',
      NODE_EXTRA_CA_CERTS: testCa.caCert,
      // hostile destinations (proxy/hostile-destinations): a slow one answers 408 in 2 s, not the default 25 s
      PROXY_DESTINATION_TIMEOUT_MS: '2000',
      // proxy/tenant-shares: proxy-service's own budget below the gateway's (64, 32 a tenant), so its share is what refuses
      PROXY_MAX_IN_FLIGHT: '32',
      HEADER_ALIAS_PREFIXES: 'BT',
      WEBHOOK_RETRY_SCHEDULE: '200ms,400ms,800ms',
      REACTOR_JOB_LEASE_SLACK_MS: '2000',
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      SMTP_FROM: 'Coffer e2e <coffer@example.test>',
      RETENTION_INTERVAL_MS: '1000',
      // keys/*, tokens/key-rotation: services see a rotation within 2 s, so `keys reencrypt` waits 7 s after one, not 65
      DATA_KEY_REFRESH_MS,
      // console/console-session: an idle timeout short enough to test, long enough for the browser tests' pauses
      CONSOLE_IDLE_TIMEOUT_MS: '30000',
      // console/console-session: sign-ins of every test file come from one address; the limit test makes 31 at once
      CONSOLE_SIGN_IN_LIMIT: '30/10s',
      // members/*: single sign-on through the suite's own OpenID provider (started below, once the console's port is known)
      OIDC_CLIENT_ID: 'coffer-console',
      OIDC_CLIENT_SECRET: 'e2e-client-secret',
      OIDC_PROVIDER_NAME: 'Test IdP',
    },
    // the provider must know the console's redirect URI, and the gateway the provider's address, before it starts
    beforeServices: async (sys) => {
      sys.oidc = await startTestProvider({
        clients: [
          {
            client_id: 'coffer-console',
            client_secret: 'e2e-client-secret',
            redirect_uris: [`http://127.0.0.1:${sys.consolePort}/console/oidc/callback`],
          },
        ],
        accounts: [],
      });
      sys.env.OIDC_ISSUER = sys.oidc.issuer;
      // session-service writes the console's address into invitation links
      sys.env.CONSOLE_URL = `http://127.0.0.1:${sys.consolePort}`;
    },
  });
  globalThis.__COFFER_E2E__ = sys;
  sys.proxyTlsDir = proxyTlsDir;

  // POST /stop/<service>[?signal=SIGKILL], POST /start/<service>, POST /replica/<service> (a second instance, its
  // ports answered as {port, consolePort}; stopped again by POST /stop-replicas/<service>), POST /pause/<service> and
  // /resume/<service> (SIGSTOP/SIGCONT)
  const replicas = new Map();
  const control = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const [, action, name] = url.pathname.split('/');
    if (!sys.ports[name] || !['stop', 'start', 'replica', 'stop-replicas', 'pause', 'resume'].includes(action)) return res.writeHead(404).end();
    try {
      if (action === 'stop') await sys.stopService(name, url.searchParams.get('signal') ?? 'SIGTERM');
      else if (action === 'start') await sys.startService(name);
      else if (action === 'pause') sys.signalService(name, 'SIGSTOP');
      else if (action === 'resume') sys.signalService(name, 'SIGCONT');
      else if (action === 'replica') {
        replicas.set(name, [...(replicas.get(name) ?? []), await sys.startReplica(name)]);
        const { port, consolePort } = sys.replicas.at(-1);
        return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ port, consolePort }));
      } else for (const stop of replicas.get(name) ?? []) await stop();
      res.writeHead(204).end();
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
  const controlPort = await freePort();
  await new Promise((r) => control.listen(controlPort, '127.0.0.1', r));
  sys.control = control;

  Object.assign(process.env, {
    // the operator CLI runs from the test files (and the HSM suite's own system starts from them) with this setting
    DATA_KEY_REFRESH_MS,
    COFFER_E2E_URL: sys.url,
    // the console's own origin (the gateway's CONSOLE_PORT)
    COFFER_E2E_CONSOLE_URL: sys.consoleUrl,
    // the Elements fields' own origin (the gateway's ELEMENTS_PORT)
    COFFER_E2E_ELEMENTS_URL: sys.elementsUrl,
    COFFER_E2E_DATABASE_URL: sys.databaseUrl,
    COFFER_E2E_KEK: sys.env.KEY_ENCRYPTION_KEYS,
    COFFER_E2E_CONTROL: `http://127.0.0.1:${controlPort}`,
    COFFER_E2E_LOG_DIR: logDir,
    COFFER_E2E_HEALTH_PORTS: JSON.stringify(sys.ports),
    COFFER_E2E_METRICS_PORTS: JSON.stringify(sys.metricsPorts),
    // the bus the services use (foundation/bus-security): its URL, and the directory with its CA and users.json
    COFFER_E2E_NATS_URL: sys.env.NATS_URL,
    COFFER_E2E_NATS_DIR: sys.bus.dir,
    COFFER_E2E_SMTP_PORT: String(smtpPort),
    // ca.pem, server.pem and server.key of the proxy's test destinations (tools/dev/test-ca.mjs)
    COFFER_E2E_PROXY_TLS_DIR: proxyTlsDir,
    // the suite's OpenID provider: its issuer and its test control endpoint (accounts, tampering, headless sign-in)
    COFFER_E2E_OIDC_ISSUER: sys.oidc.issuer,
    COFFER_E2E_OIDC_CONTROL: sys.oidc.control,
  });
}

export async function stopAll() {
  const sys = globalThis.__COFFER_E2E__;
  if (!sys) return;
  sys.control?.close();
  await sys.stop();
  await sys.oidc?.stop();
  if (sys.proxyTlsDir) fs.rmSync(sys.proxyTlsDir, { recursive: true, force: true });
}
