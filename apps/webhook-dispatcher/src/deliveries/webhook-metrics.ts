import { Gauge, Histogram } from 'prom-client';
import { metricsRegistry, scrapedValue } from '@coffer/observability';

const depth = scrapedValue();

/** Where the queue depth is read when /metrics is scraped (the dispatcher's repository). */
export const measureQueueDepth = depth.measure;

export const queueDepth = new Gauge({
  name: 'coffer_webhook_queue_depth',
  help: 'Webhook deliveries waiting to be delivered (pending, including those waiting for a retry)',
  registers: [metricsRegistry],
  collect: depth.collect,
});

export const deliveryLatency = new Histogram({
  name: 'coffer_webhook_delivery_latency_seconds',
  help: 'Time from a delivery being queued to its successful delivery',
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600, 9000],
  registers: [metricsRegistry],
});

export const attemptsPerDelivery = new Histogram({
  name: 'coffer_webhook_attempts_per_delivery',
  help: 'Attempts a delivery took until it was delivered or given up',
  labelNames: ['outcome'] as const,
  buckets: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 20],
  registers: [metricsRegistry],
});
