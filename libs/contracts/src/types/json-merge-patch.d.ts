declare module 'json-merge-patch' {
  /** RFC 7386: returns the patched value (mutates `target`; pass a copy). */
  export function apply(target: unknown, patch: unknown): unknown;
}
