import { randomInt } from 'node:crypto';
import { JSONPath } from 'jsonpath-plus';
import { ExpressionError } from './errors';
import { LIMITS } from './limits';

/**
 * Coffer's own Liquid filters (libs/expression/README.md), written as plain functions so that the liquidjs registration and
 * the compiled fast path share one implementation.
 *
 * Every filter receives the input value and the already evaluated positional arguments.
 */
export type FilterFn = (value: unknown, args: readonly unknown[]) => unknown;

export type ArgKind = 'int' | 'char' | 'string' | 'path';

export interface FilterDef {
  readonly fn: FilterFn;
  /** Kinds of the positional arguments, in order. */
  readonly args: readonly ArgKind[];
  /** How many leading arguments are required. */
  readonly required: number;
}

// ---------------------------------------------------------------------------------------------------------------
// helpers

const SURROGATE = /[\uD800-\uDFFF]/;

/** Indexable characters of a string: the string itself when it has no surrogate pairs, else its code points. */
function charsOf(s: string): string | string[] {
  return SURROGATE.test(s) ? Array.from(s) : s;
}

function fail(filter: string, message: string): never {
  throw new ExpressionError(`filter "${filter}": ${message}`, 'invalid_argument');
}

/**
 * Input of a string filter: null/undefined -> null (the filter then returns null), numbers and booleans are
 * converted with String(), strings pass; anything else is an error.
 */
function inputString(filter: string, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      if (!Number.isFinite(value)) fail(filter, 'input is not a finite number');
      return String(value);
    case 'boolean':
      return String(value);
    default:
      return fail(filter, 'input must be a string or a number');
  }
}

const ORDINALS = ['first', 'second', 'third', 'fourth'];

function argName(i: number): string {
  return `${ORDINALS[i] ?? `#${i + 1}`} argument`;
}

function intArg(filter: string, args: readonly unknown[], i: number, dflt: number | undefined): number {
  const v = args[i];
  if (v === undefined || v === null) {
    if (dflt === undefined) fail(filter, `${argName(i)} is required`);
    return dflt;
  }
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) fail(filter, `${argName(i)} must be a non-negative integer`);
  if (v > LIMITS.padLength) fail(filter, `${argName(i)} must be at most ${LIMITS.padLength}`);
  return v;
}

function charArg(filter: string, args: readonly unknown[], i: number, dflt: string): string {
  const v = args[i];
  if (v === undefined || v === null) return dflt;
  if (typeof v !== 'string') fail(filter, `${argName(i)} must be a single character`);
  // one code point
  const cp = v.codePointAt(0);
  if (cp === undefined || v.length !== (cp > 0xffff ? 2 : 1)) fail(filter, `${argName(i)} must be a single character`);
  return v;
}

function stringArg(filter: string, args: readonly unknown[], i: number, dflt: string): string {
  const v = args[i];
  if (v === undefined || v === null) return dflt;
  if (typeof v !== 'string') fail(filter, `${argName(i)} must be a string`);
  return v;
}

function maxArgs(filter: string, args: readonly unknown[], n: number): void {
  if (args.length > n) fail(filter, `takes at most ${n} argument${n === 1 ? '' : 's'}`);
}

// ---------------------------------------------------------------------------------------------------------------
// JSON

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * Canonical JSON: object keys sorted, so the same data always gives the same text (fingerprints do not depend on
 * key order). Values JSON cannot represent follow JSON.stringify (undefined members dropped, NaN -> null).
 */
export function canonicalJson(value: unknown): string | undefined {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (isPlainObject(v)) {
      const sorted: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) {
        if (k === '__proto__') {
          Object.defineProperty(sorted, k, { value: v[k], enumerable: true, writable: true, configurable: true });
        } else {
          sorted[k] = v[k];
        }
      }
      return sorted;
    }
    return v;
  });
}

function stringifyFilter(value: unknown, args: readonly unknown[]): unknown {
  maxArgs('stringify', args, 0);
  if (value === null || value === undefined) return null;
  const text = canonicalJson(value);
  return text === undefined ? null : text;
}

const jsonPathSeen = new Set<string>();

function jsonFilter(value: unknown, args: readonly unknown[]): unknown {
  maxArgs('json', args, 1);
  const path = args[0];
  if (path === undefined || path === null) return stringifyFilter(value, []);
  if (typeof path !== 'string' || path.length === 0) fail('json', 'the JSONPath must be a non-empty string');
  if (path.length > 1024) fail('json', 'the JSONPath is too long');
  if (value === null || value === undefined) return null;
  // jsonpath-plus keeps every parsed path in `JSONPath.cache` forever, and has no cache-less evaluation. That cache is
  // a public, typed class property its README documents ("Class properties and methods"), read afresh on every parse,
  // so replacing it is how its owner bounds it: paths come from tenants' masks and must not grow memory unbounded.
  if (!jsonPathSeen.has(path)) {
    if (jsonPathSeen.size >= 1000) {
      jsonPathSeen.clear();
      JSONPath.cache = {};
    }
    jsonPathSeen.add(path);
  }
  let matches: unknown;
  try {
    matches = JSONPath({ path, json: value as object, wrap: true, eval: false });
  } catch {
    fail('json', 'invalid or unsupported JSONPath (script expressions are disabled)');
  }
  if (!Array.isArray(matches) || matches.length === 0) return null;
  if (matches.length > 1) fail('json', 'the JSONPath matched several values');
  const found: unknown = matches[0];
  return found === undefined ? null : found;
}

// ---------------------------------------------------------------------------------------------------------------
// masking

/**
 * Masks all but the first `first` and last `last` characters. Characters in `preserve` are kept as they are and
 * are not counted. When `first + last` covers every counted character the whole value is masked.
 */
export function revealString(s: string, first: number, last: number, maskChar: string, preserve: string): string {
  const chars = charsOf(s);
  const n = chars.length;
  if (preserve === '') {
    if (n <= first + last) return maskChar.repeat(n);
    if (typeof chars === 'string') return chars.slice(0, first) + maskChar.repeat(n - first - last) + chars.slice(n - last);
    return chars.slice(0, first).join('') + maskChar.repeat(n - first - last) + chars.slice(n - last).join('');
  }
  const keep = preserve.length === 1 ? null : new Set(Array.from(preserve));
  const isKept = (c: string): boolean => (keep === null ? c === preserve : keep.has(c));
  let total = 0;
  for (let i = 0; i < n; i++) if (!isKept(chars[i])) total++;
  const showAny = total > first + last;
  let out = '';
  let idx = 0;
  for (let i = 0; i < n; i++) {
    const c = chars[i];
    if (isKept(c)) {
      out += c;
      continue;
    }
    out += showAny && (idx < first || idx >= total - last) ? c : maskChar;
    idx++;
  }
  return out;
}

function revealFilter(value: unknown, args: readonly unknown[]): unknown {
  maxArgs('reveal', args, 4);
  const first = intArg('reveal', args, 0, 0);
  const last = intArg('reveal', args, 1, 0);
  const maskChar = charArg('reveal', args, 2, 'X');
  const preserve = stringArg('reveal', args, 3, '');
  const s = inputString('reveal', value);
  return s === null ? null : revealString(s, first, last, maskChar, preserve);
}

function revealLastFilter(value: unknown, args: readonly unknown[]): unknown {
  maxArgs('reveal_last', args, 2);
  const last = intArg('reveal_last', args, 0, undefined);
  const maskChar = charArg('reveal_last', args, 1, 'X');
  const s = inputString('reveal_last', value);
  if (s === null) return null;
  return revealString(s, 0, last, maskChar, s.indexOf('-') === -1 ? '' : '-');
}

function last4Filter(value: unknown, args: readonly unknown[]): unknown {
  maxArgs('last4', args, 0);
  const s = inputString('last4', value);
  if (s === null) return null;
  const chars = charsOf(s);
  if (typeof chars === 'string') return s.length <= 4 ? s : s.slice(s.length - 4);
  return chars.slice(-4).join('');
}

function codePointLength(s: string): number {
  const chars = charsOf(s);
  return chars.length;
}

function padFilter(name: 'pad_left' | 'pad_right'): FilterFn {
  return (value, args) => {
    maxArgs(name, args, 2);
    const len = intArg(name, args, 0, undefined);
    const ch = charArg(name, args, 1, ' ');
    const s = inputString(name, value);
    if (s === null) return null;
    const n = codePointLength(s);
    if (n >= len) return s;
    const pad = ch.repeat(len - n);
    return name === 'pad_left' ? pad + s : s + pad;
  };
}

// ---------------------------------------------------------------------------------------------------------------
// aliases

const DIGITS = '0123456789';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ALNUM = DIGITS + LOWER + UPPER;

function pick(alphabet: string): string {
  return alphabet[randomInt(alphabet.length)];
}

const RE_DIGIT = /^\p{N}$/u;
const RE_UPPER = /^[\p{Lu}\p{Lt}]$/u;
const RE_LETTER = /^\p{L}$/u;

/** Alphabet a character is replaced from, or null for a separator (kept as it is). */
function classOf(c: string): string | null {
  if (c >= '0' && c <= '9') return DIGITS;
  if (c >= 'a' && c <= 'z') return LOWER;
  if (c >= 'A' && c <= 'Z') return UPPER;
  if (c.charCodeAt(0) < 0x80) return null;
  if (RE_DIGIT.test(c)) return DIGITS;
  if (RE_UPPER.test(c)) return UPPER;
  if (RE_LETTER.test(c)) return LOWER;
  return null;
}

export function aliasPreserveFormat(s: string, first: number, last: number): string {
  const chars = Array.from(s);
  const classes = chars.map(classOf);
  let total = 0;
  for (const c of classes) if (c !== null) total++;
  const keepEnds = total > first + last;
  let out = '';
  let idx = 0;
  for (let i = 0; i < chars.length; i++) {
    const cls = classes[i];
    if (cls === null) {
      out += chars[i];
      continue;
    }
    out += keepEnds && (idx < first || idx >= total - last) ? chars[i] : pick(cls);
    idx++;
  }
  return out;
}

export function aliasPreserveLength(s: string, first: number, last: number): string {
  const chars = Array.from(s);
  const n = chars.length;
  const keepEnds = n > first + last;
  let out = '';
  for (let i = 0; i < n; i++) {
    out += keepEnds && (i < first || i >= n - last) ? chars[i] : pick(ALNUM);
  }
  return out;
}

function aliasFilter(name: 'alias_preserve_format' | 'alias_preserve_length'): FilterFn {
  return (value, args) => {
    maxArgs(name, args, 2);
    const first = intArg(name, args, 0, 0);
    const last = intArg(name, args, 1, 0);
    const s = inputString(name, value);
    if (s === null) return null;
    return name === 'alias_preserve_format' ? aliasPreserveFormat(s, first, last) : aliasPreserveLength(s, first, last);
  };
}

// ---------------------------------------------------------------------------------------------------------------
// card_bin

function cardBinFilter(value: unknown, args: readonly unknown[]): unknown {
  maxArgs('card_bin', args, 0);
  const s = inputString('card_bin', value);
  if (s === null) return null;
  const digits = s.replace(/[^0-9]/g, '');
  return digits.slice(0, digits.length >= 16 ? 8 : 6);
}

// ---------------------------------------------------------------------------------------------------------------
// casts

const NUMERIC = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Casts a value to a number: numbers pass, numeric strings are parsed, null stays null; anything else fails. */
export function castToNumber(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new ExpressionError('cannot convert the value to a number', 'evaluation');
    return value;
  }
  if (typeof value === 'string') {
    const t = value.trim();
    if (NUMERIC.test(t)) {
      const n = Number(t);
      if (Number.isFinite(n)) return n;
    }
  }
  throw new ExpressionError('cannot convert the value to a number', 'evaluation');
}

/**
 * Casts a value to a boolean: booleans pass; `true`/`false`/`1`/`0` (strings, any case, surrounding blanks
 * ignored) and the numbers 1/0 convert; null stays null; anything else fails.
 */
export function castToBoolean(value: unknown): boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value;
  if (value === 1) return true;
  if (value === 0) return false;
  if (typeof value === 'string') {
    const t = value.trim().toLowerCase();
    if (t === 'true' || t === '1') return true;
    if (t === 'false' || t === '0') return false;
  }
  throw new ExpressionError('cannot convert the value to a boolean', 'evaluation');
}

/** Casts a value to a string: strings pass, numbers/booleans String(), objects/arrays JSON text, null stays null. */
export function castToString(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      if (!Number.isFinite(value)) break;
      return String(value);
    case 'boolean':
      return String(value);
    case 'object': {
      const text = JSON.stringify(value);
      if (text !== undefined) return text;
      break;
    }
    default:
      break;
  }
  throw new ExpressionError('cannot convert the value to a string', 'evaluation');
}

function castFilter(name: string, cast: (v: unknown) => unknown): FilterFn {
  return (value, args) => {
    maxArgs(name, args, 0);
    try {
      return cast(value);
    } catch (e) {
      if (e instanceof ExpressionError) throw new ExpressionError(`filter "${name}": ${e.message}`, 'evaluation');
      throw e;
    }
  };
}

// ---------------------------------------------------------------------------------------------------------------
// table

export const FILTERS: Readonly<Record<string, FilterDef>> = Object.freeze({
  json: { fn: jsonFilter, args: ['path'], required: 0 },
  stringify: { fn: stringifyFilter, args: [], required: 0 },
  reveal: { fn: revealFilter, args: ['int', 'int', 'char', 'string'], required: 0 },
  reveal_last: { fn: revealLastFilter, args: ['int', 'char'], required: 1 },
  last4: { fn: last4Filter, args: [], required: 0 },
  pad_left: { fn: padFilter('pad_left'), args: ['int', 'char'], required: 1 },
  pad_right: { fn: padFilter('pad_right'), args: ['int', 'char'], required: 1 },
  alias_preserve_format: { fn: aliasFilter('alias_preserve_format'), args: ['int', 'int'], required: 0 },
  alias_preserve_length: { fn: aliasFilter('alias_preserve_length'), args: ['int', 'int'], required: 0 },
  card_bin: { fn: cardBinFilter, args: [], required: 0 },
  to_number: { fn: castFilter('to_number', castToNumber), args: [], required: 0 },
  to_boolean: { fn: castFilter('to_boolean', castToBoolean), args: [], required: 0 },
  to_string: { fn: castFilter('to_string', castToString), args: [], required: 0 },
});

/** Checks literal arguments known at parse time (count, kinds); values known only at render time are checked then. */
export function checkStaticArgs(filter: string, def: FilterDef, args: readonly ({ kind: 'number' | 'string' | 'other'; value?: unknown } | 'keyword')[]): void {
  if (args.length > def.args.length) maxArgs(filter, args, def.args.length);
  if (args.length < def.required) fail(filter, `${argName(args.length)} is required`);
  args.forEach((a, i) => {
    if (a === 'keyword') fail(filter, 'takes positional arguments only');
    const kind = def.args[i];
    if (a.kind === 'other') return;
    const at: unknown[] = [];
    at[i] = a.value;
    if (kind === 'int') {
      if (a.kind !== 'number') fail(filter, `${argName(i)} must be a non-negative integer`);
      intArg(filter, at, i, 0);
    } else if (a.kind !== 'string') {
      fail(filter, `${argName(i)} must be a string`);
    } else if (kind === 'char') {
      charArg(filter, at, i, ' ');
    }
  });
}
