import { Context, Emitter, FS, Liquid, Output, Template, TokenKind, TypeGuards, Value, toValue, toValueSync } from 'liquidjs';
import type { FilterImplOptions } from 'liquidjs';
import { ExpressionError, RENDER_TIME_MESSAGE, toExpressionError } from './errors';
import { FILTERS, FilterFn, checkStaticArgs } from './filters';
import { LIMITS } from './limits';
import { Meter, budgetExceeded } from './budget';

/** Variables an expression may use: `data` only (token id, mask, search index) or `data` and `metadata` (fingerprint). */
export type ScopeName = 'data' | 'data+metadata';

export interface ExpressionScope {
  data?: unknown;
  metadata?: Record<string, string>;
}

// ---------------------------------------------------------------------------------------------------------------
// the shared, sandboxed liquidjs instance

function noFiles(): never {
  throw new ExpressionError('file access is disabled', 'forbidden_tag');
}

/** A file system that has no files: nothing can ever be read through liquidjs. */
const NO_FS: FS = {
  exists: async () => false,
  existsSync: () => false,
  readFile: async () => noFiles(),
  readFileSync: () => noFiles(),
  resolve: () => noFiles(),
  contains: async () => false,
  containsSync: () => false,
  fallback: () => undefined,
};

/** The configured liquidjs engine (exported for tests and the benchmark; do not mutate). */
export const engine = new Liquid({
  fs: NO_FS,
  root: [],
  partials: [],
  layouts: [],
  relativeReference: false,
  dynamicPartials: false,
  cache: false,
  strictFilters: true,
  strictVariables: false,
  ownPropertyOnly: true,
  timezoneOffset: 0,
  parseLimit: LIMITS.parseLength,
  renderLimit: LIMITS.renderTimeMs,
  memoryLimit: LIMITS.memory,
});

for (const tag of ['include', 'render', 'layout']) {
  engine.registerTag(tag, {
    parse() {
      throw new ExpressionError(`tag "${tag}" is not allowed`, 'forbidden_tag');
    },
    render() {
      throw new ExpressionError(`tag "${tag}" is not allowed`, 'forbidden_tag');
    },
  });
}

for (const [name, def] of Object.entries(FILTERS)) {
  const fn = def.fn;
  engine.registerFilter(name, (value: unknown, ...args: unknown[]) =>
    fn(
      toValue(value),
      args.map((a) => toValue(a)),
    ),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// compilation

const BAIL: unique symbol = Symbol('bail');
/** A compiled `{{ data.path | filters }}`: returns the value, or BAIL when the data has a shape it does not handle. */
type FastFn = (data: unknown) => unknown;

export interface Compiled {
  readonly error?: ExpressionError;
  readonly templates: Template[];
  /** First root variable other than `data` and `metadata`. */
  readonly unknownRoot?: string;
  readonly usesMetadata: boolean;
  /** Set when the template has no Liquid markup: the text itself. */
  readonly constant?: string;
  /** Set when the (trimmed) template is exactly one `{{ ... }}`: the value it outputs. */
  readonly typed?: Value;
  /** Compiled closure for the common shapes (see compileFast). */
  readonly fast?: FastFn;
}

const MARKUP = /\{\{|\{%/;
const cache = new Map<string, Compiled>();

/** Parses (or takes from the cache) a template. Never throws: a parse failure is returned in `error`. */
export function compile(template: string): Compiled {
  let c = cache.get(template);
  if (c === undefined) {
    c = build(template);
    if (cache.size >= LIMITS.cacheEntries) {
      const oldest = cache.keys().next();
      if (!oldest.done) cache.delete(oldest.value);
    }
    cache.set(template, c);
  }
  return c;
}

function build(template: string): Compiled {
  if (!MARKUP.test(template)) return { templates: [], usesMetadata: false, constant: template };
  let templates: Template[];
  try {
    templates = engine.parse(template);
  } catch (e) {
    return failed(toExpressionError(e, 'parse'));
  }
  try {
    const globals = Object.keys(engine.analyzeSync(templates, { partials: false }).globals);
    const unknownRoot = globals.find((g) => g !== 'data' && g !== 'metadata');
    const usesMetadata = globals.includes('metadata');
    walkValues(templates, checkFilterArgs, 0);
    const significant = templates.filter((t) => !(t.token.kind === TokenKind.HTML && t.token.getText().trim() === ''));
    const single = significant.length === 1 && significant[0] instanceof Output ? significant[0] : undefined;
    const typed = single?.value;
    const fast = typed && !unknownRoot && !usesMetadata ? compileFast(typed) : undefined;
    return { templates, unknownRoot, usesMetadata, typed, fast };
  } catch (e) {
    return failed(toExpressionError(e, 'parse'));
  }
}

function failed(error: ExpressionError): Compiled {
  return { error, templates: [], usesMetadata: false };
}

function walkValues(templates: Template[], visit: (v: Value) => void, depth: number): void {
  if (depth > 200) throw new ExpressionError('template nested too deeply', 'limit_exceeded');
  for (const t of templates) {
    if (t.arguments) for (const a of t.arguments()) if (a instanceof Value) visit(a);
    if (t.children) walkValues(toValueSync(t.children(false, true)) as Template[], visit, depth + 1);
  }
}

function checkFilterArgs(v: Value): void {
  for (const f of v.filters) {
    const def = FILTERS[f.name];
    if (!def) continue;
    checkStaticArgs(
      f.name,
      def,
      f.args.map((a) => {
        if (Array.isArray(a)) return 'keyword' as const;
        if (TypeGuards.isNumberToken(a)) return { kind: 'number' as const, value: a.content };
        if (TypeGuards.isQuotedToken(a)) return { kind: 'string' as const, value: a.content };
        return { kind: 'other' as const };
      }),
    );
  }
}

// ---------------------------------------------------------------------------------------------------------------
// fast path

/** Liquid filters whose implementations only need `this.context.memoryLimit`; safe to call directly. */
const STANDARD_FAST = new Set([
  'remove',
  'remove_first',
  'remove_last',
  'replace',
  'replace_first',
  'replace_last',
  'upcase',
  'downcase',
  'capitalize',
  'strip',
  'lstrip',
  'rstrip',
]);
/** Property names liquidjs treats specially (`size`, `first`, `last`): left to liquidjs. */
const SPECIAL_KEYS = new Set(['size', 'first', 'last']);

type StdHandler = (this: unknown, value: unknown, ...args: unknown[]) => unknown;

interface Step {
  readonly own?: FilterFn;
  readonly std?: StdHandler;
  readonly args: unknown[];
}

class MemoryBudget {
  private used = 0;
  use(n: number): void {
    if (+n > 0) {
      this.used += +n;
      if (this.used > LIMITS.memory) throw new ExpressionError('memory limit exceeded', 'limit_exceeded');
    }
  }
}

function handlerOf(impl: FilterImplOptions | undefined): StdHandler | undefined {
  if (typeof impl === 'function') return impl as StdHandler;
  if (impl && typeof impl.handler === 'function' && !impl.raw) return impl.handler as StdHandler;
  return undefined;
}

/**
 * Compiles `{{ data }}`, `{{ data.a.b }}`, `{{ data['k'][0] }}` optionally followed by filters that are Coffer's own
 * or simple Liquid string filters, all with literal (quoted or number) positional arguments, into a closure.
 * Anything else returns undefined and is evaluated by liquidjs. The closure bails out (to liquidjs) on data that
 * is not plain JSON.
 */
function compileFast(value: Value): FastFn | undefined {
  const post = value.initial.postfix;
  if (post.length !== 1) return undefined;
  const tok = post[0];
  if (!TypeGuards.isPropertyAccessToken(tok) || tok.variable !== undefined) return undefined;
  const props = tok.props;
  const root = props[0];
  if (!root || !TypeGuards.isWordToken(root) || root.content !== 'data') return undefined;
  const keys: (string | number)[] = [];
  for (let i = 1; i < props.length; i++) {
    const p = props[i];
    if (TypeGuards.isWordToken(p) || TypeGuards.isQuotedToken(p)) {
      if (SPECIAL_KEYS.has(p.content)) return undefined;
      keys.push(p.content);
    } else if (TypeGuards.isNumberToken(p) && Number.isInteger(p.content) && p.content >= 0) {
      keys.push(p.content);
    } else {
      return undefined;
    }
  }
  const steps: Step[] = [];
  for (const f of value.filters) {
    const args: unknown[] = [];
    for (const a of f.args) {
      if (Array.isArray(a)) return undefined;
      if (TypeGuards.isQuotedToken(a) || TypeGuards.isNumberToken(a)) args.push(a.content);
      else return undefined;
    }
    const own = FILTERS[f.name];
    if (own) {
      steps.push({ own: own.fn, args });
    } else if (STANDARD_FAST.has(f.name)) {
      const std = handlerOf(engine.filters[f.name]);
      if (!std) return undefined;
      steps.push({ std, args });
    } else {
      return undefined;
    }
  }
  const usesStd = steps.some((s) => s.std);
  if (keys.length === 1 && steps.length === 0) {
    // {{ data.key }}
    const key = keys[0];
    return (data) => readPath(data, key);
  }
  if (keys.length === 1 && steps.length === 1 && steps[0].own) {
    // the most common shape: {{ data.key | filter: args }}
    const key = keys[0];
    const fn = steps[0].own;
    const args = steps[0].args;
    return (data) => {
      const v = readPath(data, key);
      return v === BAIL ? BAIL : fn(v, args);
    };
  }
  return (data) => {
    let v: unknown = data;
    for (const k of keys) {
      v = readPath(v, k);
      if (v === BAIL) return BAIL;
    }
    if (keys.length === 0 && !isJsonLike(v)) return BAIL;
    const self = usesStd ? { context: { memoryLimit: new MemoryBudget() }, liquid: engine } : undefined;
    for (const s of steps) {
      v = s.own ? s.own(v, s.args) : (s.std as StdHandler).apply(self, [v, ...s.args]);
    }
    return v;
  };
}

const hasOwn = Object.prototype.hasOwnProperty;

function isJsonLike(v: unknown): boolean {
  if (v === null || typeof v !== 'object') return typeof v !== 'function' && typeof v !== 'symbol' && typeof v !== 'bigint';
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && typeof (v as { toLiquid?: unknown }).toLiquid !== 'function';
}

/** liquidjs' property read (ownPropertyOnly) for plain JSON; BAIL for anything else. */
function readPath(obj: unknown, key: string | number): unknown {
  if (obj === null || obj === undefined) return obj;
  if (!isJsonLike(obj)) return BAIL;
  const v = hasOwn.call(obj, key) ? (obj as Record<string | number, unknown>)[key] : undefined;
  return isJsonLike(v) ? v : BAIL;
}

// ---------------------------------------------------------------------------------------------------------------
// evaluation

/** Throws for an over-long or non-string template. */
export function checkTemplateText(template: unknown): asserts template is string {
  if (typeof template !== 'string') throw new ExpressionError('a template must be a string', 'syntax');
  if (template.length > LIMITS.templateLength) {
    throw new ExpressionError(`template longer than ${LIMITS.templateLength} characters`, 'limit_exceeded');
  }
}

/** Throws the compile error or a root-variable error for the given scope. */
export function checkCompiled(c: Compiled, allowed: ScopeName): void {
  if (c.error) throw c.error;
  if (c.unknownRoot !== undefined) throw new ExpressionError(`unknown variable "${c.unknownRoot}"`, 'unknown_variable');
  if (c.usesMetadata && allowed === 'data') throw new ExpressionError('unknown variable "metadata"', 'unknown_variable');
}

class BoundedEmitter implements Emitter {
  buffer = '';
  write(html: unknown): void {
    const s = outputText(html);
    if (this.buffer.length + s.length > LIMITS.outputLength) {
      throw new ExpressionError('output size limit exceeded', 'limit_exceeded');
    }
    this.buffer += s;
  }
}

function isPlainObject(v: unknown): boolean {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** How a value appears in string output: null -> '', objects and arrays as JSON. */
export function outputText(value: unknown): string {
  const v = toValue(value);
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (Array.isArray(v) || isPlainObject(v)) return JSON.stringify(v) ?? '';
  return String(v);
}

/** A typed result as callers see it: undefined -> null, Drops unwrapped, non-finite numbers and huge strings rejected. */
function normalize(value: unknown): unknown {
  const v = toValue(value);
  if (v === undefined || v === null) return null;
  switch (typeof v) {
    case 'number':
      if (!Number.isFinite(v)) throw new ExpressionError('expression produced a non-finite number', 'evaluation');
      return v;
    case 'string':
      if (v.length > LIMITS.outputLength) throw new ExpressionError('output size limit exceeded', 'limit_exceeded');
      return v;
    case 'boolean':
    case 'object':
      return v;
    default:
      throw new ExpressionError('expression produced a value that is not JSON', 'evaluation');
  }
}

function liquidScope(scope: ExpressionScope, allowed: ScopeName): Record<string, unknown> {
  const data = scope.data === undefined ? null : scope.data;
  return allowed === 'data' ? { data } : { data, metadata: scope.metadata ?? null };
}

/**
 * Evaluates a compiled template, charging `meter`. `useFast` false forces liquidjs (tests compare both paths).
 * The caller has already called checkCompiled.
 *
 * Constants and compiled closures are charged through the meter's sampled clock (see Meter); a liquidjs render gets
 * min(per-template limit, what remains of the request's budget) as its render limit, through liquidjs' per-call
 * RenderOptions.
 */
export function run(c: Compiled, scope: ExpressionScope, allowed: ScopeName, useFast: boolean, meter: Meter): unknown {
  if (c.constant !== undefined) return c.constant;
  let limit: { ms: number; byBudget: boolean } | undefined;
  try {
    if (useFast && c.fast) {
      const r = c.fast(scope.data === undefined ? null : scope.data);
      meter.fastRan();
      if (r !== BAIL) return normalize(r);
    }
    limit = meter.renderLimit();
    const ctx = new Context(liquidScope(scope, allowed), engine.options, { sync: true, renderLimit: limit.ms }, { liquid: engine });
    if (c.typed) return normalize(toValueSync(c.typed.value(ctx, false)));
    const emitter = new BoundedEmitter();
    toValueSync(engine.renderer.renderTemplates(c.templates, ctx, emitter));
    return emitter.buffer;
  } catch (e) {
    const err = toExpressionError(e, 'render');
    // a render stopped by what remained of the request's budget, not by its own limit, is the budget's error
    if (limit?.byBudget && err.code === 'limit_exceeded' && err.message === RENDER_TIME_MESSAGE) throw budgetExceeded(meter.budget);
    throw err;
  }
}

export function defaultScopeName(scope: ExpressionScope): ScopeName {
  return scope.metadata !== undefined ? 'data+metadata' : 'data';
}
