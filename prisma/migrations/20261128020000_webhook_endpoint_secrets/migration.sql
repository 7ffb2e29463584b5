-- Standard Webhooks: every webhook created from now on has a signing secret of its own (shown once, in the reply to
-- its creation). Its rows sit beside the tenant's in webhook_secrets (same sealing, so `keys reencrypt` and the
-- tenant purge cover them), marked with the webhook's id. Existing webhooks get none: they keep being signed with
-- the tenant's secret, so their receivers keep verifying as before; reactor results are signed with it too.
ALTER TABLE "webhook_secrets" ADD COLUMN "webhook_id" UUID;
CREATE INDEX "webhook_secrets_webhook_id_idx" ON "webhook_secrets"("webhook_id");
-- one current secret per tenant counts only the tenant's own rows; one current secret per webhook
DROP INDEX "webhook_secrets_current_key";
CREATE UNIQUE INDEX "webhook_secrets_current_key" ON "webhook_secrets"("tenant_id") WHERE "retires_at" IS NULL AND "webhook_id" IS NULL;
CREATE UNIQUE INDEX "webhook_secrets_current_endpoint_key" ON "webhook_secrets"("webhook_id") WHERE "retires_at" IS NULL;
