-- Audit records are never updated again once written: a record's place in its tenant's hash chain (seq, hash) moves
-- to audit_seals, and the records still to be sealed are queued in audit_unsealed by a trigger on the one INSERT.
-- Sealing rewrote every audit row (a second heap tuple and an entry in each of audit_events' indexes, as seq was
-- indexed); it now appends one narrow row per record and deletes its queue row.

CREATE TABLE "audit_seals" (
    "tenant_id" UUID NOT NULL,
    "seq" BIGINT NOT NULL,
    "event_id" UUID NOT NULL,
    "hash" TEXT NOT NULL,
    CONSTRAINT "audit_seals_pkey" PRIMARY KEY ("tenant_id", "seq")
);

-- refusal: a refusal window, sealed only once its counts are in (three minutes after it opened)
CREATE TABLE "audit_unsealed" (
    "event_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "refusal" BOOLEAN NOT NULL,
    CONSTRAINT "audit_unsealed_pkey" PRIMARY KEY ("event_id")
);
CREATE INDEX "audit_unsealed_created_at_event_id_idx" ON "audit_unsealed"("created_at", "event_id");

INSERT INTO "audit_seals" ("tenant_id", "seq", "event_id", "hash")
SELECT "tenant_id", "seq", "id", "hash" FROM "audit_events" WHERE "seq" IS NOT NULL;
INSERT INTO "audit_unsealed" ("event_id", "created_at", "refusal")
SELECT "id", "created_at", "operation" = 'refuse' FROM "audit_events" WHERE "seq" IS NULL;

DROP INDEX "audit_events_unsealed_idx";
DROP INDEX "audit_events_tenant_id_seq_key";
ALTER TABLE "audit_events" DROP COLUMN "seq", DROP COLUMN "hash";

-- Every audit record is queued for the sealer by the statement that wrote it, whichever service or tool wrote it: one
-- INSERT per statement (a batch of reads' records included), not one per row.
CREATE FUNCTION "audit_events_queue_unsealed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO audit_unsealed (event_id, created_at, refusal)
  SELECT id, created_at, operation = 'refuse' FROM inserted_audit_events;
  RETURN NULL;
END
$$;

CREATE TRIGGER "audit_events_queue_unsealed" AFTER INSERT ON "audit_events"
REFERENCING NEW TABLE AS inserted_audit_events FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_queue_unsealed"();
