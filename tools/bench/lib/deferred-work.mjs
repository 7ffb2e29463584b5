// What a request leaves for later inside PostgreSQL: its audit records are sealed into the tenant's hash chain by
// token-service's sealer about a second after they were written (AUDIT_SEAL_INTERVAL_MS), and the events it wrote to the
// outbox are published and deleted by webhook-dispatcher's relay. Both run in the target's database, so their CPU is
// counted as PostgreSQL's; left alone, the work of one window's last second falls into the next window, whatever
// scenario that measures (after a burst of creates, a read's PostgreSQL CPU per request nearly tripled in one run).
// The bench waits for this work before a window starts and again before it ends, so each window pays for its own.

/**
 * True while work is left: audit records not yet sealed (but for refusal windows, which are sealed only once they
 * close, minutes later) or events not yet relayed.
 */
const PENDING_SQL = `SELECT EXISTS (SELECT 1 FROM audit_unsealed WHERE NOT refusal)
  OR EXISTS (SELECT 1 FROM event_outbox) AS pending`;

/**
 * Waits until the deferred work in `pool`'s database is done, polling every `pollMs`; gives up after `timeoutMs` (a
 * shared system whose other clients never let it drain). Resolves {drained, ms}.
 */
export async function drainDeferredWork(pool, { timeoutMs = 15_000, pollMs = 25 } = {}) {
  const started = performance.now();
  for (;;) {
    const { rows } = await pool.query(PENDING_SQL);
    const ms = Math.round(performance.now() - started);
    if (!rows[0]?.pending) return { drained: true, ms };
    if (ms >= timeoutMs) return { drained: false, ms };
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
