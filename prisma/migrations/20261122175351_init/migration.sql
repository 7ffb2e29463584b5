-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "tenants" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "settings" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "tenants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_secrets" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "ciphertext" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retires_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_secrets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "applications" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "permissions" TEXT[],
    "rules" JSONB,
    "key_hash" TEXT NOT NULL,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_by" UUID,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "applications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sessions" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "application_id" UUID NOT NULL,
    "key_hash" TEXT NOT NULL,
    "nonce_hash" TEXT NOT NULL,
    "permissions" TEXT[],
    "rules" JSONB,
    "authorized_by" UUID,
    "authorized_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tenant_keys" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "purpose" TEXT NOT NULL,
    "kek_id" TEXT NOT NULL,
    "wrapped_key" BYTEA NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tenant_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tokens" (
    "tenant_id" UUID NOT NULL,
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "data_ciphertext" BYTEA NOT NULL,
    "data_key_id" UUID NOT NULL,
    "mask" JSONB,
    "fingerprint" TEXT NOT NULL,
    "fingerprint_expression" TEXT NOT NULL,
    "container" TEXT NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "metadata_search" JSONB NOT NULL DEFAULT '{}',
    "search_indexes" TEXT[],
    "dedup_key" TEXT,
    "expires_at" TIMESTAMPTZ(3),
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_by" UUID,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "tokens_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "token_search_indexes" (
    "tenant_id" UUID NOT NULL,
    "token_id" TEXT NOT NULL,
    "digest" TEXT NOT NULL,

    CONSTRAINT "token_search_indexes_pkey" PRIMARY KEY ("tenant_id","digest","token_id")
);

-- CreateTable
CREATE TABLE "audit_events" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "actor_application_id" UUID,
    "operation" TEXT NOT NULL,
    "entity_type" TEXT NOT NULL,
    "entity_id" TEXT NOT NULL,
    "trace_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_records" (
    "application_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "status" INTEGER,
    "body" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("application_id","key")
);

-- CreateIndex
CREATE INDEX "webhook_secrets_tenant_id_idx" ON "webhook_secrets"("tenant_id");

-- CreateIndex
CREATE UNIQUE INDEX "applications_key_hash_key" ON "applications"("key_hash");

-- CreateIndex
CREATE INDEX "applications_tenant_id_created_at_id_idx" ON "applications"("tenant_id", "created_at" DESC, "id");

-- CreateIndex
CREATE UNIQUE INDEX "sessions_key_hash_key" ON "sessions"("key_hash");

-- CreateIndex
CREATE UNIQUE INDEX "sessions_nonce_hash_key" ON "sessions"("nonce_hash");

-- CreateIndex
CREATE INDEX "sessions_expires_at_idx" ON "sessions"("expires_at");

-- CreateIndex
CREATE INDEX "tenant_keys_tenant_id_purpose_active_idx" ON "tenant_keys"("tenant_id", "purpose", "active");

-- CreateIndex
CREATE INDEX "tokens_tenant_id_created_at_id_idx" ON "tokens"("tenant_id", "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "tokens_tenant_id_type_fingerprint_idx" ON "tokens"("tenant_id", "type", "fingerprint");

-- CreateIndex
CREATE INDEX "tokens_metadata_search_idx" ON "tokens" USING GIN ("metadata_search" jsonb_path_ops);

-- CreateIndex
CREATE INDEX "tokens_expires_at_idx" ON "tokens"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "tokens_tenant_id_dedup_key_key" ON "tokens"("tenant_id", "dedup_key");

-- CreateIndex
CREATE INDEX "token_search_indexes_tenant_id_token_id_idx" ON "token_search_indexes"("tenant_id", "token_id");

-- CreateIndex
CREATE INDEX "audit_events_tenant_id_created_at_id_idx" ON "audit_events"("tenant_id", "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "audit_events_tenant_id_entity_type_entity_id_idx" ON "audit_events"("tenant_id", "entity_type", "entity_id");

-- CreateIndex
CREATE INDEX "idempotency_records_created_at_idx" ON "idempotency_records"("created_at");
