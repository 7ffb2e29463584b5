import { FieldErrors, type FormulaRequestParameter, type ParameterType } from '@coffer/contracts';
import { castToBoolean, castToNumber } from '@coffer/expression';

/** A declared parameter tree: `card.number` and `card.cvc` are children of `card`. */
interface ParamNode {
  param?: FormulaRequestParameter;
  children: Map<string, ParamNode>;
}

function buildTree(params: FormulaRequestParameter[]): ParamNode {
  const root: ParamNode = { children: new Map() };
  for (const p of params) {
    let node = root;
    for (const segment of p.name.split('.')) {
      let next = node.children.get(segment);
      if (!next) node.children.set(segment, (next = { children: new Map() }));
      node = next;
    }
    node.param = p;
  }
  return root;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function has(o: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key);
}

function setOwn(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * docs/reactors.md casts (spec rule 4): number from numeric strings; boolean from true/false (any case) and 1/0;
 * string from numbers and booleans. Anything else (objects and arrays included) cannot be cast.
 */
export function castArgument(value: unknown, type: ParameterType): { ok: true; value: unknown } | { ok: false } {
  try {
    switch (type) {
      case 'number':
        if (typeof value !== 'number' && typeof value !== 'string') return { ok: false };
        return { ok: true, value: castToNumber(value) };
      case 'boolean':
        if (typeof value !== 'boolean' && typeof value !== 'number' && typeof value !== 'string') return { ok: false };
        return { ok: true, value: castToBoolean(value) };
      case 'string':
        if (typeof value === 'string') return { ok: true, value };
        if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') return { ok: true, value: String(value) };
        return { ok: false };
    }
  } catch {
    return { ok: false };
  }
  return { ok: false };
}

/**
 * Spec argument rules 1–7 on arguments that are already detokenized (rules 5 and 7: casts and presence checks run
 * on the detokenized values).
 * - No declared parameters: the args are passed as given (rule 1).
 * - Declared parameters match by exact, case-sensitive, dot-separated path (rule 2); a required one that is absent
 *   (or null) is a 400 naming `args.<name>` (rule 3); a matched value of another type is cast or refused (rule 4).
 * - Everything undeclared is removed at every depth (rule 6): an object on the path to a declared parameter keeps
 *   only its declared children; the value of a declared parameter is kept whole. A value on such a path that is
 *   not an object is refused (400), since it cannot hold the declared children.
 * Throws a 400 listing every offending argument.
 */
export function applyArgumentRules(args: Record<string, unknown>, params: FormulaRequestParameter[]): Record<string, unknown> {
  if (!params.length) return args;
  const errors = new FieldErrors();
  const out = visit(args, buildTree(params), 'args', errors);
  errors.throwIfAny('The reactor arguments are invalid');
  return out;
}

function visit(src: Record<string, unknown> | undefined, node: ParamNode, path: string, errors: FieldErrors): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, child] of node.children) {
    const at = `${path}.${key}`;
    const present = src !== undefined && has(src, key) && src[key] !== undefined && src[key] !== null;
    if (child.param) {
      if (!present) {
        if (!child.param.optional) errors.add(at, 'is required');
        else if (src !== undefined && has(src, key) && src[key] === null) setOwn(out, key, null);
        continue;
      }
      const cast = castArgument(src[key], child.param.type);
      if (cast.ok) setOwn(out, key, cast.value);
      else errors.add(at, `must be a ${child.param.type}${child.param.type === 'number' ? ' or a numeric string' : ''}`);
      continue;
    }
    if (present && !isRecord(src[key])) {
      errors.add(at, 'must be an object');
      continue;
    }
    const nested = visit(present ? (src[key] as Record<string, unknown>) : undefined, child, at, errors);
    if (present || Object.keys(nested).length) setOwn(out, key, nested);
  }
  return out;
}
