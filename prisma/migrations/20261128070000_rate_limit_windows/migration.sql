-- Rate limits shared by every gateway replica (docs/operations.md, "Rate limits"): one row per subject and window,
-- the permits session-service granted in it. A new table only: nothing existing is rewritten, older services ignore it.
CREATE TABLE "rate_limit_windows" (
    "subject" TEXT NOT NULL,
    "window_start" BIGINT NOT NULL,
    "granted" INTEGER NOT NULL,

    CONSTRAINT "rate_limit_windows_pkey" PRIMARY KEY ("subject","window_start")
);

CREATE INDEX "rate_limit_windows_window_start_idx" ON "rate_limit_windows"("window_start");
