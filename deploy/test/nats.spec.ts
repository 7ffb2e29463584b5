/**
 * NATS: the Helm values (3-node JetStream cluster on file storage, one nkey user per service, public keys from a
 * Secret, no password) and, against a real nats-server started with the values' account block, every publish and
 * subscribe grant and denial of every service, plus the request-reply paths the services use.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { connect, nkeyAuthenticator, nkeys, StringCodec, type NatsConnection } from 'nats';
import { parse, parseAllDocuments } from 'yaml';
import { loadObjects, type K8sObject } from './support/kustomize';
import { validateAgainstSchema } from './support/k8s-schema';
import { APP_NAMES, DEPLOY, K8S, readText, selects, type AppName, type LabelSelector } from './support/workspace';

interface Permissions {
  publish?: { allow?: string[]; deny?: string[] };
  subscribe?: { allow?: string[]; deny?: string[] };
  allow_responses?: boolean;
}
/** A user of the values: an nkey (a variable), or (the live test's witness only) a user and password. */
interface NatsUser {
  nkey?: string;
  user?: string;
  password?: string;
  permissions?: Permissions;
}
interface Values {
  config: {
    cluster: { enabled: boolean; replicas: number };
    nats?: { tls?: { enabled?: boolean; secretName?: string } };
    jetstream: { enabled: boolean; fileStore: { enabled: boolean; pvc: { enabled: boolean; size: string } }; memoryStore: { enabled: boolean } };
    merge: { system_account: string; accounts: Record<string, { jetstream?: string; users: NatsUser[] }> };
  };
  container: { env: Record<string, string | { valueFrom: { secretKeyRef: { name: string; key: string } } }> };
  podDisruptionBudget: { enabled: boolean };
  podTemplate: { topologySpreadConstraints: Record<string, { maxSkew: number; whenUnsatisfiable: string }> };
}

interface CertManagerObject {
  kind: string;
  metadata: { name: string };
  spec: { secretName?: string; isCA?: boolean; dnsNames?: string[]; issuerRef?: { name: string }; ca?: { secretName: string } };
}

const values = (): Values => parse(readText('deploy/nats/values.yaml')) as Values;
const coffer = (): NatsUser[] => values().config.merge.accounts['COFFER']?.users ?? [];
const VAR = /^<< \$([A-Z][A-Z0-9_]*) >>$/;
/** The variable that carries a user's public key: NATS_<USER>_NKEY (NATS_GATEWAY_NKEY, NATS_EVENTS_READER_NKEY, …). */
const nkeyVariable = (user: string) => `NATS_${user.toUpperCase().replace(/-/g, '_')}_NKEY`;
/** Which user a values entry is: the one its nkey variable names. */
function userOf(u: NatsUser): string {
  const variable = VAR.exec(u.nkey ?? '')?.[1] ?? '';
  return /^NATS_([A-Z0-9_]+)_NKEY$/.exec(variable)?.[1]?.toLowerCase().replace(/_/g, '-') ?? String(u.user);
}
/** Not a service: the identity of an event consumer (docs/events.md). */
const EVENTS_READER = 'events-reader';
const EVENTS_STREAM_API = /^\$JS\.(API\.(STREAM|CONSUMER)\.[A-Z.]+\.COFFER_EVENTS(\.>)?|ACK\.COFFER_EVENTS\.>)$/;

/** What each service does on the bus (from the apps' contracts), independent of values.yaml. */
const SUBJECT = {
  token: 'token.tokens.get.v1',
  sessionAuth: 'session.auth.authenticate.v1',
  sessionPrincipal: 'session.applications.principal.v1',
  sessionWebhookSecret: 'session.tenants.webhook-secret.get.v1',
  sessionTenant: 'session.tenants.get.v1',
  reactor: 'reactor.reactors.react.v1',
  reactorJobsWake: 'reactor.jobs.wake.v1',
  webhook: 'webhook.deliveries.wake.v1',
  proxy: 'proxy.requests.invoke.v1',
  detokenize: 'token.tokens.detokenize.v1',
  auditRecord: 'token.audit.record.v1',
  proxyResolve: 'reactor.proxies.resolve.v1',
  proxyTransform: 'reactor.proxies.transform.v1',
  proxyIdempotency: 'reactor.proxies.idempotency.v1',
  event: 'events.auth.invalidated.v1',
  proxyChanged: 'events.proxies.changed.v1',
  settingsChanged: 'events.tenants.settings-changed.v1',
  inbox: '_INBOX.probe.reply',
  gatewayInbox: '_INBOX.gateway.probe.reply',
  tokenInbox: '_INBOX.token-service.probe.reply',
  reactorInbox: '_INBOX.reactor-service.probe.reply',
  webhookInbox: '_INBOX.webhook-dispatcher.probe.reply',
  proxyInbox: '_INBOX.proxy-service.probe.reply',
  // a responder's notice that a reply is lost with its connection (libs/bus lost-replies.ts), to each caller's inbox
  gatewayLost: 'rpc.lost._INBOX.gateway.probe.reply',
  tokenLost: 'rpc.lost._INBOX.token-service.probe.reply',
  reactorLost: 'rpc.lost._INBOX.reactor-service.probe.reply',
  webhookLost: 'rpc.lost._INBOX.webhook-dispatcher.probe.reply',
  proxyLost: 'rpc.lost._INBOX.proxy-service.probe.reply',
  other: 'billing.invoices.create.v1',
  jetstream: '$JS.API.INFO',
} as const;
type Probe = keyof typeof SUBJECT;
const PROBES = Object.keys(SUBJECT) as Probe[];

/** Every responder may tell any caller that a reply is lost: it learns the reply subject from the request. */
const LOST_NOTICES: Probe[] = ['gatewayLost', 'tokenLost', 'reactorLost', 'webhookLost', 'proxyLost'];

const MAY_PUBLISH: Record<AppName, Probe[]> = {
  gateway: [
    'token',
    'detokenize',
    'auditRecord',
    'sessionAuth',
    'sessionPrincipal',
    'sessionWebhookSecret',
    'sessionTenant',
    'reactor',
    'reactorJobsWake',
    'proxy',
    'proxyResolve',
    'proxyTransform',
    'proxyIdempotency',
  ],
  // session.tenants.get.v1: the tenant's settings (deduplication) through TenantSettingsClient
  'token-service': ['sessionAuth', 'sessionPrincipal', 'sessionWebhookSecret', 'sessionTenant', 'event', 'proxyChanged', 'settingsChanged', ...LOST_NOTICES],
  // events.tenants.settings-changed.v1: a tenant's settings written (the services drop their cached settings)
  'session-service': ['event', 'proxyChanged', 'settingsChanged', ...LOST_NOTICES],
  // reactor.jobs.wake.v1: an EventBus wake-up of the job workers of every reactor-service replica
  // session.tenants.get.v1: the tenant's default egress rule (TenantSettingsClient)
  // events.proxies.changed.v1: a pre-configured proxy written (proxy-service drops its cached lookup)
  'reactor-service': ['token', 'detokenize', 'auditRecord', 'sessionPrincipal', 'sessionTenant', 'webhook', 'reactorJobsWake', 'proxyChanged', ...LOST_NOTICES],
  // the signing secret of a tenant's webhooks (dispatcher.service.ts)
  'webhook-dispatcher': ['sessionWebhookSecret', ...LOST_NOTICES],
  // a proxy request's expressions, detokenized as its caller (proxy-service detokenizer.ts), each call's audit event,
  // and a pre-configured proxy's lookup and transforms (reactor-service)
  'proxy-service': ['detokenize', 'auditRecord', 'proxyResolve', 'proxyTransform', 'proxyIdempotency', ...LOST_NOTICES],
};
/** A caller reads only its own replies: RpcClient's inbox prefix is _INBOX.<service> (libs/bus). */
const MAY_SUBSCRIBE: Record<AppName, Probe[]> = {
  gateway: ['gatewayInbox', 'gatewayLost', 'event', 'proxyChanged', 'settingsChanged'],
  'token-service': ['token', 'detokenize', 'auditRecord', 'tokenInbox', 'tokenLost', 'settingsChanged'],
  'session-service': ['sessionAuth', 'sessionPrincipal', 'sessionWebhookSecret', 'sessionTenant'],
  'reactor-service': ['reactor', 'reactorJobsWake', 'reactorInbox', 'reactorLost', 'proxyResolve', 'proxyTransform', 'proxyIdempotency', 'settingsChanged'],
  'webhook-dispatcher': ['webhook', 'webhookInbox', 'webhookLost'],
  'proxy-service': ['proxy', 'proxyInbox', 'proxyLost', 'proxyChanged'],
};
/** Services that answer requests on their own prefix (queue group = service name). */
const SERVES: Partial<Record<AppName, Probe[]>> = {
  'token-service': ['token', 'detokenize'],
  'session-service': ['sessionAuth', 'sessionPrincipal', 'sessionWebhookSecret', 'sessionTenant'],
  'reactor-service': ['reactor', 'proxyResolve', 'proxyTransform', 'proxyIdempotency'],
  'webhook-dispatcher': ['webhook'],
  'proxy-service': ['proxy'],
};

describe('deploy/nats/values.yaml', () => {
  it('runs a 3-node cluster with JetStream on file storage, a PDB and spread across nodes', () => {
    const v = values();
    expect(v.config.cluster).toEqual({ enabled: true, replicas: 3 });
    expect(v.config.jetstream.enabled).toBe(true);
    expect(v.config.jetstream.fileStore.enabled).toBe(true);
    expect(v.config.jetstream.fileStore.pvc.enabled).toBe(true);
    expect(v.config.jetstream.memoryStore.enabled).toBe(false);
    expect(v.podDisruptionBudget.enabled).toBe(true);
    expect(v.podTemplate.topologySpreadConstraints['kubernetes.io/hostname']?.whenUnsatisfiable).toBe('DoNotSchedule');
  });

  it('has one nkey user per service in one account, and each Deployment signs in with its own seed', () => {
    expect(coffer().map(userOf).sort()).toEqual([...APP_NAMES, EVENTS_READER].sort());
    for (const app of APP_NAMES) {
      const d = loadObjects(path.join(K8S, app, 'deployment.yaml'))[0] as unknown as {
        spec: { template: { spec: { containers: { env: { name: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[] }[] } } };
      };
      const env = d.spec.template.spec.containers[0]?.env ?? [];
      expect(env.find((e) => e.name === 'NATS_NKEY_SEED')?.valueFrom?.secretKeyRef).toEqual({ name: `${app}-secrets`, key: 'NATS_NKEY_SEED' });
    }
  });

  it('grants each service exactly the permissions of deploy/nats/permissions.json (what npm start and the tests run)', () => {
    const matrix = JSON.parse(readText('deploy/nats/permissions.json')) as Record<string, Permissions>;
    expect(Object.fromEntries(coffer().map((u) => [userOf(u), u.permissions]))).toEqual(matrix);
  });

  it('requires TLS from clients, with a certificate for the host the services dial', () => {
    const tls = values().config.nats?.tls;
    expect(tls?.enabled).toBe(true);
    const certificates = parseAllDocuments(readText('deploy/nats/certificate.yaml')).map((d) => d.toJSON() as CertManagerObject);
    const server = certificates.find((o) => o.kind === 'Certificate' && o.spec.secretName === tls?.secretName);
    expect(server?.spec.isCA).not.toBe(true);
    const issuer = certificates.find((o) => o.kind === 'Issuer' && o.metadata.name === server?.spec.issuerRef?.name);
    expect(issuer?.spec.ca?.secretName).toBeDefined();
    for (const app of APP_NAMES) {
      const d = loadObjects(path.join(K8S, app, 'deployment.yaml'))[0] as unknown as {
        spec: { template: { spec: { containers: { env: { name: string; value?: string }[] }[] } } };
      };
      const urls = (d.spec.template.spec.containers[0]?.env.find((e) => e.name === 'NATS_URL')?.value ?? '').split(',').map((u) => new URL(u));
      expect(urls.length).toBeGreaterThan(0);
      for (const url of urls) {
        expect({ app, protocol: url.protocol, covered: server?.spec.dnsNames?.includes(url.hostname) }).toEqual({ app, protocol: 'tls:', covered: true });
      }
    }
  });

  it('names every user by an nkey public key from a Secret through an environment variable: no password anywhere', () => {
    const v = values();
    const users = Object.values(v.config.merge.accounts).flatMap((a) => a.users);
    expect(readText('deploy/nats/values.yaml')).not.toMatch(/password/i);
    for (const u of users) {
      const user = userOf(u);
      expect({ user, keys: Object.keys(u).sort() }).toEqual({ user, keys: u.permissions ? ['nkey', 'permissions'] : ['nkey'] });
      const variable = VAR.exec(u.nkey ?? '')?.[1];
      expect({ user, variable }).toEqual({ user, variable: nkeyVariable(user) });
      expect({ user, env: v.container.env[variable as string] }).toEqual({
        user,
        env: { valueFrom: { secretKeyRef: { name: 'nats-coffer-users', key: user } } },
      });
    }
  });

  it('grants no wildcard-everything, and lets responders answer only through allow_responses', () => {
    for (const u of coffer()) {
      const p = u.permissions;
      const user = userOf(u);
      expect({ user, hasPermissions: Boolean(p?.publish && p.subscribe) }).toEqual({ user, hasPermissions: true });
      for (const list of [p?.publish?.allow ?? [], p?.subscribe?.allow ?? []]) {
        expect(list).not.toContain('>');
        expect(list).not.toContain('*');
        // JetStream API subjects: only those of the events stream (its publisher manages it, its reader consumes it)
        expect(list.filter((s) => s.startsWith('$') && !EVENTS_STREAM_API.test(s))).toEqual([]);
      }
      expect((p?.publish?.allow ?? []).filter((s) => s.startsWith('_INBOX'))).toEqual([]);
      expect(Boolean(p?.allow_responses)).toBe(Boolean(SERVES[user as AppName]));
    }
  });

  it('is written out in docs/nats.md, byte for byte', () => {
    expect(readText('docs/nats.md')).toContain(`\`\`\`yaml\n${readText('deploy/nats/values.yaml')}\`\`\``);
  });
});

describe('deploy/nats/networkpolicy.yaml', () => {
  it('admits clients only from Coffer namespaces, which the overlays label so', () => {
    const [policy] = loadObjects(path.join(DEPLOY, 'nats/networkpolicy.yaml')) as [K8sObject];
    validateAgainstSchema(policy);
    const rules = (policy as unknown as { spec: { ingress: { from: { namespaceSelector?: LabelSelector }[]; ports: { port: number }[] }[] } }).spec.ingress;
    const client = rules.filter((r) => r.ports.some((p) => p.port === 4222) && r.from.some((f) => f.namespaceSelector));
    expect(client).toHaveLength(1);
    const selector = client[0]?.from[0]?.namespaceSelector;
    for (const overlay of ['dev', 'production']) {
      const [ns] = loadObjects(path.join(K8S, 'overlays', overlay, 'namespace.yaml')) as [K8sObject];
      expect(selects(selector, ns.metadata.labels)).toBe(true);
    }
  });
});

// ------------------------------------------------------------------------------------ against a real server

function which(binary: string): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, binary);
    if (fs.existsSync(candidate)) return candidate;
  }
  for (const dir of ['/usr/sbin', '/usr/local/sbin']) if (fs.existsSync(path.join(dir, binary))) return path.join(dir, binary);
  return undefined;
}

const NATS_SERVER = which('nats-server');
if (!NATS_SERVER) {
  // Visible in the test output: the live permission tests need the nats-server binary (apt-get install nats-server).
  console.warn('nats-server not found on PATH: skipping the live NATS permission tests');
}
const describeLive = NATS_SERVER ? describe : describe.skip;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** A new user nkey, as docs/nats.md makes them: the seed for the service, the public key for the server. */
function newNkey(): { seed: Uint8Array; publicKey: string } {
  const user = nkeys.createUser();
  return { seed: user.getSeed(), publicKey: user.getPublicKey() };
}

const sc = StringCodec();
const settle = () => new Promise((r) => setTimeout(r, 150));

describeLive('NATS permissions, live (nats-server with the values’ accounts)', () => {
  let server: ChildProcess;
  let dir: string;
  let port: number;
  const seeds: Record<string, Uint8Array> = {};
  const conns = new Map<string, NatsConnection>();
  const conn = (user: string) => conns.get(user) as NatsConnection;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-nats-'));
    port = await freePort();
    const merge = structuredClone(values().config.merge);
    // A test-only user without restrictions, to observe what the others publish and to feed their subscriptions.
    merge.accounts['COFFER']?.users.push({ user: '__witness', password: 'witness' });
    const env: Record<string, string> = { ...process.env } as Record<string, string>;
    for (const account of Object.values(merge.accounts)) {
      for (const u of account.users) {
        const m = VAR.exec(u.nkey ?? '');
        if (!m) continue;
        const key = newNkey();
        seeds[userOf(u)] = key.seed;
        // the public key as the chart's variable carries it, unquoted into nats.conf
        env[m[1] as string] = key.publicKey;
      }
    }
    const body = JSON.stringify(merge, null, 2).replace(/"<< (.*?) >>"/g, '$1');
    const conf = [`port: ${port}`, `jetstream: { store_dir: ${JSON.stringify(path.join(dir, 'js'))} }`, body.slice(1, -1)].join('\n');
    fs.writeFileSync(path.join(dir, 'nats.conf'), conf);
    const log = fs.openSync(path.join(dir, 'nats.log'), 'w');
    server = spawn(NATS_SERVER as string, ['-a', '127.0.0.1', '-c', path.join(dir, 'nats.conf')], { env, stdio: ['ignore', log, log] });
    for (let i = 0; ; i++) {
      try {
        conns.set('__witness', await connect({ servers: `127.0.0.1:${port}`, user: '__witness', pass: 'witness', reconnect: false }));
        break;
      } catch (err) {
        if (i > 100 || server.exitCode !== null) {
          throw new Error(`nats-server did not start: ${(err as Error).message}\n${fs.readFileSync(path.join(dir, 'nats.log'), 'utf8')}`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    for (const app of APP_NAMES) {
      const nc = await connect({
        servers: `127.0.0.1:${port}`,
        authenticator: nkeyAuthenticator(seeds[app]),
        reconnect: false,
        name: app,
        inboxPrefix: `_INBOX.${app}`,
      });
      // Permission violations are reported on the status stream; keep it drained.
      void (async () => {
        for await (const _ of nc.status()) {
          /* drained */
        }
      })();
      conns.set(app, nc);
    }
  });

  afterAll(async () => {
    for (const nc of conns.values()) await nc.close().catch(() => undefined);
    server?.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses an nkey it does not list, a known user without its seed, and a password for a service name', async () => {
    const servers = `127.0.0.1:${port}`;
    await expect(connect({ servers, authenticator: nkeyAuthenticator(newNkey().seed), reconnect: false })).rejects.toThrow();
    await expect(connect({ servers, reconnect: false })).rejects.toThrow();
    await expect(connect({ servers, user: 'gateway', pass: 'wrong', reconnect: false })).rejects.toThrow();
  });

  it.each(APP_NAMES)('%s may publish exactly to its grants', async (app) => {
    const seen = new Set<string>();
    const tag = randomBytes(6).toString('hex');
    const sub = conn('__witness').subscribe('>', {
      callback: (_err, msg) => {
        if (sc.decode(msg.data) === tag) seen.add(msg.subject);
      },
    });
    await conn('__witness').flush();
    for (const probe of PROBES) conn(app).publish(SUBJECT[probe], sc.encode(tag));
    await conn(app).flush();
    await settle();
    sub.unsubscribe();
    const published = PROBES.filter((p) => seen.has(SUBJECT[p]));
    expect(published.sort()).toEqual([...MAY_PUBLISH[app]].sort());
  });

  it.each(APP_NAMES)('%s may subscribe exactly to its grants', async (app) => {
    const received = new Set<Probe>();
    const tag = randomBytes(6).toString('hex');
    const subs = PROBES.map((probe) =>
      conn(app).subscribe(SUBJECT[probe], {
        callback: (err, msg) => {
          if (!err && sc.decode(msg.data) === tag) received.add(probe);
        },
      }),
    );
    await conn(app).flush();
    await settle();
    for (const probe of PROBES) conn('__witness').publish(SUBJECT[probe], sc.encode(tag));
    await conn('__witness').flush();
    await settle();
    subs.forEach((s) => s.unsubscribe());
    expect([...received].sort()).toEqual([...MAY_SUBSCRIBE[app]].sort());
  });

  describe('request-reply and events, as the services use them', () => {
    beforeAll(async () => {
      for (const [app, probes] of Object.entries(SERVES) as [AppName, Probe[]][]) {
        for (const probe of probes) {
          conn(app).subscribe(SUBJECT[probe], {
            queue: app,
            callback: (err, msg) => {
              if (!err) msg.respond(sc.encode(`${app} answers ${sc.decode(msg.data)}`));
            },
          });
        }
        await conn(app).flush();
      }
    });

    const calls: [AppName, Probe, AppName][] = [
      ['gateway', 'token', 'token-service'],
      ['gateway', 'sessionAuth', 'session-service'],
      ['gateway', 'reactor', 'reactor-service'],
      ['token-service', 'sessionPrincipal', 'session-service'],
      ['reactor-service', 'token', 'token-service'],
      ['reactor-service', 'sessionPrincipal', 'session-service'],
      ['reactor-service', 'sessionTenant', 'session-service'],
      ['token-service', 'sessionTenant', 'session-service'],
      ['reactor-service', 'webhook', 'webhook-dispatcher'],
      ['webhook-dispatcher', 'sessionWebhookSecret', 'session-service'],
      ['gateway', 'proxy', 'proxy-service'],
      ['proxy-service', 'detokenize', 'token-service'],
    ];
    it.each(calls)('%s calls %s and %s answers', async (caller, probe, responder) => {
      const reply = await conn(caller).request(SUBJECT[probe], sc.encode('ping'), { timeout: 2000 });
      expect(sc.decode(reply.data)).toBe(`${responder} answers ping`);
    });

    const refused: [AppName, Probe][] = [
      ['webhook-dispatcher', 'token'],
      ['session-service', 'token'],
      ['token-service', 'reactor'],
      ['gateway', 'webhook'],
      ['reactor-service', 'sessionAuth'],
      ['webhook-dispatcher', 'sessionAuth'],
      ['proxy-service', 'token'],
      ['proxy-service', 'sessionAuth'],
      ['reactor-service', 'proxy'],
    ];
    it.each(refused)('%s cannot call %s', async (caller, probe) => {
      await expect(conn(caller).request(SUBJECT[probe], sc.encode('ping'), { timeout: 300 })).rejects.toThrow();
    });

    it('carries a request larger than the API body limit (1 MiB) plus its envelope', async () => {
      const body = 'x'.repeat(2 * 1024 * 1024);
      const reply = await conn('gateway').request(SUBJECT.token, sc.encode(body), { timeout: 5000 });
      expect(sc.decode(reply.data).length).toBe(`token-service answers `.length + body.length);
    });

    it('gateway receives the auth-invalidation event session-service publishes', async () => {
      const got = new Promise<string>((resolve) => {
        const sub = conn('gateway').subscribe('events.>', {
          callback: (err, msg) => {
            if (!err) {
              sub.unsubscribe();
              resolve(msg.subject);
            }
          },
        });
      });
      await conn('gateway').flush();
      conn('session-service').publish(SUBJECT.event, sc.encode('{}'));
      await expect(got).resolves.toBe(SUBJECT.event);
    });
  });
});
