import fs from 'node:fs';
import path from 'node:path';
import { api, control, createTenant, type TestTenant } from '@coffer/testing';

describe('transport, errors and operability', () => {
  let tenant: TestTenant;
  let key: string;
  beforeAll(async () => {
    tenant = await createTenant('transport');
    key = (await tenant.app('private', { permissions: ['token:create', 'token:read'] })).key;
  });

  it('echoes SVC-TRACE-ID and accepts the BT- header aliases', async () => {
    const res = await api('GET', '/tokens', { headers: { 'BT-API-KEY': key, 'SVC-TRACE-ID': 'trace-abc-123' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('svc-trace-id')).toBe('trace-abc-123');
  });

  it('bad JSON is a 400 problem, an unknown route a 404 problem', async () => {
    const bad = await api('POST', '/tokens', { key, rawBody: '{"type":' });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    const missing = await api('GET', '/nothing-here', { key });
    expect(missing.status).toBe(404);
    expect(missing.body.status).toBe(404);
  });

  it('a body over 1 MiB is a 413 problem', async () => {
    const res = await api('POST', '/tokens', { key, body: { type: 'token', data: 'x'.repeat(1024 * 1024 + 10) } });
    expect(res.status).toBe(413);
    expect(res.body.status).toBe(413);
  });

  it('health, readiness and metrics on the gateway', async () => {
    expect((await api('GET', '/healthz')).status).toBe(200);
    expect((await api('GET', '/readyz')).status).toBe(200);
    const metrics = await api('GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('coffer_http_requests_total');
    const ports = JSON.parse(process.env['COFFER_E2E_HEALTH_PORTS'] as string) as Record<string, number>;
    for (const service of ['token-service', 'session-service', 'reactor-service', 'webhook-dispatcher']) {
      const r = await fetch(`http://127.0.0.1:${ports[service]}/readyz`);
      expect(r.status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${ports[service]}/metrics`)).status).toBe(200);
    }
  });

  it('a stopped token-service gives 503 promptly, and it recovers when started again', async () => {
    const created = await api('POST', '/tokens', { key, body: { type: 'token', data: 'still here' } });
    expect(created.status).toBe(201);
    await control('stop', 'token-service');
    try {
      const started = Date.now();
      const res = await api('GET', `/tokens/${created.body.id}`, { key });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ status: 503 });
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await control('start', 'token-service');
    }
    const again = await api('GET', `/tokens/${created.body.id}`, { key });
    expect(again.status).toBe(200);
  }, 90_000);

  it('SIGTERM drains token-service: requests in flight are answered (200), later ones get 503, none hang', async () => {
    const created = await api('POST', '/tokens', { key, body: { type: 'token', data: 'drain' } });
    const inflight = Array.from({ length: 40 }, () => api('GET', `/tokens/${created.body.id}`, { key }));
    await new Promise((r) => setTimeout(r, 5));
    const stopping = control('stop', 'token-service', 'SIGTERM');
    const results = await Promise.all(inflight);
    await stopping;
    try {
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
      expect((await api('GET', `/tokens/${created.body.id}`, { key })).status).toBe(503);
    } finally {
      await control('start', 'token-service');
    }
    expect((await api('GET', `/tokens/${created.body.id}`, { key })).status).toBe(200);
  }, 90_000);

  it('never logs API keys or token data', async () => {
    const secret = 'never-log-this-value-7731';
    const res = await api('POST', '/tokens', { key, body: { type: 'token', data: secret } });
    expect(res.status).toBe(201);
    await api('GET', `/tokens/${res.body.id}`, { key });
    await new Promise((r) => setTimeout(r, 300));
    const dir = process.env['COFFER_E2E_LOG_DIR'] as string;
    for (const file of fs.readdirSync(dir)) {
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      expect(text).not.toContain(secret);
      expect(text).not.toContain(key);
      expect(text).not.toContain(tenant.managementKey);
    }
  });
});
