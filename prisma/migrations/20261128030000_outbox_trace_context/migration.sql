-- The W3C trace context of the request that wrote an event (only when tracing is on): the webhook deliveries of the
-- event continue that request's trace. Nullable, no default: adding it rewrites nothing.
ALTER TABLE "event_outbox" ADD COLUMN "traceparent" TEXT;
