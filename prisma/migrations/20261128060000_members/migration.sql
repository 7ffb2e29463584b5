-- Tenant members, invitations and console sessions (docs/members.md). New tables only: nothing existing is rewritten,
-- older services ignore them.
CREATE TABLE "users" (
    "id" UUID NOT NULL,
    "issuer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "email_verified" BOOLEAN NOT NULL DEFAULT false,
    "first_name" TEXT,
    "last_name" TEXT,
    "picture" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_sign_in_at" TIMESTAMPTZ(3),

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "users_issuer_subject_key" ON "users"("issuer", "subject");
CREATE INDEX "users_email_idx" ON "users"("email");

CREATE TABLE "tenant_members" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "role" TEXT NOT NULL,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_by" UUID,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "tenant_members_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "tenant_members_tenant_id_user_id_key" ON "tenant_members"("tenant_id", "user_id");
CREATE INDEX "tenant_members_tenant_id_created_at_id_idx" ON "tenant_members"("tenant_id", "created_at", "id");
CREATE INDEX "tenant_members_user_id_idx" ON "tenant_members"("user_id");
-- one owner per tenant: a transfer demotes the old owner and promotes the new one in one transaction
CREATE UNIQUE INDEX "tenant_members_owner_key" ON "tenant_members"("tenant_id") WHERE "role" = 'OWNER';

CREATE TABLE "tenant_invitations" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_by" UUID,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "tenant_invitations_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "tenant_invitations_token_hash_key" ON "tenant_invitations"("token_hash");
CREATE UNIQUE INDEX "tenant_invitations_tenant_id_email_key" ON "tenant_invitations"("tenant_id", "email");
CREATE INDEX "tenant_invitations_tenant_id_created_at_id_idx" ON "tenant_invitations"("tenant_id", "created_at", "id");

CREATE TABLE "console_sessions" (
    "id_hash" TEXT NOT NULL,
    "tenant_id" UUID NOT NULL,
    "user_id" UUID,
    "key_hash" TEXT,
    "csrf_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "console_sessions_pkey" PRIMARY KEY ("id_hash")
);

CREATE INDEX "console_sessions_user_id_idx" ON "console_sessions"("user_id");
CREATE INDEX "console_sessions_key_hash_idx" ON "console_sessions"("key_hash");
CREATE INDEX "console_sessions_tenant_id_idx" ON "console_sessions"("tenant_id");
CREATE INDEX "console_sessions_expires_at_idx" ON "console_sessions"("expires_at");
