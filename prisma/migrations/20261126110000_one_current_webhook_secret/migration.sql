-- A tenant has one current webhook signing secret. Two first reads at the same moment (the API and the dispatcher
-- signing a delivery) could each create one; the API then showed the newest while the other still signed. Any such
-- extra current secret retires with the usual 24-hour overlap (it keeps signing beside the newest until then), and
-- a unique index keeps it from happening again.
UPDATE "webhook_secrets" s SET "retires_at" = now() + interval '24 hours'
WHERE s."retires_at" IS NULL
  AND EXISTS (
    SELECT 1 FROM "webhook_secrets" n
    WHERE n."tenant_id" = s."tenant_id" AND n."retires_at" IS NULL AND (n."created_at", n."id") > (s."created_at", s."id")
  );
CREATE UNIQUE INDEX "webhook_secrets_current_key" ON "webhook_secrets"("tenant_id") WHERE "retires_at" IS NULL;
