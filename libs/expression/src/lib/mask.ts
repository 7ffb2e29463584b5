import { ExpressionError } from './errors';
import { checkCompiled, checkTemplateText, compile, run } from './engine';
import { ExpressionBudget, Meter } from './budget';
import { LIMITS } from './limits';

type Segment = string | number;

const IDENT = /^[A-Za-z_$][\w$-]*$/;

export function formatPath(root: string, segments: readonly Segment[]): string {
  let out = root;
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (IDENT.test(s)) out += `.${s}`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

function setKey(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    out[key] = value;
  }
}

function evalLeaf(template: string, data: unknown, meter: Meter): unknown {
  checkTemplateText(template);
  const c = compile(template);
  checkCompiled(c, 'data');
  return run(c, { data }, 'data', true, meter);
}

function maskNode(mask: unknown, data: unknown, path: Segment[], meter: Meter): unknown {
  if (typeof mask === 'string') return evalLeaf(mask, data, meter);
  if (mask === null || typeof mask !== 'object') {
    if (mask === null || mask === undefined || typeof mask === 'number' || typeof mask === 'boolean') return mask ?? null;
    throw new ExpressionError('unsupported mask value', 'syntax');
  }
  if (path.length >= LIMITS.depth) throw new ExpressionError('mask nested too deeply', 'limit_exceeded');
  if (Array.isArray(mask)) {
    const out: unknown[] = new Array(mask.length);
    for (let i = 0; i < mask.length; i++) {
      path.push(i);
      const v = maskNode(mask[i], data, path, meter);
      path.pop();
      out[i] = v === undefined ? null : v;
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(mask)) {
    path.push(key);
    const v = maskNode((mask as Record<string, unknown>)[key], data, path, meter);
    path.pop();
    if (v !== null && v !== undefined) setKey(out, key, v);
  }
  return out;
}

/**
 * Applies a mask to token data. The mask mirrors the data: string leaves are templates over `data` (the whole
 * token data); objects and arrays are walked. An object key absent from the mask is absent from the output; a mask
 * value that evaluates to null is omitted from its object (array elements stay, as null). Non-string leaves
 * (numbers, booleans, null) are copied. Errors name the mask path, e.g. `mask.number: ...`.
 *
 * All leaves are charged to `budget` (the request's ExpressionBudget); without one the whole mask is bounded by the
 * per-template limit. A spent budget throws ExpressionError `budget_exceeded`.
 */
export function evaluateMask(mask: unknown, data: unknown, budget?: ExpressionBudget): unknown {
  const path: Segment[] = [];
  // the meter's allocation and two clock reads are the fast path's only overhead (no closure here: this is hot)
  let meter: Meter | undefined;
  try {
    meter = new Meter(budget ?? ExpressionBudget.single());
    return maskNode(mask, data, path, meter);
  } catch (e) {
    const err = e instanceof ExpressionError ? e : new ExpressionError('mask evaluation failed', 'evaluation');
    throw new ExpressionError(`${formatPath('mask', path)}: ${err.message}`, err.code);
  } finally {
    meter?.end();
  }
}

export interface MaskProblem {
  path: string;
  message: string;
}

/** Validates every template leaf of a mask with scope 'data'. Returns the problems found (empty when valid). */
export function validateMask(mask: unknown): MaskProblem[] {
  const problems: MaskProblem[] = [];
  const path: Segment[] = [];
  const visit = (m: unknown): void => {
    if (typeof m === 'string') {
      try {
        checkTemplateText(m);
        checkCompiled(compile(m), 'data');
      } catch (e) {
        problems.push({ path: formatPath('mask', path), message: e instanceof ExpressionError ? e.message : 'invalid template' });
      }
      return;
    }
    if (m === null || typeof m === 'number' || typeof m === 'boolean') return;
    if (typeof m !== 'object') {
      problems.push({ path: formatPath('mask', path), message: 'unsupported mask value' });
      return;
    }
    if (path.length >= LIMITS.depth) {
      problems.push({ path: formatPath('mask', path), message: 'mask nested too deeply' });
      return;
    }
    if (Array.isArray(m)) {
      m.forEach((item, i) => {
        path.push(i);
        visit(item);
        path.pop();
      });
      return;
    }
    for (const key of Object.keys(m)) {
      path.push(key);
      visit((m as Record<string, unknown>)[key]);
      path.pop();
    }
  };
  visit(mask);
  return problems;
}
