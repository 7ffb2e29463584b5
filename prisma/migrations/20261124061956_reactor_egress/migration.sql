-- AlterTable
ALTER TABLE "reactors" ADD COLUMN     "egress" JSONB;
