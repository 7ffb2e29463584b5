-- Records move from the gateway to the service that owns each write. Old rows held replies in plaintext and have no
-- tenant: drop them (they only live 24 h, and a retry then runs again, as before this change).
DELETE FROM "idempotency_records";

-- AlterTable
ALTER TABLE "idempotency_records" DROP CONSTRAINT "idempotency_records_pkey",
DROP COLUMN "application_id",
DROP COLUMN "body",
DROP COLUMN "method",
DROP COLUMN "path",
DROP COLUMN "status",
ADD COLUMN     "locked_until" TIMESTAMPTZ(3),
ADD COLUMN     "owner_id" UUID NOT NULL,
ADD COLUMN     "reply" BYTEA,
ADD COLUMN     "reply_key_id" UUID,
ADD COLUMN     "request_hash" TEXT NOT NULL,
ADD COLUMN     "route" TEXT NOT NULL,
ADD COLUMN     "tenant_id" UUID NOT NULL,
ADD CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("tenant_id", "owner_id", "key");
