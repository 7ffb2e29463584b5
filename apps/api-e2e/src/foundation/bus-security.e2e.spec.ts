import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { JSONCodec, connect, nkeyAuthenticator, nkeys, type ConnectionOptions, type NatsConnection, type NatsError } from 'nats';

/**
 * The bus of the running system is the production one (tools/dev/nats-bus.mjs renders deploy/nats/permissions.json
 * into the same server the services use): TLS is required, every service is its own nkey user, and a user reaches
 * only the subjects its service serves and calls. Checked here against that very server, with the services listening.
 */
const url = process.env['COFFER_E2E_NATS_URL'] as string;
const dir = process.env['COFFER_E2E_NATS_DIR'] as string;
const caFile = path.join(dir, 'tls', 'ca.pem');
/** a service's nkey seed, from the file its NATS_NKEY_SEED_FILE names */
const seed = (user: string): Uint8Array => new TextEncoder().encode(fs.readFileSync(path.join(dir, 'nkeys', `${user}.nk`), 'utf8').trim());
const codec = JSONCodec();

/** connects as `user` (its own seed, or the one given), or with no credentials at all */
function as(user: string | undefined, withSeed?: Uint8Array, extra: Partial<ConnectionOptions> = {}): Promise<NatsConnection> {
  return connect({
    servers: url,
    tls: { caFile },
    reconnect: false,
    timeout: 5000,
    ...(user ? { authenticator: nkeyAuthenticator(withSeed ?? seed(user)) } : {}),
    ...extra,
  });
}

/** the error a subscription gets from the server, or null when it was accepted (none within 3 s) */
function subscribeError(nc: NatsConnection, subject: string): Promise<NatsError | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), 3000);
    nc.subscribe(subject, {
      callback: (e) => {
        clearTimeout(timer);
        resolve(e);
      },
    });
  });
}

/** a request as RpcClient sends it: the real service answers, with a problem here (no principal), which is enough */
const envelope = (_subject: string) => codec.encode({ traceId: randomUUID(), body: {}, timeoutMs: 3000 });

describe('the bus: TLS and one NATS user per service', () => {
  const open: NatsConnection[] = [];
  afterAll(async () => {
    await Promise.all(open.map((nc) => nc.close().catch(() => undefined)));
  });

  it('is a tls:// URL', () => {
    expect(url).toMatch(/^tls:\/\/127\.0\.0\.1:\d+$/);
  });

  it('refuses a client without credentials', async () => {
    await expect(as(undefined)).rejects.toMatchObject({ code: 'AUTHORIZATION_VIOLATION' });
  });

  it('refuses an nkey that is not one of its users, and a service name with no seed or with a password', async () => {
    await expect(as('token-service', nkeys.createUser().getSeed())).rejects.toMatchObject({ code: 'AUTHORIZATION_VIOLATION' });
    await expect(connect({ servers: url, tls: { caFile }, reconnect: false, timeout: 5000, user: 'token-service' })).rejects.toMatchObject({
      code: 'AUTHORIZATION_VIOLATION',
    });
    await expect(
      connect({
        servers: url,
        tls: { caFile },
        reconnect: false,
        timeout: 5000,
        user: 'token-service',
        pass: fs.readFileSync(path.join(dir, 'nkeys', 'token-service.nk'), 'utf8').trim(),
      }),
    ).rejects.toMatchObject({ code: 'AUTHORIZATION_VIOLATION' });
  });

  it("the server's configuration names users by public key only: no password, no seed", () => {
    const conf = fs.readFileSync(path.join(dir, 'nats.conf'), 'utf8');
    expect(conf).not.toMatch(/password|"pass"|\buser\s*:/i);
    expect(conf).not.toMatch(/\bSU[A-Z2-7]{56}\b/);
    for (const user of ['gateway', 'token-service', 'session-service', 'reactor-service', 'webhook-dispatcher', 'proxy-service', 'events-reader']) {
      const publicKey = nkeys.fromSeed(seed(user)).getPublicKey();
      expect({ user, listed: conf.includes(`"nkey": "${publicKey}"`) }).toEqual({ user, listed: true });
      // the seed file is the service's alone
      expect((fs.statSync(path.join(dir, 'nkeys', `${user}.nk`)).mode & 0o077).toString(8)).toBe('0');
    }
  });

  it('refuses a client that does not trust the local CA (the certificate is not publicly trusted)', async () => {
    await expect(connect({ servers: url, authenticator: nkeyAuthenticator(seed('gateway')), reconnect: false, timeout: 5000 })).rejects.toThrow(/certificate/i);
  });

  it('refuses a plain-text connection, even with valid credentials', async () => {
    const { port } = new URL(url);
    const received = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1');
      let text = '';
      let sent = false;
      socket.setTimeout(5000, () => reject(new Error(`the server kept a plain-text connection open: ${text}`)));
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
        if (!sent && text.includes('\r\n')) {
          sent = true;
          // an nkey needs the server's nonce signed: a plain-text CONNECT with the public key stands for any credentials
          socket.write(`CONNECT ${JSON.stringify({ nkey: nkeys.fromSeed(seed('gateway')).getPublicKey(), verbose: false })}\r\nPING\r\n`);
        }
      });
      socket.on('close', () => resolve(text));
      socket.on('error', () => resolve(text));
    });
    const info = JSON.parse(/^INFO (.*)\r\n/.exec(received)?.[1] ?? '{}') as { tls_required?: boolean };
    expect(info.tls_required).toBe(true);
    expect(received).not.toContain('PONG');
  });

  describe("token-service's credentials", () => {
    let nc: NatsConnection;
    beforeAll(async () => {
      // its own inbox prefix, as RpcClient's: a refused request is then refused for its subject, not for its inbox
      nc = await as('token-service', undefined, { inboxPrefix: '_INBOX.token-service' });
      open.push(nc);
    });

    it.each(['session.>', 'session.auth.authenticate.v1', 'reactor.>', 'events.>'])('cannot subscribe to %s', async (subject) => {
      expect((await subscribeError(nc, subject))?.code).toBe('PERMISSIONS_VIOLATION');
    });

    it.each(['reactor.reactors.react.v1', 'reactor.formulas.list.v1', 'webhook.deliveries.wake.v1', 'token.tokens.get.v1'])(
      'cannot publish to %s',
      async (subject) => {
        await expect(nc.request(subject, envelope(subject), { timeout: 3000 })).rejects.toMatchObject({
          code: 'PERMISSIONS_VIOLATION',
          message: expect.stringContaining(`Publish to "${subject}"`),
        });
      },
    );
  });

  it("gateway's credentials call token-service, which answers", async () => {
    const nc = await as('gateway', undefined, { inboxPrefix: '_INBOX.gateway' });
    open.push(nc);
    const subject = 'token.tokens.get.v1';
    const reply = codec.decode((await nc.request(subject, envelope(subject), { timeout: 5000 })).data) as { problem?: { status?: number }; ok?: unknown };
    // the service received and judged it: no principal, so a problem, not a permission error or a timeout
    expect(reply.problem?.status).toBe(401);
  });

  it("gateway's credentials cannot read another caller's replies (reactor-service's carry detokenized values)", async () => {
    const nc = await as('gateway');
    open.push(nc);
    for (const subject of ['_INBOX.>', '_INBOX.reactor-service.>', '_INBOX.token-service.abc.1']) {
      expect({ subject, code: (await subscribeError(nc, subject))?.code }).toEqual({ subject, code: 'PERMISSIONS_VIOLATION' });
    }
  });

  it("reactor-service's credentials cannot call session-service beyond the application lookup", async () => {
    const nc = await as('reactor-service', undefined, { inboxPrefix: '_INBOX.reactor-service' });
    open.push(nc);
    await expect(nc.request('session.auth.authenticate.v1', envelope('session.auth.authenticate.v1'), { timeout: 3000 })).rejects.toMatchObject({
      code: 'PERMISSIONS_VIOLATION',
      message: expect.stringContaining('Publish to "session.auth.authenticate.v1"'),
    });
  });
});
