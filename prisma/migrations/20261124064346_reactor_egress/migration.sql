-- AlterTable
ALTER TABLE "reactor_formulas" ADD COLUMN     "egress" JSONB;

-- AlterTable
ALTER TABLE "reactors" ADD COLUMN     "egress" JSONB;
