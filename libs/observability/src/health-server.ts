import http from 'node:http';
import { Gauge } from 'prom-client';
import { metricsRegistry } from './metrics';
import { DEFAULT_HEALTH_HOST } from './process-config';

export type ReadinessCheck = () => Promise<boolean>;

/** the checks of the process's health port, run again when /metrics is scraped */
let scrapedChecks: Record<string, ReadinessCheck> = {};

/**
 * coffer_readiness_check{check} 1 (ok) or 0 (failing): what /readyz answers, one series per dependency (database,
 * nats, key_encryption_key), so that an alert names the one that fails. Run when scraped, not on a timer.
 */
export const readinessCheck = new Gauge({
  name: 'coffer_readiness_check',
  help: 'Readiness checks of this process when scraped: 1 ok, 0 failing (the dependencies /readyz checks)',
  labelNames: ['check'] as const,
  registers: [metricsRegistry],
  async collect() {
    const report = await runChecks(scrapedChecks);
    for (const [check, status] of Object.entries(report.checks)) this.set({ check }, status === 'ok' ? 1 : 0);
  },
});

/**
 * The small HTTP port every service exposes for Kubernetes and Prometheus:
 * /healthz (the process lives), /readyz (its database and the bus answer), /metrics. On `host` (HEALTH_HOST,
 * loadHealthHost): loopback unless the operator opens it.
 */
export function startHealthServer(
  port: number,
  checks: Record<string, ReadinessCheck>,
  isShuttingDown: () => boolean = () => false,
  host: string = DEFAULT_HEALTH_HOST,
): Promise<http.Server> {
  scrapedChecks = checks;
  const server = http.createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz') return send(res, 200, { status: 'ok' });
    if (path === '/readyz') {
      const report = await runChecks(checks);
      const ready = report.ready && !isShuttingDown();
      return send(res, ready ? 200 : 503, { status: ready ? 'ready' : 'unavailable', checks: report.checks });
    }
    if (path === '/metrics') {
      res.writeHead(200, { 'content-type': metricsRegistry.contentType });
      return res.end(await metricsRegistry.metrics());
    }
    return send(res, 404, { title: 'Not Found', status: 404 });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

export async function runChecks(checks: Record<string, ReadinessCheck>) {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      const ok = await Promise.race([check().catch(() => false), new Promise<boolean>((r) => setTimeout(() => r(false), 2000).unref())]);
      return [name, ok ? 'ok' : 'failing'] as const;
    }),
  );
  return { ready: entries.every(([, s]) => s === 'ok'), checks: Object.fromEntries(entries) };
}

function send(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': status >= 400 && status !== 503 ? 'application/problem+json' : 'application/json' });
  res.end(JSON.stringify(body));
}
