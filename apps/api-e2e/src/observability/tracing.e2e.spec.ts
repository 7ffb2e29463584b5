import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { api, apiRaw, createTenant, type TestTenant } from '@coffer/testing';
import { SystemDriver } from '../support/system-driver';
import { Destination, proxy } from '../proxy/support';
import { Receiver } from '../events/support';
import { formulaCode } from '../reactors/support';

// OpenTelemetry end to end: a Coffer of its own with tracing on (the suite's runs without, the default), exporting
// OTLP/HTTP (JSON) to a receiver in this file; every trace is followed by the trace id the test sends in `traceparent`.
jest.setTimeout(240_000);

interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  service: string;
  attributes: Record<string, unknown>;
}

/** An OTLP/HTTP collector: keeps every span exported to it, and the raw bodies for the redaction check. */
class OtlpReceiver {
  readonly spans: Span[] = [];
  readonly bodies: string[] = [];
  private server?: http.Server;

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        this.bodies.push(body);
        if (req.url === '/v1/traces') this.take(JSON.parse(body));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => this.server?.listen(0, '127.0.0.1', () => r()));
    return `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}`;
  }

  private take(request: { resourceSpans?: any[] }): void {
    for (const rs of request.resourceSpans ?? []) {
      const service = rs.resource?.attributes?.find((a: any) => a.key === 'service.name')?.value?.stringValue ?? '?';
      for (const ss of rs.scopeSpans ?? [])
        for (const s of ss.spans ?? [])
          this.spans.push({
            traceId: s.traceId,
            spanId: s.spanId,
            parentSpanId: s.parentSpanId || undefined,
            name: s.name,
            service,
            attributes: Object.fromEntries((s.attributes ?? []).map((a: any) => [a.key, Object.values(a.value ?? {})[0]])),
          });
    }
  }

  /** The spans of trace `traceId` once `done` holds for them (the processes export in batches). */
  async trace(traceId: string, done: (spans: Span[]) => boolean, ms = 20_000): Promise<Span[]> {
    const deadline = Date.now() + ms;
    for (;;) {
      const spans = this.spans.filter((s) => s.traceId === traceId);
      if (done(spans) || Date.now() > deadline) return spans;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  close(): Promise<void> {
    return new Promise((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

const services = (spans: Span[]) => [...new Set(spans.map((s) => s.service))].sort();
/** Every span's parent is in the trace or is the caller's: one tree, no orphans from a lost context. */
const isOneTree = (spans: Span[], callerSpanId: string) => {
  const ids = new Set([callerSpanId, ...spans.map((s) => s.spanId)]);
  return spans.every((s) => s.parentSpanId !== undefined && ids.has(s.parentSpanId));
};
/** The trace reached every one of `wanted` and every span of it has been exported (it is one whole tree). */
const complete = (wanted: string[], callerSpanId: string) => (spans: Span[]) =>
  wanted.every((w) => services(spans).includes(w)) && isOneTree(spans, callerSpanId);
const isPostgres = (s: Span) => s.attributes['db.system.name'] === 'postgresql' || s.attributes['db.system'] === 'postgresql';

/** A fresh W3C trace context: the caller starts the trace, Coffer continues it. */
function traceparent(): { header: string; traceId: string; spanId: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { header: `00-${traceId}-${spanId}-01`, traceId, spanId };
}

const CARD = '4000056655665556';
const QUERY_SECRET = `q-${randomBytes(8).toString('hex')}`;
const HEADER_SECRET = `h-${randomBytes(8).toString('hex')}`;
const CONFIG_SECRET = `c-${randomBytes(8).toString('hex')}`;
const METADATA_SECRET = `m-${randomBytes(8).toString('hex')}`;
const SECOND_CARD = '5200828282828210';
const otlp = new OtlpReceiver();
const destination = new Destination();
const receiver = new Receiver();
const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-tracing-e2e-logs-'));
let sys: SystemDriver;
let tenant: TestTenant;
let writer: string;
let webhookSecret: string;

beforeAll(async () => {
  const endpoint = await otlp.start();
  await destination.start();
  await receiver.start();
  sys = new SystemDriver({
    logDir,
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      // spans leave within 100 ms, so the test waits for them briefly
      OTEL_BSP_SCHEDULE_DELAY: '100',
      ALLOW_PRIVATE_CALLBACKS: 'true',
      EGRESS_ALLOW_HOSTS: '127.0.0.1,localhost',
      NODE_EXTRA_CA_CERTS: path.join(process.env['COFFER_E2E_PROXY_TLS_DIR'] as string, 'ca.pem'),
    },
  });
  const ready = await sys.ready;
  // the shared API helpers talk to this file's system (jest gives each test file its own process.env)
  Object.assign(process.env, {
    COFFER_E2E_URL: ready.url,
    COFFER_E2E_DATABASE_URL: ready.env['DATABASE_URL'],
    COFFER_E2E_KEK: ready.env['KEY_ENCRYPTION_KEYS'],
  });
  tenant = await createTenant('tracing');
  writer = (await tenant.app('private', { permissions: ['token:create', 'token:read', 'token:use', 'proxy:invoke'] })).key;
  const hook = await api('POST', '/webhooks', { key: tenant.managementKey, body: { name: 'traced', url: receiver.url, events: ['token.created'] } });
  expect(hook.status).toBe(201);
  webhookSecret = hook.body.signing_secret;
});

afterAll(async () => {
  if (sys && !sys.exited) await sys.call('stop');
  await Promise.all([otlp.close(), destination.stop(), receiver.stop()]);
  fs.rmSync(logDir, { recursive: true, force: true });
});

describe('OpenTelemetry traces (OTEL_EXPORTER_OTLP_ENDPOINT set)', () => {
  it('POST /tokens: one trace through the gateway and token-service, with its PostgreSQL statement', async () => {
    const tp = traceparent();
    const res = await api('POST', '/tokens', {
      key: writer,
      headers: { traceparent: tp.header },
      body: { type: 'card', data: { number: CARD, expiration_month: 12, expiration_year: 2099 } },
    });
    expect(res.status).toBe(201);
    const spans = await otlp.trace(tp.traceId, (s) => complete(['coffer-gateway', 'coffer-token-service'], tp.spanId)(s) && s.some(isPostgres));
    expect(services(spans)).toEqual(expect.arrayContaining(['coffer-gateway', 'coffer-token-service']));
    expect(spans.find((s) => s.service === 'coffer-gateway' && s.attributes['http.route'] === '/tokens')).toBeDefined();
    expect(spans.find((s) => s.service === 'coffer-token-service' && s.name.endsWith(' process'))).toBeDefined();
    expect(
      spans.find((s) => s.service === 'coffer-token-service' && isPostgres(s) && String(s.attributes['db.query.text']).includes('INSERT INTO tokens')),
    ).toBeDefined();
    expect(isOneTree(spans, tp.spanId)).toBe(true);
    // the gateway's log line of the request names the trace and its span
    const line = fs
      .readFileSync(path.join(logDir, 'gateway.log'), 'utf8')
      .split('\n')
      .find((l) => l.includes(`"trace_id":"${tp.traceId}"`) && l.includes('"route":"/tokens"'));
    expect(JSON.parse(line ?? '{}')).toMatchObject({ trace_id: tp.traceId, span_id: expect.stringMatching(/^[0-9a-f]{16}$/), status: 201 });
  });

  it('a webhook delivery continues the trace of the request that wrote its event, and the receiver gets its traceparent', async () => {
    const tp = traceparent();
    const res = await api('POST', '/tokens', { key: writer, headers: { traceparent: tp.header }, body: { type: 'token', data: 'traced-webhook' } });
    expect(res.status).toBe(201);
    const delivered = await receiver.waitForEvent('token.created', (e) => e.event.data['token']?.id === res.body.id);
    expect(String(delivered.raw.headers['traceparent'])).toMatch(new RegExp(`^00-${tp.traceId}-[0-9a-f]{16}-01$`));
    const spans = await otlp.trace(tp.traceId, complete(['coffer-gateway', 'coffer-token-service', 'coffer-webhook-dispatcher'], tp.spanId));
    expect(services(spans)).toEqual(expect.arrayContaining(['coffer-gateway', 'coffer-token-service', 'coffer-webhook-dispatcher']));
    expect(spans.find((s) => s.name === 'webhook deliver')).toBeDefined();
    expect(isOneTree(spans, tp.spanId)).toBe(true);
  });

  it('a react: the gateway, reactor-service and the sandbox fetch, whose destination gets the traceparent', async () => {
    const reactor = await api('POST', '/reactors', {
      key: tenant.managementKey,
      body: {
        name: 'traced',
        configuration: { API_KEY: CONFIG_SECRET },
        code: formulaCode(
          'const r = await fetch(req.args.url, { headers: { authorization: `Bearer ${req.configuration.API_KEY}` } }); return { raw: { status: r.status } };',
        ),
      },
    });
    expect(reactor.status).toBe(201);
    const tp = traceparent();
    const res = await api('POST', `/reactors/${reactor.body.id}/react`, {
      key: writer,
      headers: { traceparent: tp.header },
      body: { args: { url: destination.url(`/react?secret=${QUERY_SECRET}`) } },
    });
    expect(res.status).toBe(200);
    expect(String(destination.last.headers['traceparent'])).toMatch(new RegExp(`^00-${tp.traceId}-`));
    const spans = await otlp.trace(tp.traceId, complete(['coffer-gateway', 'coffer-reactor-service'], tp.spanId));
    expect(services(spans)).toEqual(expect.arrayContaining(['coffer-gateway', 'coffer-reactor-service']));
    // the sandbox's fetch, by its path only
    expect(spans.find((s) => s.service === 'coffer-reactor-service' && String(s.attributes['url.full']).endsWith('/react'))).toBeDefined();
    expect(isOneTree(spans, tp.spanId)).toBe(true);
  });

  it('a proxy call: the gateway and proxy-service, and the destination gets the traceparent', async () => {
    const tp = traceparent();
    const res = await proxy('POST', `/proxy?${new URLSearchParams({ secret: QUERY_SECRET })}`, {
      key: writer,
      destination: destination.url(`/proxied?secret=${QUERY_SECRET}`),
      headers: { traceparent: tp.header, 'x-api-secret': HEADER_SECRET },
      contentType: 'application/json',
      body: JSON.stringify({ card: CARD }),
    });
    expect(res.status).toBe(200);
    expect(String(destination.last.headers['traceparent'])).toMatch(new RegExp(`^00-${tp.traceId}-`));
    const spans = await otlp.trace(tp.traceId, complete(['coffer-gateway', 'coffer-proxy-service'], tp.spanId));
    expect(services(spans)).toEqual(expect.arrayContaining(['coffer-gateway', 'coffer-proxy-service']));
    expect(isOneTree(spans, tp.spanId)).toBe(true);
  });

  it('the other kinds of route carry token data, keys and secrets in bodies, paths and query strings', async () => {
    const key = { key: writer };
    const created = await apiRaw('POST', '/tokens', { ...key, body: { type: 'token', data: CARD, metadata: { ref: METADATA_SECRET } } });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const calls = [
      apiRaw('GET', `/tokens/${id}`, key),
      apiRaw('GET', `/tokens?${new URLSearchParams({ 'metadata.ref': METADATA_SECRET })}`, key),
      apiRaw('POST', '/tokens/search', { ...key, body: { query: `metadata.ref:${METADATA_SECRET}` } }),
      apiRaw('POST', '/detokenize', { ...key, body: { value: `{{ ${id} }}` } }),
      apiRaw('POST', '/tokenize', { ...key, body: { second: { type: 'card', data: { number: SECOND_CARD, expiration_month: 1, expiration_year: 2099 } } } }),
      apiRaw('PATCH', `/tokens/${id}`, { ...key, contentType: 'application/merge-patch+json', body: { data: `${CARD}-patched` } }),
      apiRaw('POST', '/sessions', key),
      apiRaw('GET', `/applications/key`, key),
    ];
    for (const res of await Promise.all(calls)) expect(res.status).toBeLessThan(500);
  });

  it('no exported span holds token data, a key, a secret, a body or a query string', async () => {
    // the spans of the calls above have been exported (every process sends within 100 ms)
    await new Promise((r) => setTimeout(r, 1500));
    // everything exported so far, from every process, as the collector received it
    const exported = otlp.bodies.join('\n');
    expect(otlp.spans.length).toBeGreaterThan(20);
    for (const secret of [
      CARD,
      SECOND_CARD,
      METADATA_SECRET,
      'traced-webhook',
      QUERY_SECRET,
      HEADER_SECRET,
      CONFIG_SECRET,
      writer,
      tenant.managementKey,
      webhookSecret,
    ])
      expect({ secret, found: exported.includes(secret) }).toEqual({ secret, found: false });
    // the URL attributes are paths: no `?` survives in them
    for (const s of otlp.spans)
      for (const name of ['http.url', 'http.target', 'url.full', 'url.path'])
        if (typeof s.attributes[name] === 'string') expect(s.attributes[name]).not.toContain('?');
  });
});
