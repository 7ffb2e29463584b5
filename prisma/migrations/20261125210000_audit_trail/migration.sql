-- The audit trail: who did it (any kind of actor), what changed, refusals aggregated per window, and a hash chain
-- per tenant (seq, hash) sealed by token-service, with the chain's head and the anchor left by pruning.

-- AlterTable
ALTER TABLE "audit_events" ADD COLUMN "actor_type" TEXT,
ADD COLUMN "actor_id" TEXT,
ADD COLUMN "actor_name" TEXT,
ADD COLUMN "changes" JSONB,
ADD COLUMN "source" TEXT,
ADD COLUMN "count" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN "seq" BIGINT,
ADD COLUMN "hash" TEXT;

-- CreateTable
CREATE TABLE "audit_chains" (
    "tenant_id" UUID NOT NULL,
    "seq" BIGINT NOT NULL DEFAULT 0,
    "hash" TEXT NOT NULL,
    "anchor_seq" BIGINT NOT NULL DEFAULT 0,
    "anchor_hash" TEXT NOT NULL,
    "retention_days" INTEGER,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_chains_pkey" PRIMARY KEY ("tenant_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "audit_events_tenant_id_seq_key" ON "audit_events"("tenant_id", "seq");

-- CreateIndex
CREATE INDEX "audit_events_tenant_id_trace_id_idx" ON "audit_events"("tenant_id", "trace_id");

-- The sealer's queue: the rows not yet in a chain (partial: empty most of the time)
CREATE INDEX "audit_events_unsealed_idx" ON "audit_events"("created_at", "id") WHERE "seq" IS NULL;

-- One row per refusal window: (tenant or the global bucket, reason, source, window start)
CREATE UNIQUE INDEX "audit_events_refusal_window_key" ON "audit_events"("tenant_id", "entity_id", "source", "created_at") WHERE "operation" = 'refuse';
