import { createHash } from 'node:crypto';

/**
 * An event delivery's id (and webhook-id header), derived from the event and the webhook: the relay that hands a
 * delivery off writes no row for it before its first attempt, so a relay that re-reads the event after a crash
 * must arrive at the same id — the receiver then sees the same webhook-id twice (at least once, deduplicated by
 * it) and the second record of it is dropped. A UUID of version 8 (RFC 9562, a name-based scheme of our own:
 * SHA-256 of both ids).
 */
export function eventDeliveryId(eventId: string, webhookId: string): string {
  const h = createHash('sha256').update(`coffer.event-delivery:${eventId}:${webhookId}`).digest();
  h[6] = (h[6] & 0x0f) | 0x80;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
