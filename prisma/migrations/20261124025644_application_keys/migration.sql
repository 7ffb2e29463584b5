-- Several API keys per application (issue 13): keys move from applications.key_hash to their own table.
-- Every existing key keeps working: it is copied before the column is dropped.

-- CreateTable
CREATE TABLE "application_keys" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "application_id" UUID NOT NULL,
    "key_hash" TEXT NOT NULL,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "application_keys_pkey" PRIMARY KEY ("id")
);

-- Move the existing keys (one per application)
INSERT INTO "application_keys" ("id", "tenant_id", "application_id", "key_hash", "created_by", "created_at")
SELECT gen_random_uuid(), "tenant_id", "id", "key_hash", "created_by", COALESCE("modified_at", "created_at") FROM "applications";

-- DropIndex
DROP INDEX "applications_key_hash_key";

-- AlterTable
ALTER TABLE "applications" DROP COLUMN "key_hash";

-- CreateIndex
CREATE UNIQUE INDEX "application_keys_key_hash_key" ON "application_keys"("key_hash");

-- CreateIndex
CREATE INDEX "application_keys_application_id_created_at_idx" ON "application_keys"("application_id", "created_at");

-- AddForeignKey
ALTER TABLE "application_keys" ADD CONSTRAINT "application_keys_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE RESTRICT;
