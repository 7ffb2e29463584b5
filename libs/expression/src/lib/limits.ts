/** Limits applied by the expression engine. Exceeding one raises an ExpressionError with code `limit_exceeded`. */
export const LIMITS = Object.freeze({
  /** Longest template accepted by validateTemplate / evaluate (characters). */
  templateLength: 4096,
  /** Longest text liquidjs is asked to parse in one call (a template plus our wrapper). */
  parseLength: 8192,
  /**
   * Default wall-clock limit of one render (ms), checked by liquidjs between rendered nodes (loop iterations
   * included). An ExpressionBudget may lower it (its own per-template limit, and what remains of its total).
   */
  renderTimeMs: 50,
  /**
   * liquidjs memory budget of one render (roughly: characters/array elements allocated by filters and ranges). It
   * also bounds the time of one node, which liquidjs does not interrupt: at 1M a `(1..n) | join` stops after ~80 ms
   * (10M took ~600 ms). Four times the largest token data (256 KiB), so any filter over real data fits.
   */
  memory: 1_000_000,
  /** Longest string a template may produce. */
  outputLength: 1_048_576,
  /** Largest `pad_left`/`pad_right` length and `reveal`/alias position arguments. */
  padLength: 10_000,
  /** Deepest nesting walked in masks and detokenization values. */
  depth: 256,
  /** Parsed templates kept in the cache. */
  cacheEntries: 5000,
});
