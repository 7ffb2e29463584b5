-- The delivery loop looks only for pending deliveries, and nearly every delivery is written already delivered (its
-- first attempt ended before its row was inserted): an index of the pending ones alone, which a delivered row never
-- enters, replaces the index of every row by status. The claim and the queue-depth gauge use it.
DROP INDEX IF EXISTS "webhook_deliveries_status_next_attempt_at_idx";
CREATE INDEX "webhook_deliveries_pending_idx" ON "webhook_deliveries"("next_attempt_at") WHERE "status" = 'pending';
