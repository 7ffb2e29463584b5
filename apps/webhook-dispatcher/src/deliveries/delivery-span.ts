import type { SpanOptions } from '@coffer/observability';
import type { ClaimedDelivery } from './delivery.repository';

/**
 * The span of one delivery attempt: a child of the request that wrote its event when the outbox row kept that
 * request's trace context (a first attempt handed off by the relay), else the root of a trace of its own (a retry,
 * a queued delivery, a reactor's result). Identifiers only: the body is the tenant's event.
 */
export function deliverySpan(d: ClaimedDelivery): SpanOptions {
  return {
    kind: 'producer',
    parent: d.traceparent ? { traceparent: d.traceparent } : undefined,
    attributes: {
      'coffer.tenant_id': d.tenant_id,
      'coffer.delivery_id': d.id,
      'coffer.webhook_id': d.webhook_id ?? '',
      'coffer.attempt': d.attempts,
    },
  };
}
