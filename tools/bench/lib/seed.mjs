// Growing the tenant fast, in SQL: INSERT … SELECT generate_series copies every column of one real token (its
// ciphertext, data key, mask, fingerprint) under new ids. The ciphertext's AAD binds it to its own token id, so these
// copies cannot be decrypted: they carry metadata no measured query matches (customer f-<n>), which is exactly the
// question of the scale scenarios — do the indexes keep a filtered list fast while the rest of the tenant grows?

/** Tokens of the tenant, expired ones included. */
export async function countTokens(pool, tenantId) {
  return (await pool.query('SELECT count(*)::int AS n FROM tokens WHERE tenant_id = $1', [tenantId])).rows[0].n;
}

/** Adds filler tokens until the tenant holds `size` (in chunks, so a million rows do not sit in one transaction). */
export async function seedTo(pool, tenantId, templateId, size, { expiresAt = null, chunk = 200_000 } = {}) {
  let have = await countTokens(pool, tenantId);
  const started = performance.now();
  while (have < size) {
    const n = Math.min(chunk, size - have);
    await insertCopies(pool, tenantId, templateId, n, expiresAt);
    have += n;
  }
  await settle(pool);
  return (performance.now() - started) / 1000;
}

/**
 * Brings the table to the state a tenant that grew over time is in, before a scale point is measured: a bulk load
 * leaves every new row's hint bits unset and its pages out of the visibility map, and wakes autovacuum, whose worker
 * would then run on the same database during the window (its CPU counted as the requests'). VACUUM (ANALYZE) does
 * now what autovacuum does next, and a checkpoint writes the load's dirty pages out, so the window measures the
 * queries on a settled table, as they run at 10,000 tokens. The tables every scenario writes besides `tokens` (audit
 * records, events, search digests) are vacuumed too: else each point inherits the dead rows and autovacuum rounds of
 * the points before it, and a later point reads as dearer whatever its size.
 */
export async function settle(pool) {
  await pool.query('VACUUM (ANALYZE) tokens, token_search_indexes, audit_events, event_outbox');
  // a superuser's (or pg_checkpoint's) right; without it the window may see the load's pages being written
  await pool.query('CHECKPOINT').catch(() => undefined);
}

/**
 * n copies of the template token; `expiresAt` (a timestamptz expression value) makes them due for the sweep. The
 * copies are dated between the template's creation and now, i.e. newer than the tokens the scale queries find: a
 * plan that walks the newest-first index and filters must step over all of them, as it would in a real tenant
 * (older filler would be skipped by such a plan and flatter it).
 */
export async function insertCopies(pool, tenantId, templateId, n, expiresAt = null) {
  const tag = Math.random().toString(36).slice(2, 8);
  await pool.query(
    `INSERT INTO tokens (tenant_id, id, type, data_ciphertext, data_key_id, mask, fingerprint, fingerprint_expression, container,
                         metadata, metadata_search, search_indexes, expires_at, created_at)
     SELECT t.tenant_id, 'fill-' || $3 || '-' || g, t.type, t.data_ciphertext, t.data_key_id, t.mask, t.fingerprint, t.fingerprint_expression,
            t.container, jsonb_build_object('customer', 'f-' || (g % 1000)), jsonb_build_object('customer', 'f-' || (g % 1000)), '{}',
            $5::timestamptz, t.created_at + (now() - t.created_at) * random()
     FROM tokens t, generate_series(1, $4::int) g
     WHERE t.tenant_id = $1 AND t.id = $2`,
    [tenantId, templateId, tag, n, expiresAt],
  );
}

/** Expired tokens still in the table (the sweep deletes them; readers never see them). */
export async function countExpired(pool, tenantId) {
  return (await pool.query('SELECT count(*)::int AS n FROM tokens WHERE tenant_id = $1 AND expires_at <= now()', [tenantId])).rows[0].n;
}
