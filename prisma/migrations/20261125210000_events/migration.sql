-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "event_id" UUID,
ADD COLUMN     "event_type" TEXT,
ADD COLUMN     "webhook_id" UUID;

-- CreateTable
CREATE TABLE "webhooks" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "notify_email" TEXT,
    "events" TEXT[],
    "status" TEXT NOT NULL DEFAULT 'enabled',
    "created_by" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_by" UUID,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhooks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "event_outbox" (
    "seq" BIGSERIAL NOT NULL,
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "event" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "event_outbox_pkey" PRIMARY KEY ("seq")
);

-- CreateIndex
CREATE INDEX "webhook_deliveries_tenant_id_webhook_id_status_created_at_idx" ON "webhook_deliveries"("tenant_id", "webhook_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_created_at_idx" ON "webhook_deliveries"("created_at");

-- CreateIndex
CREATE INDEX "webhook_attempts_created_at_idx" ON "webhook_attempts"("created_at");

-- CreateIndex
CREATE INDEX "webhooks_tenant_id_created_at_idx" ON "webhooks"("tenant_id", "created_at");
