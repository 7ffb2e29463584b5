import { ProblemError } from './problem/problem';

/**
 * Limits every JSON document the API accepts must respect, checked in one place (this file) by the gateway for every
 * body and again by the services for what reaches them without the gateway (reactor formulas' `svc` calls and their
 * results):
 * - at most {@link JSON_MAX_DEPTH} levels of nested objects and arrays, the document itself being level 1 (deeper
 *   documents overflow the stack of recursive code: JSON.stringify, structuredClone, class-transformer, merge patch);
 * - every number finite (`1e309` parses to Infinity, which JSON cannot carry: it would silently become null);
 * - optionally, no string (value or key) holding U+0000, which PostgreSQL cannot store in text or jsonb, or an unpaired
 *   surrogate (`"\ud800"`), which is not Unicode text: stored, it would silently become U+FFFD, and validators that
 *   encode it (class-validator's IsEmail) throw;
 * - optionally, no key named `__proto__`, `constructor` or `prototype` ({@link RESERVED_KEYS}): plain JavaScript
 *   objects cannot hold them as data (class-transformer skips or trips on them, a merge patch cannot apply them, an
 *   assignment to `__proto__` replaces a prototype instead of storing a value).
 *
 * The walk is iterative (a deep document cannot overflow it) and allocates no paths unless it finds a violation: it
 * runs on the hot path of every request.
 */
export const JSON_MAX_DEPTH = 64;

export type JsonLimitKind = 'depth' | 'non-finite' | 'nul' | 'unpaired-surrogate' | 'reserved-key';

/** Keys a stored JSON member may not use (they name JavaScript's object machinery, not data). */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export interface JsonLimitViolation {
  kind: JsonLimitKind;
  /** field path in the problem's `errors` form (`data.items[2]`); '' for the document itself */
  path: string;
  message: string;
}

export interface JsonLimitOptions {
  /** default {@link JSON_MAX_DEPTH} */
  maxDepth?: number;
  /** refuse strings and keys holding U+0000 or an unpaired surrogate */
  rejectNul?: boolean;
  /**
   * top-level members whose content is exempt from the NUL and reserved-key rules (opaque values kept as given:
   * encrypted, never stored as text, never copied key by key)
   */
  nulExempt?: readonly string[];
  /** refuse object keys of {@link RESERVED_KEYS} (with rejectNul only; the nulExempt members excepted) */
  rejectReservedKeys?: boolean;
  /**
   * with rejectNul: pass over NUL, which the caller reports as a field error of its own, and find the first other
   * violation (a reserved key or a lone surrogate behind the NUL, which must still refuse the document)
   */
  passOverNul?: boolean;
}

export const JSON_LIMIT_MESSAGES: Readonly<Record<JsonLimitKind, string>> = {
  depth: `must not nest objects and arrays more than ${JSON_MAX_DEPTH} levels deep`,
  'non-finite': 'must be a finite number',
  nul: 'must not contain the NUL character (U+0000)',
  'unpaired-surrogate': 'must be valid Unicode text (it holds an unpaired surrogate)',
  'reserved-key': 'is a reserved name: __proto__, constructor and prototype cannot be keys',
};

const DETAILS: Readonly<Record<JsonLimitKind, string>> = {
  depth: `The request body is nested too deeply: at most ${JSON_MAX_DEPTH} levels of objects and arrays are allowed`,
  'non-finite': 'The request body holds a number that is out of range',
  nul: 'The request holds a NUL character (U+0000)',
  'unpaired-surrogate': 'The request holds text that is not valid Unicode',
  'reserved-key': 'The request uses a reserved name as a key',
};

/** Keys that may appear in a field path as they are (names, not values: a leading digit is shown as `*` too). */
const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$/;

const hasNul = (s: string) => s.indexOf('\u0000') !== -1;
/** ES2024's String.prototype.isWellFormed (Node 20+; this repository's TypeScript lib is ES2022) */
const wellFormed = (s: string) => (s as string & { isWellFormed(): boolean }).isWellFormed();
/** NUL, or an unpaired surrogate: text PostgreSQL cannot store as it is */
const badText = (s: string) => hasNul(s) || !wellFormed(s);
/** what is wrong with a string under the NUL rule, if anything */
const textKind = (s: string): JsonLimitKind | null => (hasNul(s) ? 'nul' : wellFormed(s) ? null : 'unpaired-surrogate');

/**
 * Fast pass: true when `value` respects the limits. Iterative, no allocation beyond the explicit stack. Objects are
 * walked through own enumerable keys (what JSON.parse and JSON.stringify see). `reserved` (with rejectNul only) also
 * refuses the reserved keys, outside the exempt members as the NUL rule.
 */
function withinLimits(value: unknown, maxDepth: number, rejectNul: boolean, exempt: readonly string[] | undefined, reserved: boolean): boolean {
  if (typeof value !== 'object' || value === null) return primitiveOk(value, rejectNul);
  if (!rejectNul) return depthAndNumbersOk(value, maxDepth);
  const values: unknown[] = [value];
  const levels: number[] = [1];
  /** true for a value under an exempt top-level member (no NUL check) */
  const opaque: boolean[] = [false];
  while (values.length > 0) {
    const v = values.pop() as object;
    const level = levels.pop() as number;
    const nul = rejectNul && !(opaque.pop() as boolean);
    if (level > maxDepth) return false;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (typeof x === 'object' && x !== null) {
          values.push(x);
          levels.push(level + 1);
          opaque.push(!nul);
        } else if (!primitiveOk(x, nul)) return false;
      }
    } else {
      const keys = Object.keys(v);
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i];
        const skip = !nul || (level === 1 && exempt !== undefined && exempt.includes(k));
        if (!skip && (badText(k) || (reserved && RESERVED_KEYS.has(k)))) return false;
        const x: unknown = (v as Record<string, unknown>)[k];
        if (typeof x === 'object' && x !== null) {
          values.push(x);
          levels.push(level + 1);
          opaque.push(skip);
        } else if (!primitiveOk(x, !skip)) return false;
      }
    }
  }
  return true;
}

/** The gateway's case (no NUL rule): the same walk with nothing else to track. */
function depthAndNumbersOk(value: object, maxDepth: number): boolean {
  const values: object[] = [value];
  const levels: number[] = [1];
  while (values.length > 0) {
    const v = values.pop() as object;
    const level = levels.pop() as number;
    if (level > maxDepth) return false;
    const xs: unknown[] = Array.isArray(v) ? v : Object.values(v);
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i];
      if (typeof x === 'object') {
        if (x !== null) {
          values.push(x);
          levels.push(level + 1);
        }
      } else if (typeof x === 'number' && !Number.isFinite(x)) return false;
    }
  }
  return true;
}

function primitiveOk(x: unknown, rejectNul: boolean): boolean {
  if (typeof x === 'number') return Number.isFinite(x);
  if (rejectNul && typeof x === 'string') return !badText(x);
  return true;
}

function primitiveKind(x: unknown, rejectNul: boolean): JsonLimitKind | null {
  if (typeof x === 'number') return Number.isFinite(x) ? null : 'non-finite';
  if (rejectNul && typeof x === 'string') return textKind(x);
  return null;
}

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  const segment = PLAIN_KEY.test(key) ? key : '*';
  return path ? `${path}.${segment}` : segment;
}

/**
 * Slow pass, run only when the fast one failed: the first violation in document order, with its path. For a depth
 * violation the path names the top-level member holding it (a 64-segment path would only echo the document).
 */
function locate(
  value: unknown,
  root: string,
  maxDepth: number,
  rejectNul: boolean,
  exempt: readonly string[] | undefined,
  reserved: boolean,
  passOverNul: boolean,
): JsonLimitViolation | null {
  const reported = (kind: JsonLimitKind | null): kind is JsonLimitKind => kind !== null && !(passOverNul && kind === 'nul');
  type Frame = { v: unknown; level: number; path: string; top: string; nul: boolean };
  const stack: Frame[] = [{ v: value, level: 0, path: root, top: root, nul: rejectNul }];
  while (stack.length > 0) {
    const { v, level, path, top, nul } = stack.pop() as Frame;
    if (typeof v !== 'object' || v === null) {
      const kind = primitiveKind(v, nul);
      if (reported(kind)) return { kind, path, message: JSON_LIMIT_MESSAGES[kind] };
      continue;
    }
    if (level + 1 > maxDepth) return { kind: 'depth', path: top, message: JSON_LIMIT_MESSAGES.depth };
    const children: Frame[] = [];
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const p = join(path, i);
        children.push({ v: v[i], level: level + 1, path: p, top: level === 0 ? p : top, nul });
      }
    } else {
      for (const k of Object.keys(v)) {
        const p = join(path, k);
        const childNul = nul && !(level === 0 && exempt !== undefined && exempt.includes(k));
        if (childNul) {
          // a key's own text is reported at the object holding it (the key itself may not be printable)
          const kind = textKind(k);
          if (reported(kind)) return { kind, path: path || '', message: JSON_LIMIT_MESSAGES[kind] };
          if (reserved && RESERVED_KEYS.has(k)) return { kind: 'reserved-key', path: p, message: JSON_LIMIT_MESSAGES['reserved-key'] };
        }
        children.push({ v: (v as Record<string, unknown>)[k], level: level + 1, path: p, top: level === 0 ? p : top, nul: childNul });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return null;
}

/**
 * The first violation of the JSON limits in `value`, or null. `root` prefixes every path (e.g. `args` for a value
 * that is the `args` member of a body).
 */
export function findJsonLimitViolation(value: unknown, options: JsonLimitOptions = {}, root = ''): JsonLimitViolation | null {
  const maxDepth = options.maxDepth ?? JSON_MAX_DEPTH;
  const rejectNul = options.rejectNul ?? false;
  const reserved = rejectNul && (options.rejectReservedKeys ?? false);
  if (withinLimits(value, maxDepth, rejectNul, options.nulExempt, reserved)) return null;
  return locate(value, root, maxDepth, rejectNul, options.nulExempt, reserved, options.passOverNul ?? false);
}

/** Why `s` cannot be stored as text (it holds NUL, or an unpaired surrogate), in the JSON limits' words; null when it can. */
export function unstorableText(s: string): string | null {
  const kind = textKind(s);
  return kind ? JSON_LIMIT_MESSAGES[kind] : null;
}

/** The 400 problem for a violation: `errors` names the field (omitted for the document itself). */
export function jsonLimitProblem(violation: JsonLimitViolation): ProblemError {
  return new ProblemError(400, DETAILS[violation.kind], violation.path ? { [violation.path]: [violation.message] } : undefined);
}

/** Throws the 400 problem when `value` breaks the JSON limits. */
export function assertJsonLimits(value: unknown, options: JsonLimitOptions = {}, root = ''): void {
  const violation = findJsonLimitViolation(value, options, root);
  if (violation) throw jsonLimitProblem(violation);
}
