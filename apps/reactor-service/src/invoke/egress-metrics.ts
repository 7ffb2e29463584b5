import { Counter, Histogram } from 'prom-client';
import { metricsRegistry } from '@coffer/observability';
import type { EgressRecord } from '@coffer/sandbox';

/** Outbound requests of formula code, by outcome (ok, denied, timeout, aborted, error) and status class (2xx...). */
export const egressRequests = new Counter({
  name: 'coffer_reactor_egress_requests_total',
  help: 'Outbound HTTP requests made by reactor formula code',
  labelNames: ['outcome', 'status_class'] as const,
  registers: [metricsRegistry],
});

export const egressDuration = new Histogram({
  name: 'coffer_reactor_egress_duration_seconds',
  help: 'Duration of outbound HTTP requests made by reactor formula code (redirects included)',
  labelNames: ['outcome'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

export const egressResponseBytes = new Counter({
  name: 'coffer_reactor_egress_response_bytes_total',
  help: 'Response body bytes received by reactor formula code',
  registers: [metricsRegistry],
});

export function recordEgress(r: EgressRecord): void {
  const statusClass = r.status === undefined ? 'none' : `${Math.floor(r.status / 100)}xx`;
  egressRequests.inc({ outcome: r.outcome, status_class: statusClass });
  egressDuration.observe({ outcome: r.outcome }, r.durationMs / 1000);
  if (r.bytes > 0) egressResponseBytes.inc(r.bytes);
}
