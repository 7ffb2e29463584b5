// json-merge-patch ships no types; its declaration travels with this file to every app that compiles it
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./types/json-merge-patch.d.ts" />
import { apply } from 'json-merge-patch';
import { JSON_LIMIT_MESSAGES, RESERVED_KEYS } from './json-limits';
import { ProblemError } from './problem/problem';

/** The path (under `root`) of the first key of `patch` that is reserved, at any depth; null when there is none. */
function reservedKeyIn(patch: unknown, root: string): string | null {
  if (patch === null || typeof patch !== 'object') return null;
  if (Array.isArray(patch)) return null; // an array replaces what it patches: its contents are values, never applied key by key
  for (const [k, v] of Object.entries(patch)) {
    const path = root ? `${root}.${k}` : k;
    if (RESERVED_KEYS.has(k)) return path;
    const inner = reservedKeyIn(v, path);
    if (inner) return inner;
  }
  return null;
}

/**
 * An RFC 7386 merge patch of `target` (which it may change: pass a copy), by json-merge-patch. A patch that names
 * `__proto__`, `constructor` or `prototype` at any depth is a 400 naming the key under `root`: the library stops at
 * such a key without a word, and the rest of the patch would silently not be applied.
 */
export function applyMergePatch(target: unknown, patch: unknown, root = ''): unknown {
  const reserved = reservedKeyIn(patch, root);
  if (reserved) throw new ProblemError(400, 'The request uses a reserved name as a key', { [reserved]: [JSON_LIMIT_MESSAGES['reserved-key']] });
  return apply(target, patch);
}
