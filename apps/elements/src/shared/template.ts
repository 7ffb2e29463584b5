// Data templates: the page sends request bodies in which its elements stand for values as references
// ({ $coffer: { element, part? } }); the controller frame replaces them by the values its sibling frames hold, and
// cleans the API's reply before the page sees it.

export interface ElementRef {
  element: string;
  part?: 'month' | 'year';
}

export const REF_KEY = '$coffer';

export function isRef(v: unknown): v is { [REF_KEY]: ElementRef } {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const r = (v as Record<string, unknown>)[REF_KEY];
  if (!r || typeof r !== 'object' || Object.keys(v).length !== 1) return false;
  const { element, part } = r as Record<string, unknown>;
  return typeof element === 'string' && (part === undefined || part === 'month' || part === 'year');
}

/** The element ids a body refers to. */
export function collectRefs(v: unknown, out: Set<string> = new Set()): Set<string> {
  if (isRef(v)) out.add(v[REF_KEY].element);
  else if (Array.isArray(v)) v.forEach((x) => collectRefs(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => collectRefs(x, out));
  return out;
}

/** Page side: a body with every element (or element part) replaced by a reference, checked to be plain JSON. */
export function toTemplate(v: unknown, refOf: (x: unknown) => ElementRef | undefined, path = 'body', depth = 0): unknown {
  if (depth > 64) throw new TypeError(`${path} is nested too deeply`);
  const ref = refOf(v);
  if (ref) return { [REF_KEY]: ref };
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new TypeError(`${path} is not a finite number`);
    return v;
  }
  if (v === undefined) return undefined;
  if (Array.isArray(v)) return v.map((x, i) => toTemplate(x === undefined ? null : x, refOf, `${path}[${i}]`, depth + 1));
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object') {
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) throw new TypeError(`${path} is neither an element nor plain JSON`);
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const t = toTemplate(x, refOf, `${path}.${k}`, depth + 1);
      if (t !== undefined) out[k] = t;
    }
    return out;
  }
  throw new TypeError(`${path} is neither an element nor plain JSON`);
}

/** The value an element frame holds: a string, or for a card / expiration date an object. */
export type ElementValue = string | { [k: string]: string | number };

export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CofferValidationError';
  }
}

function substitute(v: unknown, values: ReadonlyMap<string, ElementValue>): unknown {
  if (isRef(v)) {
    const { element, part } = v[REF_KEY];
    const value = values.get(element);
    if (value === undefined) throw new TemplateError('an element in the request has no value');
    if (part) {
      if (typeof value !== 'object' || value[part] === undefined) throw new TemplateError(`.${part}() refers to an element without a ${part}`);
      return value[part];
    }
    return value;
  }
  if (Array.isArray(v)) return v.map((x) => substitute(x, values));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = substitute(x, values);
    return out;
  }
  return v;
}

function assertNoRefs(v: unknown, where: string): void {
  if (collectRefs(v).size > 0) throw new TemplateError(`elements may only stand in ${where}`);
}

// An alias id computed from the data must not show more than a card's first 8 and last 4 characters: the page sees
// the id. `{{ data | alias_preserve_format: 0, 4 }}` is fine; `{{ data.number }}` is refused.
const ALIAS_RE = /^\{\{\s*data(\.(?:number|[A-Za-z_][A-Za-z0-9_]*))?\s*\|\s*alias_preserve_(?:format|length)\s*(?::\s*(\d+)\s*,\s*(\d+)\s*)?\}\}$/;

export function checkAliasId(id: unknown): void {
  if (typeof id !== 'string' || !id.includes('{{')) return;
  const m = ALIAS_RE.exec(id.trim());
  const first = Number(m?.[2] ?? 0);
  const last = Number(m?.[3] ?? 0);
  if (!m || m[1] === '.cvc' || first > 8 || last > 4) {
    throw new TemplateError(
      'an id expression over element data may only be alias_preserve_format or alias_preserve_length, showing at most the first 8 and last 4 characters',
    );
  }
}

function isTokenSpec(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v) && 'type' in v && 'data' in v;
}

/** The element type of each element id of a request (what the element frames said they are). */
export type Kinds = ReadonlyMap<string, string>;

const carriesCvc = (ids: Iterable<string>, kinds: Kinds) => [...ids].some((id) => kinds.get(id) === 'cardVerificationCode' || kinds.get(id) === 'card');

/**
 * A token request whose data holds element values. It is never deduplicated: an existing token answering it would tell
 * the page that the value equals one it can name (a token it made itself from a guess), and a page that learnt the
 * BIN and last 4 could test the few digits left. The page never sees a fingerprint of it either (dropFingerprints), so
 * a fingerprint or search expression of the merchant's own tells the page nothing. Merchants deduplicate from their
 * backend, by fingerprint. A token intent has no deduplication (`forToken` false).
 */
function resolveSpec(spec: Record<string, unknown>, values: ReadonlyMap<string, ElementValue>, kinds: Kinds, forToken = true): Record<string, unknown> {
  const { data, ...rest } = spec;
  assertNoRefs(rest, '`data`');
  const refs = collectRefs(data);
  if (refs.size === 0) return { ...rest, data: substitute(data, values) };
  checkAliasId(rest.id);
  // a fingerprint or search index over a security code alone would let the backend's callers test guesses of it
  if (carriesCvc(refs, kinds) && (rest.fingerprint_expression !== undefined || rest.search_indexes !== undefined)) {
    throw new TemplateError('a token holding a security code cannot set fingerprint_expression or search_indexes');
  }
  if (!forToken) return { ...rest, data: substitute(data, values) };
  if (rest.deduplicate_token === true) {
    throw new TemplateError('a token made from elements is never deduplicated: deduplicate from your backend, by fingerprint');
  }
  return { ...rest, deduplicate_token: false, data: substitute(data, values) };
}

/** A reply without any `fingerprint` member. */
export function dropFingerprints(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropFingerprints);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (k !== 'fingerprint') out[k] = dropFingerprints(x);
    return out;
  }
  return v;
}

/**
 * The body of POST /tokens or /token-intents: elements may stand only inside `data` (elsewhere, say in `metadata`,
 * the value would come back to the page).
 */
export function resolveTokenBody(body: unknown, values: ReadonlyMap<string, ElementValue>, kinds: Kinds = new Map(), forToken = true): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new TemplateError('the request must be an object');
  return resolveSpec(body as Record<string, unknown>, values, kinds, forToken);
}

/** Where a tokenize reply holds a token the page asked for as a bare element: keys from the root. */
export type ReplyPath = (string | number)[];

/**
 * The body of POST /tokenize: an object with `type` and `data` becomes a token (elements only in its `data`); any
 * other element becomes a token of its own — sent as `{ type: 'token', data, deduplicate_token: false }`, so it is
 * never deduplicated either, its place noted in `bare` so that the reply shows only its id there, as tokenize shows a
 * bare value's; other objects and arrays are walked.
 */
export function resolveTokenizeBody(
  body: unknown,
  values: ReadonlyMap<string, ElementValue>,
  kinds: Kinds = new Map(),
  bare: ReplyPath[] = [],
  at: ReplyPath = [],
): unknown {
  if (isRef(body)) {
    if (carriesCvc([body[REF_KEY].element], kinds)) {
      throw new TemplateError("a security code on its own must be tokenized as { type: 'token', data: element }, not as a bare value");
    }
    bare.push(at);
    return { type: 'token', data: substitute(body, values), deduplicate_token: false };
  }
  if (isTokenSpec(body)) return resolveSpec(body, values, kinds);
  if (Array.isArray(body)) return body.map((x, i) => resolveTokenizeBody(x, values, kinds, bare, [...at, i]));
  if (body && typeof body === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(body)) out[k] = resolveTokenizeBody(x, values, kinds, bare, [...at, k]);
    return out;
  }
  return body;
}

/** The reply with the token at each of `paths` replaced by its id (a bare element's place in a tokenize call). */
export function idsAt(reply: unknown, paths: readonly ReplyPath[]): unknown {
  let out = reply;
  for (const path of paths) out = replaceAt(out, path, 0);
  return out;
}

function replaceAt(v: unknown, path: ReplyPath, i: number): unknown {
  if (i === path.length) return v && typeof v === 'object' && typeof (v as { id?: unknown }).id === 'string' ? (v as { id: string }).id : v;
  const key = path[i];
  if (Array.isArray(v) && typeof key === 'number') return v.map((x, j) => (j === key ? replaceAt(x, path, i + 1) : x));
  if (v && typeof v === 'object' && !Array.isArray(v) && typeof key === 'string' && key in v) {
    return { ...(v as Record<string, unknown>), [key]: replaceAt((v as Record<string, unknown>)[key], path, i + 1) };
  }
  return v;
}

function isTokenLike(v: unknown): v is Record<string, unknown> {
  return (
    !!v &&
    typeof v === 'object' &&
    !Array.isArray(v) &&
    typeof (v as Record<string, unknown>).id === 'string' &&
    typeof (v as Record<string, unknown>).type === 'string'
  );
}

/** A token or intent reply without `data` (wherever a token stands in a tokenize reply). */
export function stripData(reply: unknown, depth = 0): unknown {
  if (depth > 66) return undefined;
  if (Array.isArray(reply)) return reply.map((x) => stripData(x, depth + 1));
  if (reply && typeof reply === 'object') {
    const out: Record<string, unknown> = {};
    const token = isTokenLike(reply);
    for (const [k, x] of Object.entries(reply)) {
      if (token && k === 'data') continue;
      out[k] = token && (k === 'metadata' || k === 'card' || k === 'mask') ? x : stripData(x, depth + 1);
    }
    return out;
  }
  return reply;
}

/** Whether any collected value (of 8 characters or more; shorter ones match by chance) appears in a reply. */
export function containsValue(reply: unknown, values: Iterable<ElementValue>): boolean {
  const text = JSON.stringify(reply) ?? '';
  const needles: string[] = [];
  for (const v of values) {
    if (typeof v === 'string') needles.push(v);
    else for (const x of Object.values(v)) if (typeof x === 'string') needles.push(x);
  }
  return needles.some((n) => n.length >= 8 && text.includes(JSON.stringify(n).slice(1, -1)));
}
