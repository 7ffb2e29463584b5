import { Counter, Histogram } from 'prom-client';
import { metricsRegistry } from '@coffer/observability';

/** One count per proxied call: the destination's host and status (or the proxy's own error status), nothing else. */
export const proxyRequests = new Counter({
  name: 'coffer_proxy_requests_total',
  help: 'Requests sent through the proxy, by destination host and the status the caller got',
  labelNames: ['host', 'status'] as const,
  registers: [metricsRegistry],
});

export const proxyDuration = new Histogram({
  name: 'coffer_proxy_destination_duration_seconds',
  help: 'Time from sending a proxy request to its destination to having its whole answer',
  labelNames: ['host'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25],
  registers: [metricsRegistry],
});

/** Hosts come from callers: past this many distinct ones the label reads `other`, so no caller can grow the series without bound. */
export const MAX_HOST_LABELS = 500;
const seen = new Set<string>();

export function hostLabel(host: string): string {
  if (seen.has(host)) return host;
  if (seen.size >= MAX_HOST_LABELS) return 'other';
  seen.add(host);
  return host;
}
