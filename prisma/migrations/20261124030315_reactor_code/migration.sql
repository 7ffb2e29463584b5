-- AlterTable
ALTER TABLE "reactor_jobs" ALTER COLUMN "callback_url" DROP NOT NULL;

-- AlterTable
ALTER TABLE "reactors" ADD COLUMN     "code" TEXT,
ADD COLUMN     "runtime" JSONB,
ALTER COLUMN "formula_id" DROP NOT NULL;

