// The load generator: `clients` concurrent closed loops (each sends its next request when the previous one answered,
// like autocannon's connections), a warm-up that is thrown away, then a measured window. Latencies in ms.

/** Nearest-rank percentile of an ascending array; NaN when empty. */
export function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** Summary of one measured window: completed ops per second, latency percentiles, errors (with the first message). */
export function summarise(latencies, errors, seconds, firstError) {
  const sorted = Float64Array.from(latencies).sort();
  const mean = sorted.length ? sorted.reduce((a, b) => a + b, 0) / sorted.length : NaN;
  return {
    ops: sorted.length / seconds,
    count: sorted.length,
    mean,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1] : NaN,
    errors,
    firstError,
  };
}

async function window(clients, op, seconds, state, stop) {
  const latencies = [];
  let errors = 0;
  let firstError;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (performance.now() < deadline && !stop?.()) {
        const t = performance.now();
        try {
          await op(client, state.seq++);
          latencies.push(performance.now() - t);
        } catch (err) {
          errors++;
          firstError ??= String(err?.message ?? err).slice(0, 200);
          // a failing target answers fast: do not spin on it
          await new Promise((r) => setTimeout(r, 1));
        }
      }
    }),
  );
  // the last requests end after the deadline: divide by the time the window really took
  const elapsed = (performance.now() - started) / 1000;
  return summarise(latencies, errors, elapsed, firstError);
}

/**
 * Runs `op(client, seq)` from `clients` loops: `warmup` seconds unmeasured, then `seconds` measured. `seq` counts
 * every call of the run (warm-up included), so ops can pick distinct rows. `stop()` true ends the measured window
 * early (e.g. when the expiry sweep is done); `seconds` is then the cap.
 */
export async function load({ clients, seconds, warmup = 0, op, stop }) {
  const state = { seq: 0 };
  if (warmup > 0) await window(clients, op, warmup, state);
  return window(clients, op, seconds, state, stop);
}
