-- CreateTable
CREATE TABLE "reactor_formulas" (
    "id" UUID NOT NULL,
    "tenant_id" UUID,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "icon" TEXT,
    "code" TEXT NOT NULL,
    "configuration" JSONB NOT NULL DEFAULT '[]',
    "request_parameters" JSONB NOT NULL DEFAULT '[]',
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_by" UUID,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "reactor_formulas_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reactors" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "formula_id" UUID NOT NULL,
    "application_id" UUID,
    "configuration_ciphertext" BYTEA NOT NULL,
    "configuration_key_id" UUID NOT NULL,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_by" UUID,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "reactors_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "reactor_formulas_tenant_id_created_at_id_idx" ON "reactor_formulas"("tenant_id", "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "reactors_tenant_id_created_at_id_idx" ON "reactors"("tenant_id", "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "reactors_formula_id_idx" ON "reactors"("formula_id");

-- AddForeignKey
ALTER TABLE "reactors" ADD CONSTRAINT "reactors_formula_id_fkey" FOREIGN KEY ("formula_id") REFERENCES "reactor_formulas"("id") ON DELETE RESTRICT ON UPDATE RESTRICT;
