-- Key custody (issue 24): tenants can be suspended and deleted (crypto-shredding); key_jobs and
-- reencryption_progress hold the operator's resumable re-encryption jobs (tools/admin, `keys reencrypt`).

-- AlterTable
ALTER TABLE "tenants" ADD COLUMN     "deleted_at" TIMESTAMPTZ(3),
ADD COLUMN     "suspended_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "key_jobs" (
    "id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "tenant_id" UUID,
    "state" TEXT NOT NULL DEFAULT 'running',
    "created_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "key_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reencryption_progress" (
    "job_id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "target_key_id" UUID NOT NULL,
    "cursor" TEXT,
    "pass" INTEGER NOT NULL DEFAULT 1,
    "rows_total" BIGINT NOT NULL DEFAULT 0,
    "rows_done" BIGINT NOT NULL DEFAULT 0,
    "done" BOOLEAN NOT NULL DEFAULT false,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reencryption_progress_pkey" PRIMARY KEY ("job_id","tenant_id","kind")
);

-- CreateIndex
CREATE INDEX "key_jobs_kind_state_idx" ON "key_jobs"("kind", "state");
