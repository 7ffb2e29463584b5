import { TypeGuards } from 'liquidjs';
import { ExpressionError } from './errors';
import { Compiled, checkCompiled, compile, outputText, run } from './engine';
import { LIMITS } from './limits';
import { ExpressionBudget, Meter, metered } from './budget';

/**
 * Detokenization expressions: `{{ <token id> }}` or `{{ <token id> | filter: args | ... }}` inside any string of
 * an arbitrary JSON value.
 *
 * Token ids are never pasted into Liquid source: the filter chain (when there is one) is compiled as
 * `{{ data | <filters> }}` after checking it holds filters with literal arguments only, and is evaluated with
 * `data` bound to the token's data.
 */

const TOKEN_ID = /^[^\s#/\\+?[\]|&=%<>{}^'"\p{Cc}]{3,400}$/u;

/** True for a token id that may appear in a detokenization expression (a UUID or 3–400 allowed characters). */
export function isValidTokenId(id: string): boolean {
  return typeof id === 'string' && TOKEN_ID.test(id);
}

interface Found {
  /** index of `{{` */
  readonly start: number;
  /** index after `}}` */
  readonly end: number;
  readonly tokenId: string;
  /** the compiled `{{ data | filters }}`, or undefined without filters */
  readonly filters?: Compiled;
}

const filterCache = new Map<string, Compiled>();

function compileFilters(filterText: string): Compiled {
  const cached = filterCache.get(filterText);
  if (cached) return cached;
  if (/\{\{|\}\}|\{%|%\}/.test(filterText)) {
    throw new ExpressionError('malformed detokenization expression', 'invalid_expression');
  }
  const source = `{{ data | ${filterText} }}`;
  if (source.length > LIMITS.templateLength) {
    throw new ExpressionError('detokenization expression too long', 'limit_exceeded');
  }
  const c = compile(source);
  if (c.error) {
    // syntax errors would quote our wrapper and the request's text: report them generically
    if (c.error.code === 'syntax') throw new ExpressionError('malformed detokenization expression', 'invalid_expression');
    throw c.error;
  }
  const value = c.typed;
  const post = value?.initial.postfix;
  const head = post?.length === 1 ? post[0] : undefined;
  const bare =
    head !== undefined &&
    TypeGuards.isPropertyAccessToken(head) &&
    head.variable === undefined &&
    head.props.length === 1 &&
    TypeGuards.isWordToken(head.props[0]) &&
    head.props[0].content === 'data';
  if (!value || !bare || c.templates.length !== 1) {
    throw new ExpressionError('malformed detokenization expression', 'invalid_expression');
  }
  for (const f of value.filters) {
    for (const a of f.args) {
      const literal = !Array.isArray(a) && (TypeGuards.isQuotedToken(a) || TypeGuards.isNumberToken(a) || TypeGuards.isLiteralToken(a));
      if (!literal) {
        throw new ExpressionError(`filter "${f.name}": arguments of detokenization expressions must be literals`, 'invalid_expression');
      }
    }
  }
  checkCompiled(c, 'data');
  if (filterCache.size >= LIMITS.cacheEntries) {
    const oldest = filterCache.keys().next();
    if (!oldest.done) filterCache.delete(oldest.value);
  }
  filterCache.set(filterText, c);
  return c;
}

/** Finds the detokenization expressions of one string; throws for a malformed one. */
function scan(s: string): Found[] {
  const found: Found[] = [];
  let open = s.indexOf('{{');
  while (open !== -1) {
    const close = s.indexOf('}}', open + 2);
    if (close === -1) break; // an unterminated `{{` is plain text
    const inner = s.slice(open + 2, close).trim();
    const bar = inner.indexOf('|');
    const tokenId = (bar === -1 ? inner : inner.slice(0, bar)).trim();
    if (!isValidTokenId(tokenId)) {
      throw new ExpressionError(inner === '' ? 'empty detokenization expression' : 'invalid token id in detokenization expression', 'invalid_token_id');
    }
    let filters: Compiled | undefined;
    if (bar !== -1) {
      const filterText = inner.slice(bar + 1).trim();
      if (filterText === '') throw new ExpressionError('malformed detokenization expression', 'invalid_expression');
      filters = compileFilters(filterText);
    }
    found.push({ start: open, end: close + 2, tokenId, filters });
    open = s.indexOf('{{', close + 2);
  }
  return found;
}

function walkStrings(value: unknown, depth: number, visit: (s: string) => void): void {
  if (typeof value === 'string') {
    visit(value);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (depth >= LIMITS.depth) throw new ExpressionError('value nested too deeply', 'limit_exceeded');
  if (Array.isArray(value)) {
    for (const v of value) walkStrings(v, depth + 1, visit);
    return;
  }
  for (const k of Object.keys(value)) walkStrings((value as Record<string, unknown>)[k], depth + 1, visit);
}

/**
 * Every token id referenced by a detokenization expression in a JSON value (strings anywhere in objects and
 * arrays; object keys are not searched), distinct, in order of first appearance. Throws ExpressionError for a
 * malformed expression or an invalid id. An unterminated `{{` is plain text.
 */
export function findDetokenizationExpressions(value: unknown): string[] {
  const ids = new Set<string>();
  walkStrings(value, 0, (s) => {
    if (s.indexOf('{{') === -1) return;
    for (const f of scan(s)) ids.add(f.tokenId);
  });
  return [...ids];
}

/**
 * Every detokenization expression in a JSON value, distinct, each as `<token id>` or `<token id> | <filters>` with the
 * blanks around the id, the bar and the filters trimmed — so that `{{id}}` and `{{ id }}` are the same expression.
 * Throws as findDetokenizationExpressions does.
 */
export function detokenizationExpressionsOf(value: unknown): string[] {
  const found = new Set<string>();
  walkStrings(value, 0, (s) => {
    if (s.indexOf('{{') === -1) return;
    for (const f of scan(s)) {
      const inner = s.slice(f.start + 2, f.end - 2).trim();
      const bar = inner.indexOf('|');
      found.add(bar === -1 ? f.tokenId : `${f.tokenId} | ${inner.slice(bar + 1).trim()}`);
    }
  });
  return [...found];
}

function setKey(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    out[key] = value;
  }
}

/**
 * Returns a copy of `value` with detokenization expressions replaced using `lookup(tokenId)` (called once per
 * distinct id; its errors propagate unchanged):
 * - a string that is exactly one expression (blanks around it ignored) becomes the expression's JSON value
 *   (objects injected whole; `| json: '$.number'` selects a part; null when the data is missing);
 * - a string with several expressions or other text stays a string, each expression rendered as text
 *   (objects and arrays as JSON, null as nothing);
 * - other values are kept; objects and arrays are copied.
 *
 * Filter chains are charged to `budget` (the request's ExpressionBudget; without one the whole value is bounded by
 * the per-template limit). A spent budget throws ExpressionError `budget_exceeded`.
 */
export function substituteDetokenization(value: unknown, lookup: (tokenId: string) => unknown, budget?: ExpressionBudget): unknown {
  return metered(budget, (meter) => substitute(value, lookup, meter));
}

function substitute(value: unknown, lookup: (tokenId: string) => unknown, meter: Meter): unknown {
  const memo = new Map<string, unknown>();
  const data = (id: string): unknown => {
    if (!memo.has(id)) memo.set(id, lookup(id));
    return memo.get(id);
  };
  const evalOne = (f: Found): unknown => {
    const d = data(f.tokenId);
    if (!f.filters) return d === undefined ? null : d;
    return run(f.filters, { data: d }, 'data', true, meter);
  };
  const visit = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') {
      if (v.indexOf('{{') === -1) return v;
      const found = scan(v);
      if (found.length === 0) return v;
      if (found.length === 1 && v.slice(0, found[0].start).trim() === '' && v.slice(found[0].end).trim() === '') {
        return copy(evalOne(found[0]));
      }
      let out = '';
      let at = 0;
      for (const f of found) {
        out += v.slice(at, f.start) + outputText(evalOne(f));
        at = f.end;
      }
      return out + v.slice(at);
    }
    if (v === null || typeof v !== 'object') return v;
    if (depth >= LIMITS.depth) throw new ExpressionError('value nested too deeply', 'limit_exceeded');
    if (Array.isArray(v)) return v.map((item) => visit(item, depth + 1));
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) setKey(out, k, visit((v as Record<string, unknown>)[k], depth + 1));
    return out;
  };
  return visit(value, 0);
}

/** Injected objects are copied so that one token used twice does not become two references to one object. */
function copy(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  try {
    return structuredClone(v);
  } catch {
    throw new ExpressionError('token data is not JSON', 'evaluation');
  }
}
