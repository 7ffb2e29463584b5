-- Token intents (docs/token-intents.md): short-lived, encrypted like tokens (data under the tenant's data key, AAD
-- `token-intent:<id>`), never listed. A new table: nothing existing is rewritten, older services ignore it.
CREATE TABLE "token_intents" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "data_ciphertext" BYTEA NOT NULL,
    "data_key_id" UUID NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "token_intents_pkey" PRIMARY KEY ("tenant_id","id")
);

-- the expiry sweep's probe and its batches
CREATE INDEX "token_intents_expires_at_idx" ON "token_intents"("expires_at");
