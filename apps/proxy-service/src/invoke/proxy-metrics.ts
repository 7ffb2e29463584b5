import { Counter, Histogram } from 'prom-client';
import { metricsRegistry } from '@coffer/observability';

/**
 * One count per proxied call, by the status the caller got only. No destination host: the hosts are every tenant's
 * partners (who a tenant pays, where its data goes), and /metrics is one page for the whole system. The host of each
 * call is in its log line and its tenant's audit record.
 */
export const proxyRequests = new Counter({
  name: 'coffer_proxy_requests_total',
  help: 'Requests sent through the proxy, by the status the caller got',
  labelNames: ['status'] as const,
  registers: [metricsRegistry],
});

export const proxyDuration = new Histogram({
  name: 'coffer_proxy_destination_duration_seconds',
  help: 'Time from sending a proxy request to its destination to having its whole answer',
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25],
  registers: [metricsRegistry],
});
