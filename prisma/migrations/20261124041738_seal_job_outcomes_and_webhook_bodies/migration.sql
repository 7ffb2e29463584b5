-- AlterTable
ALTER TABLE "reactor_jobs" ADD COLUMN     "outcome_ciphertext" BYTEA,
ADD COLUMN     "outcome_key_id" UUID;

-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "body_ciphertext" BYTEA,
ADD COLUMN     "body_key_id" UUID,
ALTER COLUMN "body" DROP NOT NULL;
