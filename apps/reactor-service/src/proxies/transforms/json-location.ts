import { TransformError } from './transform-error';

/** `$.a['b'][0]` as steps: names and indexes (the only locations append_json accepts). */
export function locationSteps(location: string): Array<string | number> {
  const steps: Array<string | number> = [];
  const step = /\.([A-Za-z_$][A-Za-z0-9_$-]*)|\['((?:[^'\\]|\\.)*)'\]|\[(\d+)\]/y;
  step.lastIndex = 1;
  while (step.lastIndex < location.length) {
    const m = step.exec(location);
    if (!m) throw new TransformError('input', 'is not a JSONPath of names and indexes', 'location', 'The proxy transform is invalid');
    steps.push(m[1] ?? (m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : Number(m[3])));
  }
  // a step into an object's prototype would write to every object of the process
  if (steps.some((s) => s === '__proto__' || s === 'constructor' || s === 'prototype'))
    throw new TransformError('input', 'must not name __proto__, constructor or prototype', 'location', 'The proxy transform is invalid');
  return steps;
}

/** Writes `value` at `location` in `doc`, creating objects (or arrays, before an index) on the way. */
export function setAt(doc: unknown, location: string, value: unknown): unknown {
  const steps = locationSteps(location);
  if (!steps.length) return value;
  const root: unknown = doc !== null && typeof doc === 'object' ? doc : typeof steps[0] === 'number' ? [] : {};
  let node = root as Record<string | number, unknown>;
  steps.forEach((s, i) => {
    if (i === steps.length - 1) {
      node[s] = value;
      return;
    }
    const next = node[s];
    if (next === null || typeof next !== 'object') node[s] = typeof steps[i + 1] === 'number' ? [] : {};
    node = node[s] as Record<string | number, unknown>;
  });
  return root;
}
