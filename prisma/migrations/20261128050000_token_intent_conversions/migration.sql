-- A converted token intent (docs/token-intents.md) stays as a marker without its data until it would have expired,
-- so a second conversion is told apart from an intent that never existed or expired (409, not 404). The ciphertext
-- and its key id are cleared in the conversion's transaction. Columns only added or relaxed: older services
-- keep working.
ALTER TABLE "token_intents" ADD COLUMN "converted_at" TIMESTAMPTZ(3),
ALTER COLUMN "data_ciphertext" DROP NOT NULL,
ALTER COLUMN "data_key_id" DROP NOT NULL;
