import type { KeyObject } from 'node:crypto';
import { signatureHeader } from './signer';

/** One attempt's request, before it is sent. */
export interface DeliveryRequest {
  /** `webhook-id`: the delivery's id, the same on every attempt */
  id: string;
  /** the exact bytes' text that is sent and signed */
  body: string;
  /** the keys that sign it (two or more during a rotation) */
  keys: readonly KeyObject[];
  /** seconds since the epoch, when this attempt is signed */
  timestamp: number;
}

/**
 * The headers of every delivery attempt (events and reactor results alike), built here and nowhere else: what a
 * receiver gets besides the body. Per Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`.
 * A header added to deliveries (a trace context, say) belongs here, outside the signed content.
 */
export function deliveryHeaders(req: DeliveryRequest): Array<[string, string]> {
  return [
    ['content-type', 'application/json'],
    ['user-agent', 'Coffer-Webhooks/1'],
    ['webhook-id', req.id],
    ['webhook-timestamp', String(req.timestamp)],
    ['webhook-signature', signatureHeader(req.keys, req.id, req.timestamp, req.body)],
  ];
}
