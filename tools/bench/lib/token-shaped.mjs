// A table shaped like `tokens` (the same key, the same kinds of columns, the created and GIN metadata indexes) and
// rows for it: what the INSERT and SELECT baselines (baselines.mjs) and the topology floor's store
// (skeleton-store.mjs) write, so that each is compared with the same row.
import { randomBytes, randomUUID } from 'node:crypto';

export async function createTokenShapedTable(pool, name) {
  await pool.query(`CREATE TABLE IF NOT EXISTS ${name} (tenant_id uuid, id text, type text, data_ciphertext bytea,
    data_key_id uuid, mask jsonb, fingerprint text, container text, metadata jsonb, metadata_search jsonb,
    created_at timestamptz(3) DEFAULT now(), PRIMARY KEY (tenant_id, id))`);
  await pool.query(`CREATE INDEX IF NOT EXISTS ${name}_created ON ${name} (tenant_id, created_at DESC, id)`);
  await pool.query(`CREATE INDEX IF NOT EXISTS ${name}_meta ON ${name} USING gin (metadata_search jsonb_path_ops)`);
}

/** `INSERT INTO <name> … VALUES` of `count` rows, whose parameters `tokenShapedValues` gives (9 a row). */
export function tokenShapedInsert(name, count) {
  const row = (i) => `(${Array.from({ length: 9 }, (_, k) => `$${i * 9 + k + 1}`).join(',')},$${i * 9 + 9})`;
  return `INSERT INTO ${name} (tenant_id, id, type, data_ciphertext, data_key_id, mask, fingerprint, container, metadata, metadata_search) VALUES ${Array.from(
    { length: count },
    (_, i) => row(i),
  ).join(',')}`;
}

const cipher = randomBytes(96);
const keyId = randomUUID();

/** The parameters of one row: a card's ciphertext-sized bytes, a key id, the card mask, a fresh fingerprint. */
export function tokenShapedValues(tenantId, id, metadataJson = '{"customer":"c-1"}') {
  return [tenantId, id, 'card_number', cipher, keyId, '"{{ data | reveal_last: 4 }}"', randomBytes(32).toString('base64url'), '/pci/high/', metadataJson];
}
