-- CreateTable
CREATE TABLE "proxies" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "destination_url" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "request_transforms" JSONB NOT NULL,
    "response_transforms" JSONB NOT NULL,
    "application_id" UUID,
    "require_auth" BOOLEAN NOT NULL DEFAULT true,
    "disable_detokenization" BOOLEAN NOT NULL DEFAULT false,
    "secrets_ciphertext" BYTEA NOT NULL,
    "secrets_key_id" UUID NOT NULL,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_by" UUID,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "proxies_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "proxies_key_hash_key" ON "proxies"("key_hash");

-- CreateIndex
CREATE INDEX "proxies_tenant_id_created_at_id_idx" ON "proxies"("tenant_id", "created_at" DESC, "id");
