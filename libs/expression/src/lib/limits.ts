/** Limits applied by the expression engine. Exceeding one raises an ExpressionError with code `limit_exceeded`. */
export const LIMITS = Object.freeze({
  /** Longest template accepted by validateTemplate / evaluate (characters). */
  templateLength: 4096,
  /** Longest text liquidjs is asked to parse in one call (a template plus our wrapper). */
  parseLength: 8192,
  /** Wall-clock budget of one render (ms), checked between rendered nodes (loop iterations included). */
  renderTimeMs: 100,
  /** liquidjs memory budget of one render (roughly: characters/array elements allocated by filters and ranges). */
  memory: 10_000_000,
  /** Longest string a template may produce. */
  outputLength: 1_048_576,
  /** Largest `pad_left`/`pad_right` length and `reveal`/alias position arguments. */
  padLength: 10_000,
  /** Deepest nesting walked in masks and detokenization values. */
  depth: 256,
  /** Parsed templates kept in the cache. */
  cacheEntries: 5000,
});
