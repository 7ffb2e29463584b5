/**
 * webhook_deliveries rows are written by reactor-service (the outbox of a finished job) and sent by
 * webhook-dispatcher. The body is formula output, so it is stored encrypted with the tenant's data key; this is the
 * associated data both sides use, binding a sealed body to its delivery (delivery id = webhook-id = request id).
 */
export const webhookBodyAad = (deliveryId: string): string => `webhook-body:${deliveryId}`;
