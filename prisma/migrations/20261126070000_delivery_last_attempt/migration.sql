-- The attempt that delivers is recorded on its delivery (webhook_attempts keeps the attempts that did not deliver):
-- one row and three index entries fewer per delivered event. Nullable, no default: no table rewrite.
ALTER TABLE "webhook_deliveries" ADD COLUMN "last_status_code" INTEGER,
ADD COLUMN "last_duration_ms" INTEGER;
