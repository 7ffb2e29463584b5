/**
 * Waits for the start of a fixed rate-limit window of `windowMs` and returns the time it began waiting from there.
 * Coffer's limits count in windows that are multiples of `windowMs` since the epoch (on PostgreSQL's clock, the same
 * machine's here), so a test that starts within 300 ms of one counts all it sends in that window, if it is quick.
 */
export async function atWindowStart(windowMs: number): Promise<number> {
  for (;;) {
    const into = Date.now() % windowMs;
    if (into < 300) return Date.now();
    await new Promise((r) => setTimeout(r, Math.min(windowMs - into + 20, 1_000)));
  }
}
