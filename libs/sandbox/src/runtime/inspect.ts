/**
 * `util.inspect` and `util.format`. inspect is util@0.12's, with `customInspect` always off: no method or symbol of
 * the inspected value is ever called on the formula's behalf (the value's getters are not called either). `format`
 * is Node 16's: util@0.12's predates `%o`, `%O`, `%i`, `%f` and `%c`.
 */
import { loadUtilModule } from './bundled';
import { getBuffer } from './buffer';

export interface InspectOptions {
  depth?: number | null;
  showHidden?: boolean;
}

const MAX_BUFFER_BYTES = 50;

function inspectBuffer(b: Uint8Array): string {
  let s = '<Buffer';
  for (let i = 0; i < Math.min(b.length, MAX_BUFFER_BYTES); i++) s += ' ' + (b[i] < 16 ? '0' : '') + b[i].toString(16);
  return s + (b.length > MAX_BUFFER_BYTES ? ' ... ' + (b.length - MAX_BUFFER_BYTES) + ' more bytes>' : '>');
}

export function inspect(value: unknown, options?: InspectOptions): string {
  try {
    if (value instanceof Error && typeof value.stack === 'string') return value.stack;
    if (value instanceof Uint8Array && getBuffer().isBuffer(value)) return inspectBuffer(value);
    const depth = options && (typeof options.depth === 'number' || options.depth === null) ? options.depth : 2;
    return loadUtilModule().inspect(value, { depth, showHidden: Boolean(options && options.showHidden), colors: false, customInspect: false });
  } catch {
    // a Proxy trap or a getter of the formula's threw: the formula's own problem, not the logger's
    return '[object]';
  }
}

function formatOne(spec: string, arg: unknown): string | null {
  switch (spec) {
    case 's':
      return typeof arg === 'string' ? arg : typeof arg === 'object' && arg !== null ? inspect(arg, { depth: 1 }) : inspect(arg);
    case 'd':
    case 'i':
      if (typeof arg === 'bigint') return arg + 'n';
      return String(spec === 'i' ? Math.trunc(Number(arg)) : Number(arg));
    case 'f':
      return String(parseFloat(String(arg)));
    case 'j':
      try {
        return JSON.stringify(arg);
      } catch {
        return '[Circular]';
      }
    case 'o':
      return inspect(arg, { depth: 4, showHidden: true });
    case 'O':
      return inspect(arg, { depth: 2 });
    case 'c':
      return '';
    default:
      return null;
  }
}

export function format(...args: unknown[]): string {
  let i = 0;
  let out = '';
  if (typeof args[0] === 'string') {
    const f = args[0];
    i = 1;
    let last = 0;
    for (let p = 0; p < f.length - 1; p++) {
      if (f.charCodeAt(p) !== 37 /* % */) continue;
      const spec = f[p + 1];
      if (spec === '%') {
        out += f.slice(last, p) + '%';
        last = p + 2;
        p++;
        continue;
      }
      if (i >= args.length) continue;
      const rep = formatOne(spec, args[i]);
      if (rep === null) continue;
      i++;
      out += f.slice(last, p) + rep;
      last = p + 2;
      p++;
    }
    out += f.slice(last);
  }
  for (; i < args.length; i++) {
    const a = args[i];
    out += (out.length || i > 0 ? ' ' : '') + (typeof a === 'string' ? a : inspect(a));
  }
  return out;
}
