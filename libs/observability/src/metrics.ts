import { Counter, Histogram, Registry, collectDefaultMetrics, type Gauge } from 'prom-client';

/** One registry per process, exposed on /metrics. */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, eventLoopMonitoringPrecision: 1000 });

/** From 1 ms (a cached read) to 10 s (a reactor's synchronous limit). */
const LATENCY_BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const rpcDuration = new Histogram({
  name: 'coffer_rpc_duration_seconds',
  help: 'Duration of NATS RPC calls made by this process',
  labelNames: ['subject', 'outcome'] as const,
  buckets: LATENCY_BUCKETS_SECONDS,
  registers: [metricsRegistry],
});

export const httpRequests = new Counter({
  name: 'coffer_http_requests_total',
  help: 'HTTP requests served by the gateway',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [metricsRegistry],
});

export const httpDuration = new Histogram({
  name: 'coffer_http_request_duration_seconds',
  help: 'HTTP request duration at the gateway',
  labelNames: ['method', 'route'] as const,
  buckets: LATENCY_BUCKETS_SECONDS,
  registers: [metricsRegistry],
});

/**
 * Refusal windows of the audit trail (docs/audit.md) that were never stored: `invalid` (token-service could not store
 * that window; the rest of its batch was), `rejected` (token-service refused the gateway's batch), `undeliverable`
 * (the bus or token-service failed every retry) and `queue_full` (the gateway's queue of unsent windows was full).
 */
export const auditRefusalsDropped = new Counter({
  name: 'coffer_audit_refusals_dropped_total',
  help: 'Refusal windows of the audit trail dropped instead of stored, by reason',
  labelNames: ['reason'] as const,
  registers: [metricsRegistry],
});
// every reason starts at 0: increase() sees the first drop (a series born at 1 shows no increase), so an alert fires
for (const reason of ['invalid', 'rejected', 'undeliverable', 'queue_full']) auditRefusalsDropped.inc({ reason }, 0);

/**
 * A gauge counted when /metrics is scraped (nothing runs on a timer while nobody asks), from the number `measure` is
 * given a reader of once the service is up (typically a database count). Until then, or when the read fails (the
 * database is unavailable), the gauge keeps its last value.
 * `new Gauge({ name, help, registers: [metricsRegistry], collect: depth.collect })`, then `depth.measure(() => …)`.
 */
export function scrapedValue(): { collect: (this: Gauge) => Promise<void>; measure: (read: () => Promise<number>) => void } {
  let read: (() => Promise<number>) | undefined;
  return {
    async collect(this: Gauge) {
      if (!read) return;
      try {
        this.set(await read());
      } catch {
        /* the database is unavailable: the last count stays */
      }
    },
    measure(reader) {
      read = reader;
    },
  };
}
