import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import { ConfigError } from './config';
import { startHealthServer } from './health-server';
import { loadHealthHost } from './process-config';

describe('the health port', () => {
  const saved = process.env['HEALTH_HOST'];
  let server: http.Server | undefined;
  afterEach(async () => {
    if (saved === undefined) delete process.env['HEALTH_HOST'];
    else process.env['HEALTH_HOST'] = saved;
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
    server = undefined;
  });

  it('listens on loopback only by default: /metrics describes every tenant', async () => {
    server = await startHealthServer(0, {});
    expect((server.address() as AddressInfo).address).toBe('127.0.0.1');
  });

  it('listens where HEALTH_HOST says (0.0.0.0 in the Kubernetes manifests, where probes and Prometheus use the pod IP)', async () => {
    delete process.env['HEALTH_HOST'];
    expect(loadHealthHost()).toBe('127.0.0.1');
    process.env['HEALTH_HOST'] = '0.0.0.0';
    server = await startHealthServer(0, {}, () => false, loadHealthHost());
    expect((server.address() as AddressInfo).address).toBe('0.0.0.0');
  });

  it.each(['localhost', 'example.com', '0.0.0.0:9100'])('refuses HEALTH_HOST=%p, naming it', (value) => {
    process.env['HEALTH_HOST'] = value;
    expect(() => loadHealthHost()).toThrow(ConfigError);
    expect(() => loadHealthHost()).toThrow(/^HEALTH_HOST must be an IP address/);
  });
});

describe('coffer_readiness_check', () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
    server = undefined;
  });

  it('reports each readiness check of the health port when /metrics is scraped: 1 ok, 0 failing', async () => {
    let databaseUp = true;
    server = await startHealthServer(0, { database: async () => databaseUp, nats: async () => true });
    const metrics = async () => (await fetch(`http://127.0.0.1:${(server?.address() as AddressInfo).port}/metrics`)).text();
    expect(await metrics()).toMatch(/^coffer_readiness_check\{check="database"\} 1$/m);
    databaseUp = false;
    const text = await metrics();
    expect(text).toMatch(/^coffer_readiness_check\{check="database"\} 0$/m);
    expect(text).toMatch(/^coffer_readiness_check\{check="nats"\} 1$/m);
  });
});
