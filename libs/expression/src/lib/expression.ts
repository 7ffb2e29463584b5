import { ExpressionError } from './errors';
import { ExpressionBudget, Meter } from './budget';
import { ExpressionScope, ScopeName, checkCompiled, checkTemplateText, compile, defaultScopeName, run } from './engine';

const EXPRESSION = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/;

/** True when the text contains a Liquid output (`{{ ... }}`) or tag (`{% ... %}`). */
export function isExpression(text: string): boolean {
  return typeof text === 'string' && EXPRESSION.test(text);
}

/**
 * Parses and checks a template for the given scope: syntax, unknown filters, forbidden tags (include, render,
 * layout), literal filter arguments, unknown root variables and length. Throws ExpressionError naming the problem.
 */
export function validateTemplate(template: string, scope: ScopeName): void {
  checkTemplateText(template);
  checkScopeName(scope);
  checkCompiled(compile(template), scope);
}

/**
 * Evaluates a template. A template that is exactly one `{{ expr }}` (surrounding blanks ignored) yields the typed
 * value (number, boolean, string, object, array; a missing value is null); any other template yields the rendered
 * string (objects and arrays inside text are rendered as JSON, null as nothing).
 *
 * `allowed` defaults to 'data+metadata' when `scope.metadata` is given, else 'data'.
 *
 * The time taken is charged to `budget` (the request's ExpressionBudget); without one the call is bounded by the
 * per-template limit alone. A spent budget throws ExpressionError `budget_exceeded`.
 */
export function evaluate(template: string, scope: ExpressionScope, allowed?: ScopeName, budget?: ExpressionBudget): unknown {
  checkTemplateText(template);
  const names = allowed ?? defaultScopeName(scope ?? {});
  if (allowed !== undefined) checkScopeName(allowed);
  const c = compile(template);
  checkCompiled(c, names);
  const meter = new Meter(budget ?? ExpressionBudget.single());
  try {
    return run(c, scope ?? {}, names, true, meter);
  } finally {
    meter.end();
  }
}

/** Like evaluate, as text: null when the typed result is null, objects and arrays as JSON, other values String(). */
export function renderToString(template: string, scope: ExpressionScope, allowed?: ScopeName, budget?: ExpressionBudget): string | null {
  return resultToString(evaluate(template, scope, allowed, budget));
}

export function resultToString(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

function checkScopeName(scope: unknown): void {
  if (scope !== 'data' && scope !== 'data+metadata') throw new ExpressionError('unknown scope', 'syntax');
}
